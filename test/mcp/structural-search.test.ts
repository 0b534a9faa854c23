// structural_search end to end: an SDK client over a real `synaptic serve` stdio child on the
// extracted fixture repo (SYNQL, a pattern, a file outline, a parse error and a budget stop as
// isError tool results, never -32603), and the `synaptic query` CLI on the same graph.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CLI_ARGS, extractFixture, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

type Row = Array<{ id: string; label: string; kind: string; visibility: string | null; file: string; line: number | null; loc: number | null; signature: { params: Array<{ name: string; type?: string }>; returns: string | null; raw: string } | null }>;

let fx: ReturnType<typeof extractFixture>;
let sdk: Awaited<ReturnType<typeof connectSdk>>;

async function call(args: Record<string, unknown>) {
  return (await sdk.client.callTool({ name: 'structural_search', arguments: args })) as { content: Array<{ text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };
}

describe('structural_search over stdio', () => {
  before(async () => {
    fx = extractFixture();
    sdk = await connectSdk(fx.graph, fx.env, { serve: ['--no-freshen'] });
  });
  after(async () => {
    await sdk?.close();
    fx?.cleanup();
  });

  it('is listed with an output schema', async () => {
    const { tools } = await sdk.client.listTools();
    const tool = tools.find((t) => t.name === 'structural_search');
    assert.ok(tool, 'structural_search listed');
    assert.ok(tool.outputSchema);
  });

  it('answers a SYNQL query with nodes and their captured signatures', async () => {
    const r = await call({ query: "MATCH (c:class)-[:method]->(m) WHERE c.name = 'Emitter' RETURN m ORDER BY m.line" });
    assert.ok(!r.isError, text(r));
    const s = r.structuredContent as { columns: string[]; results: Row[]; total: number; truncated: boolean };
    assert.deepEqual(s.columns, ['m']);
    const labels = s.results.map((row) => row[0]!.label);
    assert.ok(labels.includes('Emitter.on') && labels.includes('Emitter.emit'), labels.join(', '));
    const on = s.results.find((row) => row[0]!.label === 'Emitter.on')![0]!;
    assert.equal(on.kind, 'method');
    assert.equal(on.file, 'src/core/emitter.ts');
    assert.ok(on.signature && on.signature.params[0]!.name === 'listener' && on.signature.params[0]!.type === 'Listener', JSON.stringify(on.signature));
    assert.equal(on.signature.returns, 'void');
    assert.match(text(r), /Emitter\.on {2}method\/\w+ {2}src\/core\/emitter\.ts:7/);
  });

  it('returns groups for aggregates', async () => {
    const r = await call({ query: "MATCH (f:file)-[:contains]->(c:class) WHERE f.file STARTS WITH 'src/core' RETURN f.file AS file, count(c) AS classes ORDER BY file" });
    assert.ok(!r.isError, text(r));
    const s = r.structuredContent as { columns: string[]; groups: unknown[][] };
    assert.deepEqual(s.columns, ['file', 'classes']);
    assert.deepEqual(s.groups, [['src/core/base-router.ts', 1], ['src/core/emitter.ts', 1], ['src/core/router.ts', 1]]);
  });

  it('runs a named pattern, and shows its SYNQL with verbose', async () => {
    const r = await call({ pattern: 'observer', verbose: true });
    assert.ok(!r.isError, text(r));
    assert.match(text(r), /SYNQL:\nMATCH \(c:class\|interface\|struct\)/);
    const labels = (r.structuredContent as { results: Row[] }).results.map((row) => row[0]!.label);
    assert.ok(labels.includes('Emitter'), labels.join(', '));
    const bad = await call({ pattern: 'visitor' });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /the patterns are singleton, factory, observer, service-locator, god-class/);
  });

  it('outlines a file by line, and pattern > query > file', async () => {
    const r = await call({ file: 'src/core/router.ts' });
    assert.ok(!r.isError, text(r));
    const rows = (r.structuredContent as { results: Row[] }).results.map((row) => row[0]!);
    assert.ok(rows.length >= 2);
    assert.ok(rows.every((n) => n.file === 'src/core/router.ts' && n.kind !== 'file'));
    const lines = rows.map((n) => n.line!);
    assert.deepEqual(lines, [...lines].sort((a, b) => a - b));
    const both = await call({ query: 'MATCH (c:interface) RETURN c', file: 'src/core/router.ts' });
    assert.ok((both.structuredContent as { results: Row[] }).results.every((row) => row[0]!.kind === 'interface'));
    const all = await call({ pattern: 'observer', query: 'MATCH (c:interface) RETURN c', file: 'x' });
    assert.match(text(all), /^Pattern observer/);
  });

  it('a malformed query is an isError result with line:column and a caret, not -32603', async () => {
    const r = await call({ query: 'MATCH (c:class)\nWHERE c.loc >> 5 RETURN c' });
    assert.equal(r.isError, true);
    assert.equal(text(r), "SYNQL error at 2:14: expected a value (a property like n.loc, a string, a number, true, false, null or a list) but found '>'\n  WHERE c.loc >> 5 RETURN c\n               ^");
    const kind = await call({ query: 'MATCH (c:klass) RETURN c' });
    assert.equal(kind.isError, true);
    assert.match(text(kind), /unknown kind 'klass'; the kinds are file, module, namespace, package, class/);
    const prop = await call({ query: 'MATCH (c:class) WHERE c.size > 3 RETURN c' });
    assert.match(text(prop), /unknown property 'size'; the properties are id, name, label, kind, visibility, file, line, loc, fan_in/);
  });

  it('a query past a budget stops with the limit named', async () => {
    const r = await call({ query: 'MATCH (a)-[:calls*1..12]->(b) RETURN b' });
    assert.equal(r.isError, true);
    assert.match(text(r), /hops limit \(6\)/);
    const big = await call({ query: 'MATCH (a) RETURN a LIMIT 5000' });
    assert.equal(big.isError, true);
    assert.match(text(big), /output limit \(1000 rows\)/);
  });

  it('limit caps the rows and says so', async () => {
    const r = await call({ query: 'MATCH (m:method) RETURN m', limit: 2 });
    const s = r.structuredContent as { results: Row[]; total: number; truncated: boolean };
    assert.equal(s.results.length, 2);
    assert.ok(s.total > 2 && s.truncated);
    assert.match(text(r), /showing 2; raise limit/);
  });

  it('get_node shows the captured parameters and return type (text and structured)', async () => {
    const r = (await sdk.client.callTool({ name: 'get_node', arguments: { label: 'Emitter.on' } })) as { content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
    assert.match(text(r), /\n {2}params: listener: Listener -> void(\n|$)/);
    assert.deepEqual((r.structuredContent!.signature as { params: unknown[] }).params, [{ name: 'listener', type: 'Listener' }]);
    assert.equal((r.structuredContent!.signature as { returns: string }).returns, 'void');
  });

  it('synaptic query prints the same answer as text and --json', () => {
    const q = "MATCH (c:class)-[:method]->(m) WHERE c.name = 'Emitter' RETURN m ORDER BY m.line";
    const out = execFileSync(process.execPath, [...CLI_ARGS, 'query', q, '--graph', fx.graph], { encoding: 'utf8', env: fx.env });
    assert.match(out, /Emitter\.on {2}method\/\w+ {2}src\/core\/emitter\.ts:7/);
    const json = JSON.parse(execFileSync(process.execPath, [...CLI_ARGS, 'query', q, '--graph', fx.graph, '--json'], { encoding: 'utf8', env: fx.env })) as { results: Row[] };
    assert.ok(json.results.some((row) => row[0]!.label === 'Emitter.emit'));
    const bad = spawnSync(process.execPath, [...CLI_ARGS, 'query', 'MATCH (c RETURN c', '--graph', fx.graph], { encoding: 'utf8', env: fx.env });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /SYNQL error at 1:10: expected ':kind', '\{' or '\)' but found 'RETURN'\n {2}MATCH \(c RETURN c\n {11}\^/);
    const outline = execFileSync(process.execPath, [...CLI_ARGS, 'query', '--file', 'src/core/emitter.ts', '--graph', fx.graph], { encoding: 'utf8', env: fx.env });
    assert.match(outline, /^Outline of 1 file\(s\) matching 'src\/core\/emitter\.ts'/);
  });
});
