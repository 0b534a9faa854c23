import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Core } from '../../src/core/index.ts';
import { listenHttp, type HttpListener } from '../../src/mcp/http/listen.node.ts';
import type { HttpReply } from '../../src/mcp/http/reply.ts';
import { createSynapticServer, type SynapticServer } from '../../src/mcp/synaptic-server.ts';
import { CLI } from '../helpers/serve-http.ts';

// The HTTP/1.1 wire of `serve --http` (Node's http.Server feeding the transport), read as raw bytes:
// the exact reply head, every status of the transport and of the server (400 malformed heads, 408,
// 413, 431), which replies close the connection, pipelined replies in order, requests split at every
// byte boundary, slow and idle connections, SSE next to calls, and the limit on requests in flight
// per connection.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
const KEY = 'wire-key-9';

let work: string;
let server: SynapticServer;
let http: HttpListener;
let timed: HttpListener;
/** Calls held by `held`'s offload hook until released (the pipelining-limit test). */
let held: HttpListener;
const holding: Array<() => void> = [];
let fnLabel: string;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'synaptic-wire-'));
  const repo = join(work, 'repo');
  cpSync(join(ROOT, 'test/fixtures/repo'), repo, { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', repo], { stdio: 'ignore' });
  const graphPath = join(repo, 'synaptic-out/graph.json');
  const doc = JSON.parse(readFileSync(graphPath, 'utf8')) as { nodes: Array<{ label: string; kind: string }> };
  fnLabel = doc.nodes.find((n) => n.kind === 'function')!.label;
  server = await createSynapticServer({ graphPath, sourceRoot: repo, core: await Core.load(), concise: false, name: 'synaptic', version: '0.0.0-test', log: () => {}, watch: false, providers: [] });
  const opts = { core: server.core, hub: server.hub, apiKey: KEY };
  http = await listenHttp({ host: '127.0.0.1', port: 0 }, opts);
  timed = await listenHttp({ host: '127.0.0.1', port: 0 }, { ...opts, timeouts: { headersMs: 600, requestMs: 1500, keepAliveMs: 1000, checkEveryMs: 100 } });
  held = await listenHttp({ host: '127.0.0.1', port: 0 }, {
    ...opts,
    maxInFlight: 16,
    offload: (req) => new Promise<HttpReply>((resolve) => holding.push(() => void req.text().then((body) => resolve({ status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: (JSON.parse(body) as { id: number }).id }) })))),
  });
});

after(async () => {
  await http?.close();
  await timed?.close();
  await held?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

interface RequestSpec {
  method?: string;
  path?: string;
  version?: string;
  headers?: Array<[string, string]>;
  body?: string | Buffer;
  /** Leave Host out. */
  noHost?: boolean;
  /** Leave Content-Length out (for chunked or bodiless requests). */
  noLength?: boolean;
  /** Header lines written as they are. */
  lines?: string[];
}

function rawRequest(port: number, spec: RequestSpec): Buffer {
  const body = typeof spec.body === 'string' ? Buffer.from(spec.body) : (spec.body ?? Buffer.alloc(0));
  let head = `${spec.method ?? 'POST'} ${spec.path ?? '/mcp'} ${spec.version ?? 'HTTP/1.1'}\r\n`;
  if (!spec.noHost) head += `Host: 127.0.0.1:${port}\r\n`;
  for (const [k, v] of spec.headers ?? []) head += `${k}: ${v}\r\n`;
  for (const line of spec.lines ?? []) head += `${line}\r\n`;
  if (!spec.noLength) head += `Content-Length: ${body.length}\r\n`;
  return Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), body]);
}

function callHeaders(method: string, name?: string, key = KEY): Array<[string, string]> {
  const h: Array<[string, string]> = [['content-type', 'application/json'], ['x-api-key', key], ['mcp-protocol-version', MODERN], ['mcp-method', method]];
  if (name) h.push(['mcp-name', name]);
  return h;
}

function callBody(id: number | undefined, name: string, args: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method: 'tools/call', params: { name, arguments: args, _meta: META } });
}

/** Split a byte stream of responses into complete responses (Content-Length, chunked, or up to the close). */
function splitResponses(data: Buffer, closed: boolean): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const head = data.toString('latin1', at, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let stop: number;
    if (status === 100) stop = end + 4;
    else if (length) stop = end + 4 + Number(length[1]);
    else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const term = data.indexOf('0\r\n\r\n', end + 4);
      if (term < 0) break;
      stop = term + 5;
    } else {
      if (!closed) break;
      stop = data.length;
    }
    if (stop > data.length) break;
    out.push(data.toString('utf8', at, stop));
    at = stop;
  }
  return out;
}

