/**
 * Answers ranked for the question (#17.4), end to end through the SDK client over a real stdio
 * server on a small extracted repository: query_graph puts the implementation before tests;
 * find_callers / find_references / affected list library dependents first and fold test dependents
 * into a count per file; an exact name beats its case variants and a name no node has offers only
 * names that resolve; get_source says when it cuts a symbol; show_sites prints every site;
 * shortest_path directed follows forward call chains only and says which path it returned.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI_ARGS, serveArgs, text } from './helpers.ts';

let dir: string;
let client: Client;

const LONG_BODY = Array.from({ length: 58 }, (_, i) => `  total += ${i};`).join('\n');

const FILES: Record<string, string> = {
  'src/compose.ts': '/** Compose middleware functions into one handler. */\nexport function compose(middleware: Array<() => void>): () => void {\n  return () => {\n    for (const m of middleware) m();\n  };\n}\n',
  'src/target.ts': 'export function target(n: number): number {\n  return n + 1;\n}\n',
  'src/app.ts':
    "import { compose } from './compose';\nimport { target } from './target';\n" +
    'export function runApp(): void {\n  compose([]);\n  target(1);\n}\n' +
    'export function route(): number {\n  return target(2);\n}\n' +
    // Five calls of target in one caller: one edge, five sites (one in a string, one in a comment: not sites).
    'export function many(): number {\n  let x = target(1);\n  x += target(2);\n  x += target(3);\n  // target(4) is skipped\n  const s = "target(5)";\n  x += target (6);\n  x += target<number>(7);\n  return x + s.length;\n}\n',
  'src/names.ts':
    'export class Command {\n  Execute(): number {\n    return this.execute();\n  }\n  execute(): number {\n    return 1;\n  }\n}\n' +
    'export function handler(): number {\n  return 1;\n}\nexport function handler1(): number {\n  return 2;\n}\n',
  'src/long.ts': `export function long(): number {\n  let total = 0;\n${LONG_BODY}\n  return total;\n}\n`,
  'src/chain.ts':
    'export function start(): number {\n  return middle();\n}\nexport function middle(): number {\n  return end();\n}\n' +
    'export function end(): number {\n  return 0;\n}\nexport function other(): number {\n  return end();\n}\n',
  'test/target.test.ts':
    "import { target } from '../src/target';\nimport { compose } from '../src/compose';\n" +
    ['middlewareOne', 'middlewareTwo', 'middlewareThree'].map((f, i) => `export function ${f}(): number {\n  compose([]);\n  return target(${i});\n}\n`).join(''),
  'test/app.test.ts':
    "import { target } from '../src/target';\n" +
    ['checkA', 'checkB'].map((f, i) => `export function ${f}(): number {\n  return target(${i});\n}\n`).join(''),
  'package.json': '{ "name": "ranked", "version": "1.0.0" }\n',
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-ranked-'));
  const repo = join(dir, 'repo');
  for (const [path, body] of Object.entries(FILES)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), body);
  }
  execFileSync(process.execPath, [...CLI_ARGS, 'extract', repo], { stdio: ['ignore', 'ignore', 'pipe'] });
  const env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') } as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(join(repo, 'synaptic-out/graph.json')), env, stderr: 'pipe' });
  client = new Client({ name: 'answer-ranking-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; structured: Record<string, any> }> {
  const r = (await client.callTool({ name, arguments: args })) as { structuredContent?: Record<string, any> };
  return { text: text(r), structured: r.structuredContent ?? {} };
}

test('query_graph answers a question about how code works with the implementation, not the tests named like it', async () => {
  const { text: t } = await call('query_graph', { question: 'how does middleware composition work' });
  const nodes = t.split('\n').filter((l) => l.startsWith('NODE'));
  assert.match(nodes[0]!, /\] compose \[code\] src\/compose\.ts/, t);
  // Test functions named like the question (middlewareOne ...) rank below the library's code.
  const at = (lines: string[], name: string) => lines.findIndex((l) => l.includes(`] ${name} [code]`));
  assert.ok(at(nodes, 'middlewareOne') > at(nodes, 'runApp'), t);
  // Asked about tests, the tests that use it come right after it.
  const tests = (await call('query_graph', { question: 'which tests use middleware composition' })).text.split('\n').filter((l) => l.startsWith('NODE'));
  assert.deepEqual(tests.slice(1, 4).map((l) => l.split(' ')[2]).sort(), ['middlewareOne', 'middlewareThree', 'middlewareTwo'], tests.join('\n'));
});

