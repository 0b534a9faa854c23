/**
 * Answers that were present but wrong (issue #26 items 5-8), through the SDK client over a real
 * stdio server on an extracted repository: the fixture repo plus a small `tally` module whose tests
 * are known file by file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { countTokens } from '../../src/query/budget.ts';
import { extractFixture, serveArgs, text } from './helpers.ts';

let fx: ReturnType<typeof extractFixture>;
let client: Client;

/** tally() is reached by two test files: one calls it from helpers, one through three(); a third only imports the module. */
function addTally(repo: string): void {
  mkdirSync(join(repo, 'src/tally'), { recursive: true });
  writeFileSync(join(repo, 'src/tally/tally.ts'), 'export function tally(n: number): number {\n  return n + 1;\n}\n');
  writeFileSync(
    join(repo, 'src/tally/uses.ts'),
    "import { tally } from './tally';\n" +
      ['one', 'two', 'three', 'four', 'five', 'six'].map((name, i) => `export function ${name}(): number {\n  return tally(${i});\n}\n`).join(''),
  );
  writeFileSync(
    join(repo, 'test/tally-direct.test.ts'),
    "import { test } from 'node:test';\nimport { tally } from '../src/tally/tally';\n" +
      "function check(): void {\n  if (tally(1) !== 2) throw new Error('tally');\n}\n" +
      "function again(): void {\n  if (tally(2) !== 3) throw new Error('tally');\n}\n" +
      // A local named like an English article, as hono's compose tests have.
      'function a(): number {\n  return tally(0);\n}\n' +
      "test('tally adds one', () => {\n  check();\n  again();\n  a();\n});\n",
  );
  writeFileSync(
    join(repo, 'test/tally-indirect.test.ts'),
    "import { test } from 'node:test';\nimport { three } from '../src/tally/uses';\n" +
      "function helper(): number {\n  return three();\n}\n" +
      "test('three', () => {\n  helper();\n});\n",
  );
  writeFileSync(join(repo, 'test/tally-import-only.test.ts'), "import { test } from 'node:test';\nimport '../src/tally/uses';\ntest('loads', () => {});\n");
}

before(async () => {
  fx = extractFixture(addTally);
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(fx.graph), env: fx.env, stderr: 'pipe' });
  client = new Client({ name: 'answer-accuracy-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  fx?.cleanup();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; structured: Record<string, any> }> {
  const r = (await client.callTool({ name, arguments: args })) as { structuredContent?: Record<string, any> };
  return { text: text(r), structured: r.structuredContent ?? {} };
}

/** GRAPH_REPORT.md's god-node table: node id (file#label) -> test files reaching. */
function reportTestCounts(): Map<string, number> {
  const report = readFileSync(join(fx.repo, 'synaptic-out/GRAPH_REPORT.md'), 'utf8');
  const section = report.slice(report.indexOf('## God nodes'), report.indexOf('## Communities'));
  const rows = new Map<string, number>();
  for (const line of section.split('\n')) {
    const m = /^\| `([^`]+)` \| [^|]+ \| ([^|]+) \| \d+ \| \d+ \| (\d+) \|$/.exec(line);
    if (m) rows.set(`${m[2]!.trim()}#${m[1]}`, Number(m[3]));
  }
  return rows;
}

test('#26.7 god_nodes and GRAPH_REPORT.md count the same test files reaching a hub', async () => {
  const { text: listing, structured } = await call('god_nodes', { top_n: 200 });
  const tools = new Map((structured.god_nodes as Array<{ id: string; test_count: number }>).map((r) => [r.id, r.test_count]));
  // Two test files reach tally(); the file that only imports its module does not.
  assert.equal(tools.get('src/tally/tally.ts#tally'), 2, listing);
  const report = reportTestCounts();
  assert.equal(report.get('src/tally/tally.ts#tally'), 2, 'GRAPH_REPORT.md counts the same two test files');
  let compared = 0;
  for (const [id, count] of report) {
    if (!tools.has(id)) continue;
    assert.equal(tools.get(id), count, `${id}: god_nodes ${tools.get(id)} vs GRAPH_REPORT.md ${count}`);
    compared++;
  }
  assert.ok(compared >= 5, `compared ${compared} hubs`);
  // The definition is written where a reader meets the number.
  assert.match(listing, /test\(s\): test files .* within 6 hops/);
  const { tools: list } = await client.listTools();
  assert.match(list.find((t) => t.name === 'god_nodes')!.description ?? '', /test files .* within 6 hops/);
  assert.match(readFileSync(join(fx.repo, 'synaptic-out/GRAPH_REPORT.md'), 'utf8'), /how many test files reach each: .* within 6 hops/);
});