/** Date and minted session ids differ between any two replies; everything else must not. */
function normalize(response: string): string {
  return response.replace(/\r\nDate: [^\r]*/, '\r\nDate: (date)').replace(/(\r\nmcp-session-id: )[0-9a-f]+/, '$1(id)');
}

/**
 * Write `chunks` to a new connection (each after the previous was sent, with a pause between them when
 * `gapMs` is given) and collect replies until `expected` complete ones arrived or the server closed.
 */
async function exchange(port: number, chunks: Buffer[], expected: number, gapMs = 0): Promise<{ responses: string[]; closed: boolean }> {
  const sock = connect(port, '127.0.0.1');
  sock.setNoDelay(true);
  const parts: Buffer[] = [];
  let closed = false;
  const done = new Promise<void>((resolveDone) => {
    const timer = setTimeout(() => resolveDone(), 10_000);
    const check = () => {
      if (closed || splitResponses(Buffer.concat(parts), false).length >= expected) {
        clearTimeout(timer);
        resolveDone();
      }
    };
    sock.on('data', (d: Buffer) => {
      parts.push(d);
      check();
    });
    sock.on('close', () => {
      closed = true;
      check();
    });
    sock.on('error', () => {});
  });
  await new Promise<void>((r) => sock.once('connect', () => r()));
  for (const c of chunks) {
    await new Promise<void>((r) => sock.write(c, () => r()));
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
  }
  await done;
  // a closed connection says so at once; wait a moment for a close right after the last reply
  if (!closed) await new Promise((r) => setTimeout(r, 20));
  sock.destroy();
  return { responses: splitResponses(Buffer.concat(parts), closed).map(normalize), closed };
}

/** The head of a reply, Date and Content-Length values normalized. */
function headOf(response: string): string {
  return response.slice(0, response.indexOf('\r\n\r\n') + 4).replace(/\r\ncontent-length: \d+/, '\r\ncontent-length: (n)');
}

test('a tool call gets the head Node writes: status, the transport headers, length, Date, keep-alive', async () => {
  const port = http.address.port;
  const x = await exchange(port, [rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) })], 1);
  assert.equal(x.responses.length, 1);
  assert.equal(headOf(x.responses[0]!), 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: (n)\r\nDate: (date)\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n');
  const body = x.responses[0]!.slice(x.responses[0]!.indexOf('\r\n\r\n') + 4);
  assert.equal(Number(/\r\ncontent-length: (\d+)/.exec(x.responses[0]!)![1]), Buffer.byteLength(body), 'Content-Length counts bytes');
  assert.equal((JSON.parse(body) as { id: number }).id, 1);
  assert.equal(x.closed, false, 'the connection stays open');
});

