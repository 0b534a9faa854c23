import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MemoryStore } from '../../src/memory/store.ts';
import { runCli } from './mcp-child.ts';
import { cliSetup } from './helpers.ts';

const setup = cliSetup;

test('synaptic memory list/show/forget/restore/export/import work on the shared database', async () => {
  const s = setup();
  try {
    const store = MemoryStore.open({ dir: s.data });
    const v1 = store.remember({ content: 'Build with make.', source: 'user', scope: 'project', project: s.repo });
    const v2 = store.remember({ content: 'Build with npm run build.', source: 'user', scope: 'project', project: s.repo, supersedes: [v1.id] });
    store.close();
    const list = await runCli(['memory', 'list', '--json'], s.env, s.repo);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(JSON.parse(list.stdout).map((m: { id: number }) => m.id), [v2.id]);
    const show = await runCli(['memory', 'show', String(v2.id)], s.env, s.repo);
    assert.match(show.stdout, /Build with npm run build\./);
    assert.match(show.stdout, new RegExp(`#${v1.id} .*\\[superseded by ${v2.id}\\]`));
    assert.equal((await runCli(['memory', 'forget', String(v2.id)], s.env, s.repo)).code, 0);
    assert.equal((await runCli(['memory', 'restore', String(v1.id)], s.env, s.repo)).code, 0);
    const check = MemoryStore.open({ dir: s.data });
    assert.deepEqual(check.recall({ query: '', project: s.repo }).memories.map((m) => m.body), ['Build with make.']);
    assert.equal(check.show(v2.id).memory.state, 'forgotten');
    check.close();
    const exported = await runCli(['memory', 'export'], s.env, s.repo);
    assert.equal(exported.stdout.trim().split('\n').length, 2);
    const other = { ...s.env, SYNAPTIC_DATA_DIR: join(s.dir, 'other') };
    const imported = await runCli(['memory', 'import'], other, s.repo, exported.stdout);
    assert.match(imported.stdout, /Imported 2 memories/);
    const missing = await runCli(['memory', 'show', '999'], s.env, s.repo);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Cannot show memory 999/);
  } finally {
    s.cleanup();
  }
});
