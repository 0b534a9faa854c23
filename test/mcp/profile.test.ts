import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { LEAN_TOOLS } from '../../src/mcp/profiles.ts';
import { extractFixture, MODERN_META, RawServer, serveArgs, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

let fx: ReturnType<typeof extractFixture>;
let server: RawServer;
let logDir: string;
let logFile: string;

before(async () => {
  fx = extractFixture();
  // A git history for the recency options: commit the fixture, then edit one file.
  const git = (...args: string[]) => execFileSync('git', ['-C', fx.repo, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  appendFileSync(join(fx.repo, 'src/context.ts'), '\n// edited on this branch\n');
  logDir = mkdtempSync(join(tmpdir(), 'synaptic-qlog-'));
  logFile = join(logDir, 'queries.jsonl');
  server = new RawServer(serveArgs(fx.graph, '--profile', 'igraph', '--concise', '--no-freshen'), { ...fx.env, SYNAPTIC_QUERY_LOG: logFile });
  await server.ready();
});

after(async () => {
  await server?.close();
  fx?.cleanup();
  rmSync(logDir, { recursive: true, force: true });
});

function json(r: Record<string, unknown>): Record<string, any> {
  return JSON.parse(text(r.result)) as Record<string, any>;
}

test('--profile igraph adds the four igraph tools', async () => {
  const r = (await server.request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } })) as { result: { tools: Array<{ name: string }> } };
  const names = r.result.tools.map((t) => t.name);
  for (const t of ['igraph_explore', 'igraph_node', 'igraph_file', 'igraph_related', 'query_graph']) assert.ok(names.includes(t), t);
});

test('igraph_explore returns ranked symbols and expanded neighbours', async () => {
  const doc = json(await server.call(2, 'igraph_explore', { query: 'router match', topK: 3, hops: 1 }));
  assert.equal(doc.tool, 'igraph_explore');
  assert.equal(doc.degraded, false);
  assert.ok(doc.result.symbols.length > 0 && doc.result.symbols.length <= 3);
  assert.ok(doc.result.neighbors.every((n: { depth: number }) => n.depth === 1));
  const bad = await server.call(3, 'igraph_explore', { query: 'x', topK: 99 });
  assert.equal((bad.result as { isError: boolean }).isError, true);
});

test('igraph_node, igraph_file and igraph_related answer in the igraph shapes', async () => {
  const node = json(await server.call(4, 'igraph_node', { name: 'createApp' }));
  assert.equal(node.found, true);
  assert.equal(node.detail.filePath, 'src/app.ts');
  assert.match(node.detail.sourceCode, /function createApp/);
  assert.ok(Array.isArray(node.detail.callees));
  const missing = json(await server.call(5, 'igraph_node', { name: 'zzzNope' }));
  assert.equal(missing.found, false);
  const file = json(await server.call(6, 'igraph_file', { path: 'src/app.ts' }));
  assert.equal(file.found, true);
  assert.ok(file.info.nodes.some((n: { name: string }) => n.name === 'createApp'));
  assert.equal(file.info.language, 'typescript');
  const rel = json(await server.call(7, 'igraph_related', { name: 'handle', direction: 'callers' }));
  assert.equal(rel.found, true);
  assert.ok(rel.neighbors.every((n: { direction: string }) => n.direction === 'caller'));
});

test('--concise lowers defaults; an explicit argument still wins', async () => {
  const g = await server.call(8, 'god_nodes', {});
  assert.equal((g.result as { structuredContent: { god_nodes: unknown[] } }).structuredContent.god_nodes.length, 6);
  const g2 = await server.call(9, 'god_nodes', { top_n: 8 });
  assert.equal((g2.result as { structuredContent: { god_nodes: unknown[] } }).structuredContent.god_nodes.length, 8);
  const src = text((await server.call(10, 'get_source', { file: 'src/app.ts' })).result);
  assert.equal(src.split('\n').length - 1, Math.min(25, readFileSync(join(fx.repo, 'src/app.ts'), 'utf8').split('\n').filter((_, i, a) => i < a.length - 1 || a[i] !== '').length));
});

test('SYNAPTIC_QUERY_LOG appends one JSON line per query_graph call', async () => {
  await server.call(11, 'query_graph', { question: 'context json' });
  await server.call(12, 'query_graph', { question: 'plugin registry', full: true });
  assert.ok(existsSync(logFile));
  const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.equal(lines.length, 2);
  assert.equal(lines[0]!.question, 'context json');
  assert.equal(lines[1]!.full, true);
  assert.equal(lines[0]!.token_budget, 800, 'concise budget');
  assert.equal(typeof lines[0]!.ms, 'number');
});

test('query_graph since= marks and boosts nodes in files changed since the baseline', async () => {
  const r = (await server.call(20, 'query_graph', { question: 'context json status', since: 'HEAD' })).result as { structuredContent: { nodes: Array<{ source_file: string; changed?: boolean }> } };
  const t = text(r);
  assert.match(t, /Recency: since HEAD \(base [0-9a-f]+\): 1 changed file\(s\), boost mode/);
  assert.match(t, /\(changed\) Context/);
  for (const n of r.structuredContent.nodes) assert.equal(n.changed, n.source_file === 'src/context.ts');
  const bad = (await server.call(21, 'query_graph', { question: 'context', since: 'no-such-ref-xyz' })).result as { structuredContent: { nodes: Array<{ changed?: boolean }> } };
  assert.doesNotMatch(text(bad), /Recency:/);
  assert.ok(bad.structuredContent.nodes.every((n) => !('changed' in n)), 'changed is absent when since did not resolve');
  const seeded = (await server.call(22, 'query_graph', { question: 'emitter', since: 'HEAD', recency_mode: 'seed' })).result as { structuredContent: { nodes: Array<{ source_file: string }> } };
  assert.ok(seeded.structuredContent.nodes.some((n) => n.source_file === 'src/context.ts'), 'seed mode injects the changed surface');
});

test('--profile lean over stdio (SDK client): the ten tools, the rest named in the instructions and not callable; an unknown profile is a usage error', async () => {
  const lean = await connectSdk(fx.graph, fx.env, { serve: ['--profile', 'lean', '--no-freshen'] });
  try {
    const names = (await lean.client.listTools()).tools.map((t) => t.name);
    assert.deepEqual([...names].sort(), [...LEAN_TOOLS].sort());
    const instructions = lean.client.getInstructions() ?? '';
    assert.match(instructions, /--profile lean: .*\bgod_nodes\b.*\bvaultstatus\b.* are not served/);
    const r = await lean.client.callTool({ name: 'query_graph', arguments: { question: 'plugin registry' } });
    assert.match((r.content as Array<{ text: string }>)[0]!.text, /NODE /);
    await assert.rejects(lean.client.callTool({ name: 'god_nodes', arguments: {} }), /Unknown tool: 'god_nodes'/);
  } finally {
    await lean.close();
  }
  const bad = spawnSync(process.execPath, serveArgs(fx.graph, '--profile', 'tiny'), { env: fx.env, encoding: 'utf8', timeout: 15_000 });
  assert.equal(bad.status, 2, bad.stderr);
  assert.match(bad.stderr, /unknown profile 'tiny' \(available: igraph, lean\)/);
});
