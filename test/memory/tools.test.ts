// The memory ToolProvider called directly (schemas, result shapes, project echo, errors). The same
// tools through the real `synaptic serve` child: reliability.test.ts and concurrency.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryTools } from '../../src/mcp/tools/memory/index.ts';
import type { ToolDefinition, ToolResult } from '../../src/mcp/tool.ts';
import { tempDir } from './helpers.ts';

function setup(envProject?: string) {
  const t = tempDir('synaptic-tools-');
  const repo = join(realpathSync(t.dir), 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  const env: NodeJS.ProcessEnv = envProject ? { SYNAPTIC_PROJECT_DIR: envProject } : {};
  const provider = createMemoryTools({ cwd: join(repo, 'src', 'deep'), env, dir: join(t.dir, 'data') });
  const tools = new Map(provider.tools().map((x) => [x.name, x] as [string, ToolDefinition]));
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const tool = tools.get(name)!;
    const parsed = tool.inputSchema.parse(args);
    const result = await tool.handler(parsed);
    if (tool.outputSchema && result.structuredContent) tool.outputSchema.parse(result.structuredContent);
    return result;
  };
  return { ...t, repo, provider, tools, call };
}

test('createMemoryTools() serves remember, recall and readmemory with spec shapes and the project echoed', async () => {
  const s = setup();
  try {
    assert.deepEqual([...s.tools.keys()], ['remember', 'recall', 'readmemory']);
    assert.equal(s.tools.get('recall')!.annotations.readOnlyHint, true);
    assert.equal(s.tools.get('remember')!.annotations.readOnlyHint, false);
    const r = await s.call('remember', { content: 'Use small focused modules.', source: 'synapse' });
    assert.deepEqual(JSON.parse(r.content[0]!.text), { id: 1, stored: true, superseded: [] });
    assert.equal(r.content[1]!.text, `project: ${s.repo}`, 'resolved from the server cwd to the repository root');
    const recall = await s.call('recall', { query: 'modules' });
    const got = JSON.parse(recall.content[0]!.text);
    assert.equal(got.optimization, 'lean');
    assert.deepEqual(Object.keys(got.memories[0]).sort(), ['body', 'created', 'id', 'project', 'scope', 'source']);
    assert.equal(got.memories[0].project, s.repo);
    assert.deepEqual(recall.structuredContent, got);
    const read = await s.call('readmemory', { id: 1 });
    assert.deepEqual(Object.keys(JSON.parse(read.content[0]!.text).memory), ['id', 'body', 'source', 'sourceabridged', 'scope', 'project', 'created', 'offset', 'next', 'total']);
    const missing = await s.call('readmemory', { id: 99 });
    assert.equal(missing.content[0]!.text, '{"optimization":"lean","memory":null}');
    assert.equal(missing.content[1]!.text, `project: ${s.repo}`);
  } finally {
    s.provider.close?.();
    s.cleanup();
  }
});

test('memory tools resolve the project from the argument, then SYNAPTIC_PROJECT_DIR, then cwd', async () => {
  const s = setup('/srv/env-project');
  try {
    const viaEnv = await s.call('remember', { content: 'From env.' });
    assert.equal(viaEnv.content[1]!.text, 'project: /srv/env-project');
    const viaArg = await s.call('remember', { content: 'From arg.', project: '/srv/arg-project/' });
    assert.equal(viaArg.content[1]!.text, 'project: /srv/arg-project');
    await assert.rejects(Promise.resolve().then(() => s.call('recall', { project: 'relative/path' })), /not an absolute path/);
    const recalled = JSON.parse((await s.call('recall', { query: '', project: '/srv/arg-project' })).content[0]!.text);
    assert.deepEqual(recalled.memories.map((m: { body: string }) => m.body), ['From arg.']);
  } finally {
    s.provider.close?.();
    s.cleanup();
  }
});

test('remember refuses a credential (thrown, so the server returns it as an isError result) and stores nothing', async () => {
  const s = setup();
  try {
    const key = ['AKIA', 'Z7QW3ERTY5UIOP2L'].join('');
    await assert.rejects(
      Promise.resolve().then(() => s.call('remember', { content: `deploy with ${key}` })),
      (err: Error) => /^Cannot remember: .*vault/.test(err.message) && !err.message.includes(key),
    );
    const all = JSON.parse((await s.call('recall', { query: '' })).content[0]!.text);
    assert.deepEqual(all.memories, []);
  } finally {
    s.provider.close?.();
    s.cleanup();
  }
});

test('readmemory under budget full reports optimization full, and bad offsets are errors', async () => {
  const s = setup();
  try {
    await s.call('remember', { content: '€'.repeat(100) });
    const page = JSON.parse((await s.call('readmemory', { id: 1, offset: 3, budget: 'full' })).content[0]!.text);
    assert.equal(page.optimization, 'full');
    assert.equal(page.memory.total, 300);
    assert.equal(page.memory.offset, 3);
    assert.equal(page.memory.body, '€'.repeat(99));
    await assert.rejects(Promise.resolve().then(() => s.call('readmemory', { id: 1, offset: 4 })), /Cannot read memory 1: offset 4 is inside a UTF-8 character/);
    await assert.rejects(Promise.resolve().then(() => s.call('readmemory', { id: 1, offset: 301 })), /past the end/);
  } finally {
    s.provider.close?.();
    s.cleanup();
  }
});

test('a corrupt database does not stop the server: each memory call reports why, and the file is untouched', async () => {
  const t = tempDir('synaptic-tools-corrupt-');
  try {
    const data = join(t.dir, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'memory.db'), 'not a database '.repeat(100));
    const stderr = process.stderr.write;
    process.stderr.write = () => true; // the provider logs the reason once at start
    let provider;
    try {
      provider = createMemoryTools({ cwd: t.dir, env: {}, dir: data });
    } finally {
      process.stderr.write = stderr;
    }
    const recall = provider.tools().find((x) => x.name === 'recall')!;
    await assert.rejects(Promise.resolve().then(() => recall.handler(recall.inputSchema.parse({ query: 'x' }))), /^DatabaseRefusedError|Cannot open the memory database/);
    assert.equal(readFileSync(join(data, 'memory.db'), 'utf8'), 'not a database '.repeat(100));
    provider.close?.();
  } finally {
    t.cleanup();
  }
});

test('a memory tool error still echoes the resolved project', async () => {
  const s = setup();
  try {
    await s.call('remember', { content: 'abc' });
    await assert.rejects(Promise.resolve().then(() => s.call('readmemory', { id: 1, offset: 99 })), new RegExp(`past the end.*\\(project: ${s.repo}\\)$`));
  } finally {
    s.provider.close?.();
    s.cleanup();
  }
});
