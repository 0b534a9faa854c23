import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { Core } from '../../src/core/index.ts';
import { listenHttp, type HttpListener } from '../../src/mcp/http/listen.node.ts';
import { createSynapticServer, type SynapticServer } from '../../src/mcp/synaptic-server.ts';
import { ToolPool } from '../../src/mcp/http/tool-pool.node.ts';
import { CLI, startHttpServer } from '../helpers/serve-http.ts';

// `serve --http --threads N`: graph tools answered on worker threads. Same bytes as the main thread
// for every routed tool (answers and error paths), a hot reload reaches every worker, and a worker
// that dies fails its call with a JSON-RPC error and is replaced (nothing hangs).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const INIT = { concise: false, name: 'synaptic', version: '0.0.0-test' };

let work: string;
let repo: string;
let graphPath: string;
let server: SynapticServer;
let pool: ToolPool;
let threaded: HttpListener;
let inThread: HttpListener;
const children: ChildProcess[] = [];

function extractCopy(name: string): string {
  const dir = join(work, name);
  cpSync(join(ROOT, 'test/fixtures/repo'), dir, { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', dir], { stdio: 'ignore' });
  return dir;
}

function headers(name: string, method = 'tools/call'): Record<string, string> {
  return { 'content-type': 'application/json', 'mcp-protocol-version': MODERN, 'mcp-method': method, 'mcp-name': name };
}

async function post(url: string, h: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  const res = await request(url, { method: 'POST', headers: h, body, headersTimeout: 20000, bodyTimeout: 20000 });
  return { status: res.statusCode, text: await res.body.text() };
}

function call(id: number, name: string, args: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } });
}

async function toolText(url: string, id: number, name: string, args: unknown): Promise<string> {
  const r = await post(url, headers(name), call(id, name, args));
  assert.equal(r.status, 200, r.text);
  return (JSON.parse(r.text) as { result: { content: Array<{ text: string }> } }).result.content[0]!.text;
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'synaptic-threads-'));
  repo = extractCopy('repo');
  graphPath = join(repo, 'synaptic-out/graph.json');
  server = await createSynapticServer({ graphPath, sourceRoot: repo, core: await Core.load(), ...INIT, log: () => {}, watch: false, providers: [] });
  pool = new ToolPool({ size: 2, init: { graphPath, sourceRoot: repo, ...INIT }, beforeCall: () => server.engine() });
  server.live.onReload(() => pool.reload());
  await pool.start();
  threaded = await listenHttp({ host: '127.0.0.1', port: 0 }, { core: server.core, hub: server.hub, offload: pool.offload });
  inThread = await listenHttp({ host: '127.0.0.1', port: 0 }, { core: server.core, hub: server.hub });
});

after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await threaded?.close();
  await inThread?.close();
  await pool?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

test('every routed graph tool answers byte-identically on a worker and on the main thread (answers and errors)', async () => {
  assert.equal(pool.readyCount, 2);
  const names = [...pool.tools];
  assert.ok(names.includes('query_graph') && names.includes('get_source') && names.includes('find_callers'), names.join(','));
  assert.ok(!names.some((n) => /memory|remember|recall|vault|teach/.test(n)), 'memory and vault tools stay on the main thread');
  const doc = JSON.parse(readFileSync(graphPath, 'utf8')) as { nodes: Array<{ label: string; kind: string; source_file: string }> };
  const fns = doc.nodes.filter((n) => n.kind === 'function' || n.kind === 'method');
  assert.ok(fns.length >= 3);
  const [a, b, c] = [fns[0]!, fns[Math.floor(fns.length / 2)]!, fns[fns.length - 1]!];
  const argSets: unknown[] = [
    { label: a.label, question: `${a.label} ${c.label}`, source: a.label, target: b.label, pattern: a.label, community_id: 0, file: a.source_file },
    { label: b.label, question: 'where is the app created', source: b.label, target: c.label, pattern: 'export', community_id: 1, depth: 2, verbose: true },
    { label: 'noSuchSymbolAnywhere', question: 'zzzz', source: 'nope', target: 'nope2', pattern: '(', community_id: 99999 },
    {},
    { label: 5, question: [], depth: 'x' },
  ];
  const before = pool.stats.forwarded;
  let id = 1;
  let compared = 0;
  for (const name of names) {
    for (const args of argSets) {
      const body = call(id++, name, args);
      const [x, y] = await Promise.all([post(threaded.mcpUrl, headers(name), body), post(inThread.mcpUrl, headers(name), body)]);
      assert.equal(x.status, y.status, `${name} ${JSON.stringify(args)}`);
      assert.equal(x.text, y.text, `${name} ${JSON.stringify(args)}`);
      compared++;
    }
  }
  // Protocol errors of a routed call are the worker's too: a body that does not match its headers, bad JSON.
  const mismatch = call(id++, 'get_node', { label: a.label });
  const bad = [
    { h: headers('find_callers'), body: mismatch },
    { h: headers('get_node'), body: '{"jsonrpc": "2.0", "id": 7, ' },
    { h: headers('get_node'), body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_node', arguments: {}, _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': 3 } } }) },
  ];
  for (const { h, body } of bad) {
    const [x, y] = await Promise.all([post(threaded.mcpUrl, h, body), post(inThread.mcpUrl, h, body)]);
    assert.ok(x.status >= 400, x.text);
    assert.equal(x.status, y.status);
    assert.equal(x.text, y.text);
    compared++;
  }
  assert.equal(pool.stats.forwarded - before, compared, 'every compared call was answered by a worker');
});

