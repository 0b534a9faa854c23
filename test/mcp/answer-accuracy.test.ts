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
      "test('tally adds one', () => {\n  check();\n  again();\n});\n",
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
