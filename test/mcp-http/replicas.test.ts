import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { copyFixture } from '../extract/pipeline-fixture.ts';
import { CLI, startHttpServer, type HttpServer } from '../helpers/serve-http.ts';

// Three `serve --http --immutable-graph` replicas of one graph behind a round-robin proxy with no
// session affinity: every 2026-07-28 request (stateless) gets the same answer whichever replica
// serves it. A legacy (initialize-based) session lives in one replica, so the next request landing
// on another is refused: legacy clients need affinity (docs/replicas.md).

const KEY = 'replica-test-key';
const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'replica-test', version: '1.0.0' } };

let work: string;
let cleanup: () => void;
const replicas: HttpServer[] = [];
let proxy: Server;
let proxyUrl: string;
/** Index of the replica that served each proxied request, in order. */
const served: number[] = [];

/** A round-robin reverse proxy: each request goes to the next replica, nothing sticky. */
function startProxy(ports: number[]): Promise<string> {
  let next = 0;
  proxy = createServer((req, res) => {
    const i = next++ % ports.length;
    served.push(i);
    const up = httpRequest({ host: '127.0.0.1', port: ports[i], method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${ports[i]}` } }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(up);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`)));
}

async function post(headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any; headers: Record<string, unknown> }> {
  const res = await request(proxyUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': KEY, ...headers }, body: JSON.stringify(body) });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

function modern(method: string, params: Record<string, unknown>, name?: string): Promise<{ status: number; json: any }> {
  const h: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (name) h['mcp-name'] = name;
  return post(h, { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: META } });
}

before(async () => {
  const fx = copyFixture('synaptic-replicas-');
  cleanup = fx.cleanup;
  work = mkdtempSync(join(tmpdir(), 'synaptic-replicas-run-'));
  execFileSync(process.execPath, [CLI, 'extract', fx.dir], { stdio: 'ignore' });
  const graph = join(fx.dir, 'synaptic-out/graph.json');
  const started = await Promise.all([0, 1, 2].map((i) => startHttpServer(join(work, `ready-${i}.json`), ['--graph', graph, '--immutable-graph', '--source-root', fx.dir], { SYNAPTIC_API_KEY: KEY, SYNAPTIC_DATA_DIR: join(work, `data-${i}`), SYNAPTIC_SERVE_WATCH: '' })));
  replicas.push(...started);
  proxyUrl = await startProxy(replicas.map((r) => r.port));
});

after(async () => {
  for (const r of replicas) r.child.kill('SIGKILL');
  await new Promise((r) => proxy?.close(r));
  cleanup?.();
  rmSync(work, { recursive: true, force: true });
});

test('stateless 2026-07-28 requests get identical answers from any of 3 replicas, no affinity', async () => {
  const calls: Array<[string, Record<string, unknown>]> = [
    ['graph_stats', {}],
    ['find_callers', { label: 'splitPath' }],
    ['get_neighbors', { label: 'splitPath' }],
    ['god_nodes', {}],
    ['query_graph', { question: 'how are paths split' }],
    ['get_source', { label: 'splitPath' }],
  ];
  const list = [];
  for (let i = 0; i < 3; i++) list.push(await modern('tools/list', {}));
  for (const r of list) assert.equal(r.status, 200);
  assert.deepEqual(list[1]!.json, list[0]!.json);
  assert.deepEqual(list[2]!.json, list[0]!.json);
  const names = new Set((list[0]!.json.result.tools as Array<{ name: string }>).map((t) => t.name));
  for (const [name, args] of calls) {
    assert.ok(names.has(name), `${name} is served`);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await modern('tools/call', { name, arguments: args }, name));
    for (const a of answers) {
      assert.equal(a.status, 200, `${name}: ${JSON.stringify(a.json)}`);
      assert.equal(a.json.result.isError ?? false, false, `${name}: ${JSON.stringify(a.json.result)}`);
    }
    assert.deepEqual(answers[1]!.json, answers[0]!.json, `${name}: replica answers differ`);
    assert.deepEqual(answers[2]!.json, answers[0]!.json, `${name}: replica answers differ`);
  }
  // Round robin really spread the work: every replica served a third of the requests.
  const perReplica = [0, 1, 2].map((i) => served.filter((s) => s === i).length);
  assert.deepEqual(perReplica, [perReplica[0], perReplica[0], perReplica[0]]);
  assert.ok(perReplica[0]! >= 7);
});

test('a legacy initialize-based session is bound to one replica: without affinity the next request is refused', async () => {
  const init = await post({}, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } });
  assert.equal(init.status, 200);
  const sid = init.headers['mcp-session-id'] as string;
  assert.match(sid, /^[0-9a-f-]{16,}$/i);
  const legacy = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  const results = [];
  for (let i = 0; i < 3; i++) results.push((await post(legacy, { jsonrpc: '2.0', id: 2 + i, method: 'tools/list', params: {} })).status);
  // The request routed back to the replica that minted the session works; the other two do not know it.
  assert.deepEqual([...results].sort(), [200, 404, 404]);
});
