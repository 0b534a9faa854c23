import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStore } from '../../src/memory/store.ts';
import { runCli } from './mcp-child.ts';
import { cliSetup } from './helpers.ts';

const setup = cliSetup;

test('synaptic data backup works online; restore refuses while a server holds the database, then succeeds', async () => {
  const s = setup();
  try {
    const server = MemoryStore.open({ dir: s.data }); // holds the shared lifecycle lock, like serve
    server.remember({ content: 'Before backup.', source: 's', scope: 'global', project: s.repo });
    const file = join(s.dir, 'backup.db');
    const b = await runCli(['data', 'backup', file], s.env, s.repo);
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, /Backed up 1 memories/);
    server.remember({ content: 'After backup.', source: 's', scope: 'global', project: s.repo });
    const refused = await runCli(['data', 'restore', file], s.env, s.repo);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Cannot restore: a synaptic server or command is using the memory database/);
    assert.equal(server.count(s.repo), 2, 'untouched');
    server.close();
    const ok = await runCli(['data', 'restore', file], s.env, s.repo);
    assert.equal(ok.code, 0, ok.stderr);
    assert.ok(existsSync(join(s.data, 'memory.db.before-restore')));
    const after = MemoryStore.open({ dir: s.data });
    assert.deepEqual(after.recall({ query: '', project: s.repo }).memories.map((m) => m.body), ['Before backup.']);
    after.close();
  } finally {
    s.cleanup();
  }
});

test('synaptic install claude then uninstall claude through the CLI leaves the project as it was', async () => {
  const s = setup();
  try {
    const i = await runCli(['install', 'claude'], s.env, s.repo);
    assert.equal(i.code, 0, i.stderr);
    const settings = JSON.parse(readFileSync(join(s.repo, '.claude', 'settings.json'), 'utf8'));
    assert.equal(settings.hooks.SessionStart[0].hooks[0].command, 'synaptic session --json');
    assert.match((await runCli(['install', 'claude'], s.env, s.repo)).stdout, /Already installed/);
    assert.equal((await runCli(['uninstall', 'claude'], s.env, s.repo)).code, 0);
    assert.ok(!existsSync(join(s.repo, '.mcp.json')));
    assert.ok(!existsSync(join(s.repo, '.claude')));
  } finally {
    s.cleanup();
  }
});
