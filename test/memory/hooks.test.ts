import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactInstructions, sessionOutput, UNSTORED_HEADING } from '../../src/memory/hooks.ts';
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

test('compactInstructions() is plain text for the summarizer: a section of what was settled and not stored', () => {
  const text = compactInstructions('/a');
  // Claude Code parses stdout that starts with "{" as hook JSON, and rejects PreCompact hookSpecificOutput.
  assert.ok(!text.trimStart().startsWith('{'));
  assert.ok(text.includes(`a section headed "${UNSTORED_HEADING}"`));
  assert.match(text, /did not store with the remember tool/);
  assert.match(text, /every secret value/);
  assert.ok(text.length < 10_000, 'Claude Code cuts PreCompact output at 10,000 characters');
});

test('sessionOutput() after a compaction opens with the request to remember what the summary lists, then the memories', () => {
  let t = 1785250000;
  const { store, cleanup } = tempStore({ clock: () => t++ });
  try {
    store.remember({ content: 'Alpha rule.', source: 's', scope: 'project', project: '/a' });
    const startup = sessionOutput('/a', 1, store.recent('/a', 200), undefined, 'startup').hookSpecificOutput.additionalContext;
    const after = sessionOutput('/a', 1, store.recent('/a', 200), undefined, 'compact').hookSpecificOutput.additionalContext;
    assert.ok(!startup.includes('just compacted'));
    assert.ok(after.startsWith('This session was just compacted. Before anything else, call remember once for each line under '));
    assert.ok(after.includes(`"${UNSTORED_HEADING}"`));
    assert.ok(after.includes('Alpha rule.'), 'the memories are there again: the compaction dropped them with the rest');
    assert.ok(after.endsWith(startup), 'the same memory text follows');
    const small = sessionOutput('/a', 1, store.recent('/a', 200), 1500, 'compact').hookSpecificOutput.additionalContext;
    assert.ok(Buffer.byteLength(small) <= 1500 + 200, 'the note counts against the budget');
  } finally {
    cleanup();
  }
});

test('synaptic session --json and synaptic compact print the hook output and exit 0, even when the database is unusable', async () => {
  const t = tempDir('synaptic-hooks-');
  try {
    const repo = join(t.dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    const env = { ...process.env, SYNAPTIC_DATA_DIR: join(t.dir, 'data'), HOME: t.dir, SYNAPTIC_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' };
    const s = await runCli(['session', '--json'], env, repo);
    assert.equal(s.code, 0, s.stderr);
    const session = JSON.parse(s.stdout);
    assert.equal(session.systemMessage, 'Synaptic connected · 0 memories');
    assert.match(session.hookSpecificOutput.additionalContext, new RegExp(`for ${repo}`));
    const c = await runCli(['compact'], env, repo);
    assert.equal(c.code, 0);
    assert.ok(c.stdout.startsWith(`Synaptic keeps the durable memory of this project (${repo})`), c.stdout);
    // The hook input Claude Code and Codex send on stdin: source compact, from a subfolder.
    mkdirSync(join(repo, 'sub'));
    const input = JSON.stringify({ session_id: 's', hook_event_name: 'SessionStart', source: 'compact', cwd: join(repo, 'sub') });
    const afterCompact = JSON.parse((await runCli(['session', '--json'], env, t.dir, input)).stdout);
    assert.match(afterCompact.hookSpecificOutput.additionalContext, /^This session was just compacted\./);
    assert.match(afterCompact.hookSpecificOutput.additionalContext, new RegExp(`holds 0 memories for ${repo}\\.`), 'the input cwd names the project');
    const startup = JSON.parse((await runCli(['session', '--json', '--source', 'startup'], env, repo, input)).stdout);
    assert.doesNotMatch(startup.hookSpecificOutput.additionalContext, /just compacted/, '--source wins over the input');
    const garbage = await runCli(['session', '--json'], env, repo, 'not json {');
    assert.equal(garbage.code, 0);
    assert.doesNotMatch(JSON.parse(garbage.stdout).hookSpecificOutput.additionalContext, /just compacted/);
    // A data dir below a regular file cannot exist: the hook still answers, with the reason.
    writeFileSync(join(t.dir, 'blocker'), 'x');
    const broken = await runCli(['session', '--json'], { ...env, SYNAPTIC_DATA_DIR: join(t.dir, 'blocker', 'data') }, repo);
    assert.equal(broken.code, 0);
    assert.match(JSON.parse(broken.stdout).systemMessage, /^Synaptic memory unavailable: /);
  } finally {
    t.cleanup();
  }
});
