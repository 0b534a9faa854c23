import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, CLI_ARGS, ROOT } from './helpers.ts';
import { COMMUNITY_STRIDE, federateDocument } from '../../src/mcp/federated/member-load.node.ts';

// Shard-aware `serve --store` (#22 item 3) over a real `workspace build` of five members copied from
// test/fixtures/repo, each federated tool compared with the same call on the materialized union
// (built here only: each member's graph.json prefixed `<tag>/…`, as the store serves it).
const skip = !existsSync(CLI) && process.env.SYNAPTIC_TEST_TSX !== '1' && 'dist/ not built (npm run build)';
const MEMBERS = ['go', 'java', 'py', 'c', 'ruby'];
/** The CLI command line, tsx named by path (the workspace's folders are outside the checkout). */
const ARGS = CLI_ARGS.map((a) => (a === 'tsx' ? join(ROOT, 'node_modules/tsx/dist/esm/index.mjs') : a));

/** The temp folder: ws/ (the workspace and its members) and union/ (the union graph, outside the source root). */
let base = '';
let root = '';
let store = '';
let unionGraph = '';

const json = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));

before(() => {
  if (skip) return;
  base = realpathSync(mkdtempSync(join(tmpdir(), 'synaptic-fed-')));
  root = join(base, 'ws');
  for (const m of MEMBERS) cpSync(join(ROOT, 'test/fixtures/repo', m), join(root, m), { recursive: true });
  execFileSync(process.execPath, [...ARGS, 'workspace', 'build', ...MEMBERS, '--jobs', '2'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  store = join(root, 'synaptic-out');
  writeUnion();
});

after(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** The union of every member's graph.json, in manifest order (what the store must answer like). */
function writeUnion(): void {
  const manifest = json(join(store, 'global-manifest.json'));
  const union = { directed: true, multigraph: true, graph: {} as Record<string, unknown>, nodes: [] as unknown[], links: [] as unknown[], hyperedges: [], built_at_commit: null };
  manifest.members.forEach((m: any, i: number) => {
    const doc = federateDocument(json(join(m.out_dir, 'graph.json')), m.tag, i * COMMUNITY_STRIDE);
    union.nodes.push(...doc.nodes);
    union.links.push(...doc.links);
    // Graph-level records: lists concatenated, maps merged (their keys are prefixed), the rest the first member's.
    for (const [k, v] of Object.entries<any>(doc.graph ?? {})) {
      const had = union.graph[k] as any;
      if (Array.isArray(v)) union.graph[k] = [...(had ?? []), ...v];
      else if (v && typeof v === 'object') union.graph[k] = { ...(had ?? {}), ...v };
      else if (!(k in union.graph)) union.graph[k] = v;
    }
  });
  mkdirSync(join(base, 'union'), { recursive: true });
  unionGraph = join(base, 'union', 'graph.json');
  writeFileSync(unionGraph, JSON.stringify(union));
  copyFileSync(join(store, 'workspace-state.json'), join(base, 'union', 'workspace-state.json'));
}

interface Served {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

async function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [...ARGS, 'serve', ...args], stderr: 'pipe',
    env: { ...process.env, SYNAPTIC_DATA_DIR: join(base, 'data'), ...env } as Record<string, string>,
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const client = new Client({ name: 'fed-test', version: '1.0' });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

const serveStore = (env: Record<string, string> = {}) => serve(['--store', store], env);
const serveUnion = () => serve(['--graph', unionGraph, '--source-root', root, '--no-freshen']);

async function call(s: Served, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; structured: unknown; isError: boolean }> {
  const r: any = await s.client.callTool({ name, arguments: args });
  return { text: r.content.map((c: any) => c.text).join('\n'), structured: r.structuredContent, isError: r.isError === true };
}

/** Calls whose answers must equal the union's, text and structured content. */
const SAME: Array<[string, Record<string, unknown>]> = [
  ['list_repos', {}],
  ['repo_stats', { repo: 'py' }],
  ['graph_stats', {}],
  ['god_nodes', {}],
  ['god_nodes', { top_n: 3, offset: 4 }],
  ['get_node', { label: 'go/main.go' }],
  ['get_node', { label: 'py/zoo/keeper.py#Keeper' }],
  ['get_node', { label: 'Keeper' }],
  ['get_node', { label: 'no_such_symbol_anywhere' }],
  ['get_neighbors', { label: 'py/zoo/keeper.py#Keeper.adopt' }],
  ['get_neighbors', { label: 'NewStore', show_sites: true }],
  ['find_callers', { label: 'py/zoo/animals.py#Animal.speak' }],
  ['find_callers', { label: 'NewStore' }],
  ['find_callers', { label: 'Puppy' }],
  ['find_callers', { label: 'Dog' }],
  ['get_node', { label: 'Animal@py/' }],
  ['get_neighbors', { label: 'java/src/main/java/com/example/Dog.java#Dog' }],
  ['find_callees', { label: 'go/main.go#main' }],
  ['find_callees', { label: 'Keeper.adopt' }],
  ['get_source', { label: 'Keeper.adopt' }],
  ['get_source', { label: 'go/store/store.go#Store.Put' }],
  ['get_source', { file: 'c/checksum.c', lines: '1-6' }],
  ['search_text', { pattern: 'func' }],
  ['search_text', { pattern: 'speak', repo: 'py' }],
  ['search_text', { pattern: 'return', max_results: 4 }],
];

test('serve --store answers each federated tool exactly as the materialized union does', { skip }, async () => {
  const [fed, uni] = await Promise.all([serveStore(), serveUnion()]);
  try {
    for (const [name, args] of SAME) {
      const [a, b] = [await call(fed, name, args), await call(uni, name, args)];
      assert.equal(a.text, b.text, `${name} ${JSON.stringify(args)}: text`);
      assert.deepEqual(a.structured, b.structured, `${name} ${JSON.stringify(args)}: structured`);
      assert.equal(a.isError, b.isError, `${name} ${JSON.stringify(args)}: isError`);
    }
    const stats = await call(fed, 'graph_stats');
    assert.match(stats.text, /^Graph: \d+ nodes/);
    const notYet = await call(fed, 'affected', { label: 'Keeper' });
    assert.equal(notYet.isError, true);
    assert.match(notYet.text, /^Cannot answer affected on a federated store yet: .*Serve one member's graph meanwhile \(e\.g\. synaptic serve --graph .*graph\.json\); members: go, java, py, c, ruby$/);
  } finally {
    await Promise.all([fed.close(), uni.close()]);
  }
});

/** The store's load lines on stderr, by member. */
function loads(s: Served, tag: string): number {
  return s.stderr().split('\n').filter((l) => l.includes(`store: loaded member '${tag}'`) || l.includes(`Cannot load member '${tag}'`)).length;
}

const waitFor = async (what: () => boolean) => {
  for (let i = 0; i < 100 && !what(); i++) await new Promise((r) => setTimeout(r, 20));
};

test('SYNAPTIC_SHARD_LRU=2 keeps two members resident; concurrent misses on one member share one load', { skip }, async () => {
  const fed = await serveStore({ SYNAPTIC_SHARD_LRU: '2' });
  try {
    const [a, b, c] = await Promise.all([
      call(fed, 'get_node', { label: 'py/zoo/keeper.py#Keeper' }), call(fed, 'find_callers', { label: 'py/zoo/animals.py#Animal.speak' }), call(fed, 'get_neighbors', { label: 'py/zoo/keeper.py#Keeper.adopt' }),
    ]);
    for (const r of [a, b, c]) assert.equal(r.isError, false, r.text);
    await waitFor(() => loads(fed, 'py') > 0);
    assert.equal(loads(fed, 'py'), 1, `three concurrent calls, one load:\n${fed.stderr()}`);
    for (const id of ['go/main.go', 'java/src/main/java/com/example/Dog.java', 'py/zoo/keeper.py']) assert.equal((await call(fed, 'get_node', { label: id })).isError, false);
    assert.match(fed.stderr(), /loaded member 'java' .*; resident: go, java\n/, 'go and java resident, py evicted');
    assert.equal(loads(fed, 'py'), 2, 'py was evicted by go and java, so it loads again');
    assert.match(fed.stderr(), /loaded member 'py' .*; resident: java, py\n/);
    await call(fed, 'get_node', { label: 'py/zoo/animals.py' });
    assert.equal(loads(fed, 'py'), 2, 'a resident member does not load again');
  } finally {
    await fed.close();
  }
});

test('a failed member load rejects every waiting call naming the member, then is forgotten so the next call retries', { skip }, async () => {
  const out = join(root, 'c', 'synaptic-out');
  const saved = ['graph.json', 'graph.cbor'].map((f) => [join(out, f), readFileSync(join(out, f))] as const);
  const fed = await serveStore();
  try {
    for (const [file] of saved) writeFileSync(file, 'not a graph');
    const ref = 'c/checksum.c';
    const failed = await Promise.all([1, 2, 3].map(() => call(fed, 'get_node', { label: ref })));
    for (const r of failed) {
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /Cannot load member 'c' of the store .*: .*graph\.json is not JSON/);
    }
    await waitFor(() => loads(fed, 'c') > 0);
    assert.equal(loads(fed, 'c'), 1, 'one load for the three waiters');
    assert.equal((await call(fed, 'get_node', { label: ref })).isError, true);
    assert.equal(loads(fed, 'c'), 2, 'the failure was forgotten: the next call loads again');
    for (const [file, bytes] of saved) writeFileSync(file, bytes);
    const ok = await call(fed, 'get_node', { label: ref });
    assert.equal(ok.isError, false, ok.text);
    assert.match(ok.text, /^Node checksum\.c\n {2}id: c\/checksum\.c/);
  } finally {
    for (const [file, bytes] of saved) writeFileSync(file, bytes);
    await fed.close();
  }
});

test('after workspace update re-extracts one member, the next call answers from its new graph (manifest generation)', { skip }, async () => {
  const fed = await serveStore();
  try {
    const before = await call(fed, 'graph_stats');
    assert.match((await call(fed, 'get_node', { label: 'groom_all' })).text, /^No node matches 'groom_all'/);
    appendFileSync(join(root, 'py', 'zoo', 'keeper.py'), '\n\ndef groom_all(keeper):\n    return [a.speak() for a in keeper.animals]\n');
    execFileSync(process.execPath, [...ARGS, 'workspace', 'update'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    const node = await call(fed, 'get_node', { label: 'groom_all' });
    assert.match(node.text, /^Node groom_all\n {2}id: py\/zoo\/keeper\.py#groom_all/);
    assert.match(fed.stderr(), /store: manifest generation 1 -> 2/);
    writeUnion();
    const uni = await serveUnion();
    try {
      const [a, b] = [await call(fed, 'graph_stats'), await call(uni, 'graph_stats')];
      assert.notEqual(a.text, before.text);
      assert.equal(a.text, b.text);
      assert.deepEqual(a.structured, b.structured);
    } finally {
      await uni.close();
    }
  } finally {
    await fed.close();
  }
});