test('every status of the transport and the server, and which replies close the connection', async () => {
  const port = http.address.port;
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META, pad: 'x'.repeat(4 * 1024 * 1024 + 10) } });
  const cases: Array<{ name: string; spec: RequestSpec; status: number; closes?: boolean }> = [
    { name: 'tool call', spec: { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) }, status: 200 },
    { name: 'non-ASCII arguments', spec: { headers: callHeaders('tools/call', 'query_graph'), body: callBody(2, 'query_graph', { question: 'ñandú 函数 créer' }) }, status: 200 },
    { name: 'no key', spec: { headers: callHeaders('tools/call', 'find_callers').filter(([k]) => k !== 'x-api-key'), body: callBody(3, 'find_callers', {}) }, status: 401 },
    { name: 'wrong key', spec: { headers: callHeaders('tools/call', 'find_callers', 'nope'), body: callBody(4, 'find_callers', {}) }, status: 401 },
    { name: 'repeated key', spec: { headers: [...callHeaders('tools/call', 'find_callers'), ['X-API-KEY', KEY]], body: callBody(5, 'find_callers', {}) }, status: 401 },
    { name: 'bearer key, mixed-case names', spec: { headers: [['Content-Type', 'application/json'], ['Authorization', `bearer ${KEY}`], ['MCP-Protocol-Version', MODERN], ['Mcp-Method', 'tools/call'], ['MCP-NAME', 'find_callers']], body: callBody(6, 'find_callers', { label: fnLabel }) }, status: 200 },
    { name: 'odd header spacing', spec: { headers: [['content-type', 'application/json'], ['mcp-protocol-version', MODERN], ['mcp-method', 'tools/call']], lines: [`x-api-key:\t  ${KEY} \t`, 'mcp-name:find_callers'], body: callBody(19, 'find_callers', { label: fnLabel }) }, status: 200 },
    { name: 'foreign Host', spec: { noHost: true, headers: [['Host', 'evil.example:80'], ...callHeaders('tools/call', 'find_callers')], body: callBody(7, 'find_callers', {}) }, status: 403 },
    { name: 'header mismatch', spec: { headers: callHeaders('tools/call', 'affected'), body: callBody(8, 'find_callers', {}) }, status: 400 },
    { name: 'bad JSON', spec: { headers: callHeaders('tools/call', 'find_callers'), body: '{"jsonrpc": "2.0", "id": 9,' }, status: 400 },
    { name: 'empty body', spec: { headers: callHeaders('tools/call', 'find_callers') }, status: 400 },
    { name: 'notification', spec: { headers: callHeaders('tools/call', 'find_callers'), body: callBody(undefined, 'find_callers', {}) }, status: 202 },
    { name: 'unknown method', spec: { headers: callHeaders('nothing/here'), body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'nothing/here', params: { _meta: META } }) }, status: 404 },
    { name: 'legacy initialize', spec: { headers: [['content-type', 'application/json'], ['x-api-key', KEY]], body: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) }, status: 200 },
    { name: 'unknown session', spec: { headers: [['content-type', 'application/json'], ['x-api-key', KEY], ['mcp-session-id', 'abc']], body: JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'tools/list' }) }, status: 404 },
    { name: 'a 1 MB body (read in many pieces)', spec: { headers: callHeaders('tools/list'), body: JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'tools/list', params: { _meta: META, pad: 'y'.repeat(1 << 20) } }) }, status: 200 },
    { name: 'body over 4 MB', spec: { headers: callHeaders('tools/list'), body: big }, status: 413, closes: true },
    { name: 'REST', spec: { method: 'GET', path: '/api/stats', headers: [['x-api-key', KEY]], noLength: true }, status: 200 },
    { name: 'other path', spec: { path: '/elsewhere', headers: callHeaders('tools/list'), body: '{}' }, status: 404 },
    { name: 'chunked', spec: { headers: [...callHeaders('tools/call', 'find_callers'), ['Transfer-Encoding', 'chunked']], noLength: true, body: (() => { const b = callBody(13, 'find_callers', { label: fnLabel }); return `${Buffer.byteLength(b).toString(16)}\r\n${b}\r\n0\r\n\r\n`; })() }, status: 200 },
    { name: 'HTTP/1.0', spec: { version: 'HTTP/1.0', headers: callHeaders('tools/call', 'find_callers'), body: callBody(15, 'find_callers', { label: fnLabel }) }, status: 200, closes: true },
    { name: 'no Host', spec: { noHost: true, headers: callHeaders('tools/call', 'find_callers'), body: callBody(16, 'find_callers', {}) }, status: 400, closes: true },
    { name: 'head over 16 KB', spec: { headers: [...callHeaders('tools/call', 'find_callers'), ['x-pad', 'p'.repeat(17_000)]], body: callBody(17, 'find_callers', {}) }, status: 431, closes: true },
    { name: 'Connection: close', spec: { headers: [...callHeaders('tools/call', 'find_callers'), ['Connection', 'close']], body: callBody(18, 'find_callers', { label: fnLabel }) }, status: 200, closes: true },
  ];
  for (const c of cases) {
    const x = await exchange(port, [rawRequest(port, c.spec)], 1);
    assert.equal(x.responses.length, 1, `${c.name}: answered`);
    assert.equal(Number(x.responses[0]!.slice(9, 12)), c.status, `${c.name}: ${x.responses[0]!.slice(0, 300)}`);
    assert.equal(x.closed, c.closes ?? false, `${c.name}: the connection ${c.closes ? 'closes' : 'stays open'}`);
  }
  // Expect: 100-continue gets the interim 100, then the answer.
  const expect = await exchange(port, [rawRequest(port, { headers: [...callHeaders('tools/call', 'find_callers'), ['Expect', '100-continue']], body: callBody(14, 'find_callers', { label: fnLabel }) })], 2);
  assert.deepEqual(expect.responses.map((r) => Number(r.slice(9, 12))), [100, 200]);
});