test('a worker that dies fails its call with a JSON-RPC error and is replaced; later calls succeed', async () => {
  const own = new ToolPool({ size: 1, init: { graphPath, sourceRoot: repo, ...INIT }, log: () => {} });
  await own.start();
  let crashNext = true;
  const listener = await listenHttp({ host: '127.0.0.1', port: 0 }, {
    core: server.core,
    hub: server.hub,
    offload: (req) => {
      // The exit is queued before the call, so the worker dies with the call in flight.
      if (crashNext) own.exitWorker(0);
      crashNext = false;
      return own.offload(req);
    },
  });
  try {
    const failed = await post(listener.mcpUrl, headers('graph_stats'), call(41, 'graph_stats', {}));
    assert.equal(failed.status, 500);
    const json = JSON.parse(failed.text) as { id: number; error: { code: number; message: string } };
    assert.equal(json.id, 41);
    assert.equal(json.error.code, -32603);
    assert.match(json.error.message, /tool worker stopped \(exit code 70\).*send it again/);
    assert.equal(own.stats.failed, 1);
    await own.whenReady(1);
    const forwarded = own.stats.forwarded;
    assert.match(await toolText(listener.mcpUrl, 42, 'graph_stats', {}), /nodes/i);
    assert.equal(own.stats.forwarded, forwarded + 1, 'the replacement worker answered');
  } finally {
    await listener.close();
    await own.close();
  }
});

test('serve --http --threads 2: a hot reload reaches every worker (workers never check the file themselves)', async () => {
  const dir = extractCopy('reload');
  const graph = join(dir, 'synaptic-out/graph.json');
  const s = await startHttpServer(join(work, 'ready-reload.json'), ['--graph', graph, '--threads', '2', '--no-freshen'], { SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(work, 'data') });
  children.push(s.child);
  assert.match(s.stderr(), /2 graph-tool worker threads ready/);
  let id = 100;
  for (let i = 0; i < 4; i++) assert.match(await toolText(s.url, id++, 'get_node', { label: 'addedForThreadReload' }), /not found|no node/i);
  appendFileSync(join(dir, 'src/app.ts'), '\nexport function addedForThreadReload(): number {\n  return 3;\n}\n');
  execFileSync(process.execPath, [CLI, 'extract', dir], { stdio: 'ignore' });
  const deadline = Date.now() + 15000;
  let seen = '';
  while (!/src\/app\.ts/.test(seen) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    seen = await toolText(s.url, id++, 'get_node', { label: 'addedForThreadReload' });
  }
  assert.match(seen, /addedForThreadReload[\s\S]*src\/app\.ts/);
  // Calls rotate over the workers: every one of them now answers from the new graph.
  const answers = await Promise.all(Array.from({ length: 8 }, () => toolText(s.url, id++, 'get_node', { label: 'addedForThreadReload' })));
  for (const answer of answers) assert.match(answer, /addedForThreadReload[\s\S]*src\/app\.ts/);
  assert.match(s.stderr(), /graph reloaded/);
});

test('serve --http --threads 1: a source edit reaches the worker (background staleness walk, update, reload fan-out)', async () => {
  const dir = extractCopy('fresh');
  const s = await startHttpServer(join(work, 'ready-fresh.json'), ['--graph', join(dir, 'synaptic-out/graph.json'), '--threads', '1'], { SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(work, 'data'), SYNAPTIC_SERVE_WATCH: '' });
  children.push(s.child);
  let id = 200;
  assert.match(await toolText(s.url, id++, 'get_node', { label: 'editedUnderThreads' }), /not found|no node/i);
  appendFileSync(join(dir, 'src/app.ts'), '\nexport function editedUnderThreads(): number {\n  return 5;\n}\n');
  const deadline = Date.now() + 15000;
  let seen = '';
  while (!/src\/app\.ts/.test(seen) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    seen = await toolText(s.url, id++, 'get_node', { label: 'editedUnderThreads' });
  }
  assert.match(seen, /editedUnderThreads[\s\S]*src\/app\.ts/);
  assert.match(s.stderr(), /source changed \(src\/app\.ts\); graph updated/);
});

test('--threads is checked before the graph loads: a number from 0 to 16, only with --http, not with --immutable-graph', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, 'serve', '--graph', graphPath, ...args], { encoding: 'utf8', env: { ...process.env, SYNAPTIC_DATA_DIR: join(work, 'data') }, input: '' });
  const stdio = run(['--threads', '2']);
  assert.equal(stdio.status, 2);
  assert.match(stdio.stderr, /--threads requires --http/);
  const word = run(['--http', '127.0.0.1:0', '--threads', 'many']);
  assert.equal(word.status, 2);
  assert.match(word.stderr, /--threads must be a whole number from 0 to 16, got 'many'/);
  const pinned = run(['--http', '127.0.0.1:0', '--threads', '1', '--immutable-graph']);
  assert.equal(pinned.status, 2);
  assert.match(pinned.stderr, /--threads cannot be used with --immutable-graph/);
  assert.match(run(['--help']).stdout + run(['--help']).stderr, /--threads <n>/);
});