test('find_callers and find_references list library callers first and fold test callers into a count per file', async () => {
  const { text: t } = await call('find_callers', { label: 'target' });
  const lines = t.split('\n');
  assert.match(lines[0]!, /^8 caller\(s\) of target \(calls: 8\):$/);
  const listed = lines.filter((l) => l.startsWith('  <- '));
  assert.deepEqual(listed.map((l) => l.split(' ')[4]).sort(), ['many', 'route', 'runApp']);
  assert.equal(lines.at(-1), '  + 5 in 2 test file(s): test/target.test.ts (3), test/app.test.ts (2) (verbose=true lists them)');
  assert.doesNotMatch(t, /middlewareOne|checkA/);
  const all = (await call('find_callers', { label: 'target', verbose: true })).text;
  for (const name of ['runApp', 'middlewareOne', 'middlewareThree', 'checkA', 'checkB']) assert.match(all, new RegExp(`\\] ${name} \\[function\\]`));
  assert.ok(all.indexOf('runApp') < all.indexOf('checkA'), 'library callers before test callers');
  const refs = (await call('find_references', { label: 'target' })).text;
  assert.match(refs, /\n {2}\+ \d+ in 2 test file\(s\): /);
});

test('affected lists library dependents first, folds the tests into a count per file, and flags them in the structured list', async () => {
  const { text: t, structured } = await call('affected', { label: 'target', depth: 1 });
  const lines = t.split('\n');
  const libraryLines = lines.filter((l) => l.startsWith('  ['));
  assert.ok(libraryLines.every((l) => !/test\//.test(l)), t);
  assert.ok(libraryLines.some((l) => /many \[function\] src\/app\.ts/.test(l)), t);
  // The test files' import and their functions' calls: 4 in test/target.test.ts, 3 in test/app.test.ts.
  assert.match(t, /\n {2}\+ 7 in 2 test file\(s\): test\/target\.test\.ts \(4\), test\/app\.test\.ts \(3\) \(/);
  const flags = (structured.affected as Array<{ label: string; test?: boolean }>).map((a) => a.test === true);
  assert.ok(flags.indexOf(true) > 0 && flags.slice(flags.indexOf(true)).every(Boolean), 'test dependents after library ones');
  assert.deepEqual(structured.test_files, [{ file: 'test/target.test.ts', count: 4 }, { file: 'test/app.test.ts', count: 3 }]);
});

test('an exact name beats its case variants; a name no node has offers only names that resolve', async () => {
  const exact = await call('get_node', { label: 'Command.Execute' });
  assert.match(exact.text, /id: src\/names\.ts#Command\.Execute\n/);
  assert.equal((await call('get_node', { label: 'Command.execute' })).structured.id, 'src/names.ts#Command.execute');
  assert.match((await call('get_node', { label: 'command.EXECUTE' })).text, /is ambiguous: 2 nodes match/);
  const similar = await call('find_callers', { label: 'handl' });
  assert.doesNotMatch(similar.text, /ambiguous/);
  assert.match(similar.text, /^No node matches 'handl'\. Names that contain it \(other symbols\): handler@src\/names\.ts, handler1@src\/names\.ts\./);
  for (const ref of ['handler@src/names.ts', 'handler1@src/names.ts']) assert.equal((await call('get_node', { label: ref })).structured.found, true, ref);
});

test('get_source says where a cut symbol continues and how to read it whole', async () => {
  const cut = (await call('get_source', { label: 'long' })).text;
  const lines = cut.split('\n');
  assert.equal(lines[0], 'long [function] src/long.ts:L1-L40');
  assert.equal(lines.at(-1), '… continues to L62; pass context_lines=62');
  const whole = (await call('get_source', { label: 'long', context_lines: 62 })).text;
  assert.match(whole.split('\n')[0]!, /:L1-L62$/);
  assert.doesNotMatch(whole, /continues to/);
});

test('show_sites prints every site of an edge, not only the first', async () => {
  const { text: t } = await call('find_callers', { label: 'target', show_sites: true });
  const block = t.slice(t.indexOf('] many [function]'));
  const rest = block.split('\n').slice(1);
  const sites = rest.slice(0, rest.findIndex((l) => !l.startsWith('      at ')));
  const manyStart = FILES['src/app.ts']!.split('\n').findIndex((l) => l.startsWith('export function many')) + 1;
  assert.deepEqual(sites.map((l) => Number(/:(\d+): /.exec(l)![1]) - manyStart), [1, 2, 3, 6, 7], t);
});

test('shortest_path with directed follows forward call chains only and says which path it returned', async () => {
  const forward = (await call('shortest_path', { source: 'start', target: 'end', directed: true })).text;
  assert.equal(forward, 'Path (2 hops, directed: a forward call chain):\nstart@src/chain.ts --calls--> middle@src/chain.ts --calls--> end@src/chain.ts');
  // Undirected, other and middle meet through their file (no call chain between them).
  const undirected = (await call('shortest_path', { source: 'other', target: 'middle' })).text;
  assert.match(undirected, /^Path \(2 hops, undirected: arrows as stored, a backward one is no call\):\nother@src\/chain\.ts <--contains-- /);
  const none = (await call('shortest_path', { source: 'other', target: 'middle', directed: true })).text;
  assert.match(none, /^No forward call chain from other@src\/chain\.ts to middle@src\/chain\.ts within 8 hops \(they connect in 2 hop\(s\) ignoring direction: call without directed\)$/);
});