test('#26.5 a question of grammar words says so instead of seeding on a local named a', async () => {
  const noise = await call('query_graph', { question: 'the a of and' });
  assert.deepEqual(noise.structured.nodes, [], noise.text);
  assert.match(noise.text, /^No substantive word in 'the a of and'/);
  assert.match(noise.text, /a symbol \(.+\), a file \(.+\) or a concept/, 'suggests what to ask');
  assert.match(noise.text, /backticks \(`a`/, 'says how to name a one-letter symbol');
  const hubs = (await call('god_nodes', { top_n: 1 })).structured.god_nodes as Array<{ label: string }>;
  assert.match(noise.text, new RegExp(`Most connected symbols here: ${hubs[0]!.label}`), 'offers the top symbols');
  // What a user means by a name still works: in backticks, or as the whole question.
  for (const question of ['`a`', 'a', 'what calls `a`']) {
    const named = await call('query_graph', { question });
    assert.equal((named.structured.nodes as Array<{ label: string }>)[0]?.label, 'a', `${question}: ${named.text}`);
  }
  const word = await call('query_graph', { question: 'how is tally used' });
  assert.equal((word.structured.nodes as Array<{ label: string }>)[0]?.label, 'tally', word.text);
});

test('#26.6 a tight token_budget keeps the top seed NODE line within the budget', async () => {
  const question = 'router handler context plugin emitter';
  const roomy = await call('query_graph', { question, full: true });
  const topSeed = /Start: \[([^,\]]+)/.exec(roomy.text)?.[1];
  assert.ok(topSeed, roomy.text);
  for (const token_budget of [50, 60, 80]) {
    for (const full of [false, true]) {
      const tight = await call('query_graph', { question, full, token_budget });
      const nodes = tight.text.split('\n').filter((l) => l.startsWith('NODE '));
      assert.ok(nodes.length >= 1, `budget ${token_budget}, full ${full}: no NODE line:\n${tight.text}`);
      assert.ok(nodes.some((l) => l.includes(` ${topSeed} [`) || l.includes(` ${topSeed}`)), `top seed ${topSeed} missing:\n${tight.text}`);
      assert.ok((await countTokens(tight.text)) <= token_budget, `budget ${token_budget}: ${await countTokens(tight.text)} tokens`);
      assert.match(tight.text, /line\(s\)/, 'says lines were cut');
    }
  }
});

test('#26.8 a 0-dependent symbol gets a dynamic_caveat naming the opaque sites of its file or module, in every tool', async () => {
  // Puppy.named: nothing calls it, and py/zoo/keeper.py (same module) dispatches by getattr(self, action).
  const module = /1 opaque dynamic-dispatch site in its module py\/zoo\/ \(first py\/zoo\/keeper\.py:20, reflection in Keeper\.command\)/;
  const described = await call('describe_node', { label: 'Puppy.named' });
  assert.match(String(described.structured.dynamic_caveat), module, described.text);
  assert.match(described.text, /Dynamic caveat: .*in its module py\/zoo\//);
  const node = await call('get_node', { label: 'Puppy.named' });
  assert.match(String(node.structured.dynamic_caveat), module, node.text);
  const impact = await call('affected', { label: 'Puppy.named' });
  assert.equal(impact.structured.total, 0);
  assert.match(String(impact.structured.dynamic_caveat), module, impact.text);
  assert.match(impact.text, /\(none; no static dependent is not proof of dead code: 1 opaque/);
  // The call the caveat points to lists the site it names first.
  const glob = /see dynamic_hazards path_glob=(\S+)\)/.exec(String(impact.structured.dynamic_caveat))?.[1];
  assert.equal(glob, 'py/zoo/*');
  const listed = await call('dynamic_hazards', { path_glob: glob });
  assert.deepEqual(listed.structured.sites.map((s: { file: string; line: number }) => `${s.file}:${s.line}`), ['py/zoo/keeper.py:20']);

  // loadPlugin: its own file holds the opaque import(modulePath); dynamic_hazards target lists it.
  const plugin = await call('affected', { label: 'loadPlugin' });
  assert.match(String(plugin.structured.dynamic_caveat), /1 opaque dynamic-dispatch site in its file \(first src\/plugins\/registry\.ts:16, dynamic_import in loadPlugin\)/, plugin.text);
  const target = /see dynamic_hazards target=(\S+)\)/.exec(String(plugin.structured.dynamic_caveat))?.[1];
  assert.equal(target, 'loadPlugin@src/plugins/registry.ts');
  const targeted = await call('dynamic_hazards', { target });
  assert.deepEqual(targeted.structured.sites.map((s: { file: string; line: number }) => `${s.file}:${s.line}`), ['src/plugins/registry.ts:16']);

  // six(): nothing depends on it either, but no dynamic dispatch is in its scope: no caveat anywhere
  // (it used to get a graph-wide sentence about every opaque site and unresolved call).
  for (const tool of ['get_node', 'describe_node', 'affected']) {
    const quiet = await call(tool, { label: 'six' });
    assert.equal(quiet.structured.dynamic_caveat, undefined, `${tool}: ${quiet.text}`);
    assert.doesNotMatch(quiet.text, /dynamic-dispatch|could not be resolved/, tool);
  }
  // A symbol with a static dependent needs no caveat, even beside a dispatch site.
  const roll = await call('get_node', { label: 'Keeper.roll_call' });
  assert.equal(roll.structured.dynamic_caveat, undefined, roll.text);
});