test('a malformed head (bare LF line ends, a space in a name, a lone CR) gets 400 at once and the connection closes', async () => {
  const port = http.address.port;
  const call = rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) }).toString('latin1');
  const heads = [call.replaceAll('\r\n', '\n'), call.replace('\r\nx-api-key', '\nx-api-key'), call.replace('x-api-key:', 'x api-key:'), call.replace('\r\nmcp-method', '\rmcp-method')];
  for (const head of heads) {
    const t0 = Date.now();
    const x = await exchange(port, [Buffer.from(head, 'latin1')], 1);
    assert.deepEqual(x.responses, ['HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'], JSON.stringify(head.slice(0, 80)));
    assert.ok(x.closed, 'the connection closed');
    assert.ok(Date.now() - t0 < 1000, `answered after ${Date.now() - t0} ms`);
  }
});

test('pipelined requests are answered in order, REST and a notification among them', async () => {
  const port = http.address.port;
  const specs: RequestSpec[] = [
    { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) },
    { headers: callHeaders('tools/call', 'query_graph'), body: callBody(2, 'query_graph', { question: fnLabel }) },
    { headers: callHeaders('tools/call', 'find_callers'), body: callBody(undefined, 'find_callers', {}) },
    { headers: callHeaders('tools/call', 'affected'), body: callBody(3, 'affected', { label: fnLabel, depth: 2 }) },
    { method: 'GET', path: '/api/stats', headers: [['x-api-key', KEY]], noLength: true },
    { headers: callHeaders('tools/call', 'find_callers'), body: callBody(4, 'find_callers', { label: fnLabel }) },
  ];
  const x = await exchange(port, [Buffer.concat(specs.map((s) => rawRequest(port, s)))], specs.length);
  // One at a time on fresh connections: the answers each request gets alone.
  const alone = await Promise.all(specs.map((s) => exchange(port, [rawRequest(port, s)], 1)));
  assert.equal(x.responses.length, specs.length, 'every pipelined request answered');
  assert.deepEqual(x.responses, alone.map((a) => a.responses[0]));
});

test('200 pipelined calls in one write (past the 64 a connection may queue) are all answered, in order', async () => {
  const port = http.address.port;
  const reqs = Array.from({ length: 200 }, (_, i) => rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(i + 1, 'find_callers', { label: fnLabel }) }));
  const x = await exchange(port, [Buffer.concat(reqs)], reqs.length);
  assert.equal(x.responses.length, 200, 'every call answered');
  const ids = x.responses.map((r) => (JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4)) as { id: number }).id);
  assert.deepEqual(ids, Array.from({ length: 200 }, (_, i) => i + 1));
});

test('a client that half-closes after its request gets the reply, then the connection closes', async () => {
  const port = http.address.port;
  const sock = connect(port, '127.0.0.1');
  let text = '';
  sock.on('data', (d: Buffer) => (text += d.toString('utf8')));
  sock.on('error', () => {});
  const closed = new Promise<void>((r) => sock.once('close', () => r()));
  await new Promise<void>((r) => sock.once('connect', () => r()));
  sock.end(rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) }));
  const timer = setTimeout(() => sock.destroy(), 5000);
  await closed;
  clearTimeout(timer);
  assert.match(text, /^HTTP\/1\.1 200 OK\r\n/);
  assert.equal(splitResponses(Buffer.from(text), true).length, 1, 'one complete reply before the close');
});

test('two pipelined calls split at every byte boundary get the same replies', async () => {
  const port = http.address.port;
  const stream = Buffer.concat([
    rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) }),
    rawRequest(port, { headers: callHeaders('tools/call', 'get_node'), body: callBody(2, 'get_node', { label: 'ñ' + fnLabel }) }),
  ]);
  const whole = await exchange(port, [stream], 2);
  assert.equal(whole.responses.length, 2, 'both answered');
  assert.match(whole.responses[0]!, /^HTTP\/1\.1 200 OK/);
  const cuts = Array.from({ length: stream.length - 1 }, (_, i) => i + 1);
  // 16 connections at a time; each writes its two pieces with a pause between them
  for (let i = 0; i < cuts.length; i += 16) {
    const results = await Promise.all(cuts.slice(i, i + 16).map((k) => exchange(port, [stream.subarray(0, k), stream.subarray(k)], 2, 2).then((r) => ({ k, r }))));
    for (const { k, r } of results) assert.deepEqual(r.responses, whole.responses, `cut at byte ${k}`);
  }
});

test('a body sent byte by byte holds up no one and is answered when complete', async () => {
  const port = http.address.port;
  const req = rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) });
  const headEnd = req.indexOf('\r\n\r\n') + 4;
  const dribbled = exchange(port, [req.subarray(0, headEnd + 3), ...Array.from(req.subarray(headEnd + 3), (b) => Buffer.from([b]))], 1, 1);
  const t0 = Date.now();
  const other = await exchange(port, [req], 1);
  assert.ok(Date.now() - t0 < 2000, `another client waited ${Date.now() - t0} ms`);
  const slowOne = await dribbled;
  assert.deepEqual(slowOne.responses, other.responses);
});

