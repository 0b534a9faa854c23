import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactOutput, sessionOutput } from '../../src/memory/hooks.ts';
import { runCli } from './mcp-child.ts';
import { tempDir, tempStore } from './helpers.ts';

test('sessionOutput() carries the scope-ruled memories newest first within the size budget', () => {
  let t = 1785250000;
  const { store, cleanup } = tempStore({ clock: () => t++ });
  try {
    store.remember({ content: 'Other project detail.', source: 's', scope: 'project', project: '/b' });
    store.remember({ content: 'Global rule one.', source: 's', scope: 'global', project: '/b' });
    for (let i = 0; i < 30; i++) store.remember({ content: `Alpha decision ${i}. ${'Reasoning. '.repeat(40)}`, source: 'user', scope: 'project', project: '/a' });
    const out = sessionOutput('/a', store.count('/a'), store.recent('/a', 200), 4000);
    assert.equal(out.systemMessage, 'Synaptic connected · 31 memories');
    assert.equal(out.hookSpecificOutput.hookEventName, 'SessionStart');
    const ctx = out.hookSpecificOutput.additionalContext;
    assert.ok(ctx.startsWith('Synaptic is connected and holds 31 memories for /a. '));
    assert.ok(Buffer.byteLength(ctx) <= 4000 + 200);
    assert.ok(!ctx.includes('Other project'));
    assert.ok(ctx.indexOf('Alpha decision 29.') < ctx.indexOf('Alpha decision 28.'), 'newest first');
    assert.match(ctx, /abridged/);
    assert.match(ctx, /older memories are not shown: use recall/);
  } finally {
    cleanup();
  }
});

test('compactOutput() asks for remember calls and recalls nothing', () => {
  const out = compactOutput('/a');
  assert.deepEqual(Object.keys(out), ['hookSpecificOutput']);
  assert.equal(out.hookSpecificOutput.hookEventName, 'PreCompact');
  assert.match(out.hookSpecificOutput.additionalContext, /^Synaptic holds this project's durable memory, and this session is about to be compacted/);
  assert.match(out.hookSpecificOutput.additionalContext, /call remember once for each/);
});

test('synaptic session --json and synaptic compact print the hook JSON and exit 0, even when the database is unusable', async () => {
  const t = tempDir('synaptic-hooks-');
  try {
    const repo = join(t.dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    const env = { ...process.env, SYNAPTIC_DATA_DIR: join(t.dir, 'data'), HOME: t.dir, SYNAPTIC_PROJECT_DIR: '' };
    const s = await runCli(['session', '--json'], env, repo);
    assert.equal(s.code, 0, s.stderr);
    const session = JSON.parse(s.stdout);
    assert.equal(session.systemMessage, 'Synaptic connected · 0 memories');
    assert.match(session.hookSpecificOutput.additionalContext, new RegExp(`for ${repo}`));
    const c = await runCli(['compact'], env, repo);
    assert.equal(c.code, 0);
    assert.equal(JSON.parse(c.stdout).hookSpecificOutput.hookEventName, 'PreCompact');
    // A data dir below a regular file cannot exist: the hook still answers, with the reason.
    writeFileSync(join(t.dir, 'blocker'), 'x');
    const broken = await runCli(['session', '--json'], { ...env, SYNAPTIC_DATA_DIR: join(t.dir, 'blocker', 'data') }, repo);
    assert.equal(broken.code, 0);
    assert.match(JSON.parse(broken.stdout).systemMessage, /^Synaptic memory unavailable: /);
  } finally {
    t.cleanup();
  }
});