test('a head or body that does not complete in time gets 408 and the connection closes; an idle connection closes', async () => {
  const port = timed.address.port;
  const t0 = Date.now();
  const head = await exchange(port, [Buffer.from('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nx-a')], 1);
  assert.ok(head.closed, 'the connection was closed');
  assert.match(head.responses[0] ?? '', /^HTTP\/1\.1 408 Request Timeout\r\nConnection: close\r\n\r\n$/);
  assert.ok(Date.now() - t0 < 3000, `closed after ${Date.now() - t0} ms`);
  const body = await exchange(port, [rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', {}) }).subarray(0, -3)], 1);
  assert.ok(body.closed, 'the connection with a partial body was closed');
  assert.match(body.responses[0] ?? '', /^HTTP\/1\.1 408 /);
  // after an answer, an idle keep-alive connection closes after keepAliveTimeout (1 s here), without a 408
  const t1 = Date.now();
  const idle = await exchange(port, [rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(2, 'find_callers', {}) })], 2);
  assert.ok(idle.closed, 'the idle connection was closed');
  assert.equal(idle.responses.length, 1, 'one reply, no 408');
  assert.match(idle.responses[0]!, /\r\nKeep-Alive: timeout=1\r\n/);
  assert.ok(Date.now() - t1 >= 1000 && Date.now() - t1 < 4000, `closed after ${Date.now() - t1} ms`);
});

test('subscriptions/listen streams its ack; a call on another connection is answered meanwhile', async () => {
  const port = http.address.port;
  const sock = connect(port, '127.0.0.1');
  let text = '';
  sock.on('data', (d: Buffer) => (text += d.toString('utf8')));
  sock.on('error', () => {});
  await new Promise<void>((r) => sock.once('connect', () => r()));
  sock.write(rawRequest(port, { headers: [...callHeaders('subscriptions/listen'), ['accept', 'text/event-stream']], body: JSON.stringify({ jsonrpc: '2.0', id: 'L', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['synaptic://*'] }, _meta: META } }) }));
  const deadline = Date.now() + 5000;
  while (!text.includes('event: message') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.match(text, /^HTTP\/1\.1 200 OK\r\ncontent-type: text\/event-stream/);
  assert.match(text, /"io.modelcontextprotocol\/subscriptionId":"L"/);
  const call = await exchange(port, [rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(1, 'find_callers', { label: fnLabel }) })], 1);
  assert.match(call.responses[0] ?? '', /^HTTP\/1\.1 200 OK/);
  sock.destroy();
});

test('a connection with 16 requests in flight is read no further until half are answered; all are answered in order', async () => {
  const port = held.address.port;
  const count = 2000;
  const stream = Buffer.concat(Array.from({ length: count }, (_, i) => rawRequest(port, { headers: callHeaders('tools/call', 'find_callers'), body: callBody(i + 1, 'find_callers', { label: fnLabel }) })));
  const perRead = Math.ceil((64 * 1024) / (stream.length / count));
  const sock = connect(port, '127.0.0.1');
  const parts: Buffer[] = [];
  sock.on('data', (d: Buffer) => parts.push(d));
  sock.on('error', () => {});
  await new Promise<void>((r) => sock.once('connect', () => r()));
  sock.write(stream);
  // Wait until the server stops taking requests (no new held call for 300 ms).
  let seen = -1;
  for (let waited = 0; waited < 10_000 && holding.length !== seen; waited += 300) {
    seen = holding.length;
    await new Promise((r) => setTimeout(r, 300));
  }
  assert.ok(holding.length >= 16, `the first 16 requests reached the handler (${holding.length})`);
  assert.ok(holding.length <= 16 + perRead, `${holding.length} requests in flight: at most the limit and one read (${perRead}) beyond it`);
  assert.ok(held.pipeliningPauses >= 1, 'reading was paused');
  // Answer everything as it comes: every request is read and answered, in order.
  const deadline = Date.now() + 20_000;
  while (splitResponses(Buffer.concat(parts), false).length < count && Date.now() < deadline) {
    for (const release of holding.splice(0)) release();
    await new Promise((r) => setTimeout(r, 10));
  }
  sock.destroy();
  const ids = splitResponses(Buffer.concat(parts), false).map((r) => (JSON.parse(r.slice(r.indexOf('\r\n\r\n') + 4)) as { id: number }).id);
  assert.deepEqual(ids, Array.from({ length: count }, (_, i) => i + 1));
});
