import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { request } from 'undici';
import { CLI, startHttpServer, type HttpServer } from '../helpers/serve-http.ts';

// `synaptic serve --http` as a real child process, driven with undici: every status code of the
// transport, auth, the Host allowlist, legacy sessions, SSE subscriptions with a hot reload, REST,
// the ready file and the body limit.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'test-key-123';
const MODERN = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };

let work: string;
let graphJson: string;
const children: ChildProcess[] = [];

type Served = HttpServer;

async function serve(extra: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const s = await startHttpServer(join(work, `ready-${children.length}-${Date.now()}.json`), ['--graph', graphJson, ...extra], { SYNAPTIC_DATA_DIR: join(work, 'data'), ...env });
  children.push(s.child);
  return s;
}

function modernHeaders(method: string, name?: string): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': KEY, 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (name !== undefined) h['mcp-name'] = name;
  return h;
}

const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': KEY };

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any; headers: Record<string, string | string[] | undefined>; text: string }> {
  const res = await request(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.body.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, headers: res.headers, text };
}

/** Read SSE events from a streaming body until `stop` says so (or a timeout). */
async function readEvents(body: AsyncIterable<Buffer>, stop: (events: any[]) => boolean, timeoutMs = 15000): Promise<any[]> {
  const events: any[] = [];
  let buf = '';
  const timer = setTimeout(() => {}, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  try {
    for await (const chunk of body) {
      buf += chunk.toString('utf8');
      let idx: number;
      while ((idx = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, idx);
        buf = buf.slice(idx + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        if (data) events.push(JSON.parse(data));
      }
      if (stop(events) || Date.now() > deadline) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return events;
}

/** Rewrite graph.json with one more node (atomically), so the server hot-reloads. */
function touchGraph(tag: string): void {
  const doc = JSON.parse(readFileSync(graphJson, 'utf8'));
  doc.nodes.push({ id: `extra/${tag}.ts`, label: `${tag}.ts`, file_type: 'code', source_file: `extra/${tag}.ts`, source_location: 'L1', kind: 'file' });
  const tmp = graphJson + '.tmp';
  writeFileSync(tmp, JSON.stringify(doc));
  renameSync(tmp, graphJson);
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 'synaptic-http-'));
  cpSync(join(ROOT, 'test/fixtures/repo'), join(work, 'repo'), { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', join(work, 'repo')], { stdio: ['ignore', 'ignore', 'pipe'] });
  graphJson = join(work, 'repo/synaptic-out/graph.json');
});

after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('serve --http', () => {
  let s: Served;
  before(async () => {
    s = await serve(['--api-key', KEY]);
  });

  test('startup line on stderr, ready file (mode 0600) points at the live endpoint', async () => {
    const ready = join(work, 'mode-check.json');
    const t = await startHttpServer(ready, ['--graph', graphJson], { SYNAPTIC_DATA_DIR: join(work, 'data') });
    children.push(t.child);
    assert.equal(statSync(ready).mode & 0o777, 0o600);
    assert.match(s.stderr(), new RegExp(`\\[synaptic\\] MCP server on http://127\\.0\\.0\\.1:${s.port}/mcp`));
    const r = await post(s.url, modernHeaders('server/discover'), { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    assert.equal(r.status, 200);
    assert.ok(r.json.result.supportedVersions.includes('2025-11-25'));
  });

  test('API key: X-API-Key and Bearer (any case) pass; missing or wrong get 401', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } };
    const h = modernHeaders('tools/list');
    const { 'x-api-key': _, ...noKey } = h;
    assert.equal((await post(s.url, noKey, body)).status, 401);
    assert.equal((await post(s.url, { ...noKey, 'x-api-key': 'wrong' }, body)).status, 401);
    assert.equal((await post(s.url, { ...noKey, authorization: `bEaReR ${KEY}` }, body)).status, 200);
    assert.equal((await post(s.url, h, body)).status, 200);
    assert.equal((await request(`${s.base}/api/stats`)).statusCode, 401);
  });

  test('Host allowlist: loopback names with or without port pass; others get 403', async () => {
    const body = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: META } };
    for (const host of ['localhost', `localhost:${s.port}`, '127.0.0.1', `[::1]:${s.port}`]) {
      assert.equal((await post(s.url, { ...modernHeaders('ping'), host }, body)).status, 200, host);
    }
    assert.equal((await post(s.url, { ...modernHeaders('ping'), host: 'evil.example:80' }, body)).status, 403);
  });

  test('modern requests: routing headers must agree with the body (-32020, 400)', async () => {
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_callers', arguments: { label: 'splitPath' }, _meta: META } };
    const ok = await post(s.url, modernHeaders('tools/call', 'find_callers'), call);
    assert.equal(ok.status, 200);
    assert.equal(ok.json.result.resultType, 'complete');
    assert.match(ok.json.result.content[0].text, /caller/);
    for (const h of [modernHeaders('tools/call', 'get_node'), modernHeaders('tools/call'), modernHeaders('tools/list', 'find_callers'), { ...modernHeaders('tools/call', 'find_callers'), 'mcp-protocol-version': '2025-11-25' }]) {
      const r = await post(s.url, h, call);
      assert.equal(r.status, 400);
      assert.equal(r.json.error.code, -32020);
    }
    const read = { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'synaptic://stats', _meta: META } };
    assert.equal((await post(s.url, modernHeaders('resources/read', 'synaptic://stats'), read)).status, 200);
    assert.equal((await post(s.url, modernHeaders('resources/read', 'synaptic://report'), read)).json.error.code, -32020);
  });

  test('modern status codes: unknown method 404, bad params 400, unsupported version 400, notification 202, bad JSON 400', async () => {
    const unknown = await post(s.url, modernHeaders('nope/nothing'), { jsonrpc: '2.0', id: 4, method: 'nope/nothing', params: { _meta: META } });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, -32601);
    const badParams = await post(s.url, modernHeaders('resources/read', undefined), { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { _meta: META } });
    assert.equal(badParams.status, 400);
    const v = { 'io.modelcontextprotocol/protocolVersion': '2099-01-01', 'io.modelcontextprotocol/clientCapabilities': {} };
    const old = await post(s.url, { ...modernHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' }, { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: v } });
    assert.equal(old.status, 400);
    assert.equal(old.json.error.code, -32022);
    assert.ok(old.json.error.data.supported.includes(MODERN));
    const note = await post(s.url, modernHeaders('notifications/cancelled'), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: META } });
    assert.equal(note.status, 202);
    assert.equal(note.text, '');
    const bad = await post(s.url, modernHeaders('tools/list'), '{"jsonrpc": "2.0", "id": 1,');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error.code, -32700);
    assert.equal((await request(s.url, { method: 'GET', headers: modernHeaders('x') })).statusCode, 405);
    assert.equal((await request(s.url, { method: 'DELETE', headers: modernHeaders('x') })).statusCode, 405);
  });

  test('legacy sessions: initialize mints an id; unknown id 404; missing id tolerated; DELETE 204/404/400', async () => {
    const init = await post(s.url, LEGACY_HEADERS, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(init.status, 200);
    const sid = init.headers['mcp-session-id'] as string;
    assert.match(sid, /^[0-9a-f]{32}$/);
    assert.equal(init.json.result.capabilities.resources.subscribe, true);
    const listed = await post(s.url, { ...LEGACY_HEADERS, 'mcp-session-id': sid }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.equal(listed.status, 200);
    assert.ok(listed.json.result.tools.some((t: { name: string }) => t.name === 'find_callers'));
    assert.equal((await post(s.url, { ...LEGACY_HEADERS, 'mcp-session-id': 'f'.repeat(32) }, { jsonrpc: '2.0', id: 3, method: 'tools/list' })).status, 404);
    assert.equal((await post(s.url, LEGACY_HEADERS, { jsonrpc: '2.0', id: 4, method: 'ping' })).status, 200);
    assert.equal((await post(s.url, LEGACY_HEADERS, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
    assert.equal((await request(s.url, { method: 'GET', headers: LEGACY_HEADERS })).statusCode, 400);
    assert.equal((await request(s.url, { method: 'GET', headers: { ...LEGACY_HEADERS, 'mcp-session-id': 'a'.repeat(32) } })).statusCode, 404);
    assert.equal((await request(s.url, { method: 'DELETE', headers: LEGACY_HEADERS })).statusCode, 400);
    assert.equal((await request(s.url, { method: 'DELETE', headers: { ...LEGACY_HEADERS, 'mcp-session-id': 'a'.repeat(32) } })).statusCode, 404);
    assert.equal((await request(s.url, { method: 'DELETE', headers: { ...LEGACY_HEADERS, 'mcp-session-id': sid } })).statusCode, 204);
    assert.equal((await post(s.url, { ...LEGACY_HEADERS, 'mcp-session-id': sid }, { jsonrpc: '2.0', id: 5, method: 'tools/list' })).status, 404);
  });

  test('REST: stats, god nodes, node, query (400 without q), repos', async () => {
    const get = async (path: string) => {
      const res = await request(`${s.base}${path}`, { headers: { 'x-api-key': KEY } });
      return { status: res.statusCode, json: (await res.body.json()) as any };
    };
    const stats = await get('/api/stats');
    assert.equal(stats.status, 200);
    assert.match(stats.json.text, /^Graph: \d+ nodes/);
    assert.equal((await get('/api/god-nodes?top_n=3')).status, 200);
    const node = await get('/api/node/Router');
    assert.equal(node.status, 200);
    assert.match(node.json.text, /Router/);
    assert.equal((await get('/api/query')).status, 400);
    const q = await get('/api/query?q=router%20match&token_budget=300');
    assert.equal(q.status, 200);
    assert.match(q.json.text, /match/i);
    assert.equal((await get('/api/repos')).status, 200);
    assert.equal((await get('/api/nothing')).status, 404);
  });

  test('a body over 4 MB is refused with 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META, pad: 'x'.repeat(4 * 1024 * 1024 + 10) } });
    const r = await post(s.url, modernHeaders('tools/list'), big);
    assert.equal(r.status, 413);
  });

  test('a client sending its body byte by byte does not hold up others', async () => {
    const sock = connect(s.port, '127.0.0.1');
    sock.on('error', () => {});
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } });
    sock.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\ncontent-type: application/json\r\nx-api-key: ${KEY}\r\nmcp-protocol-version: ${MODERN}\r\nmcp-method: tools/list\r\ncontent-length: ${body.length}\r\n\r\n`);
    sock.write(body.slice(0, 5));
    const t0 = Date.now();
    const r = await post(s.url, modernHeaders('tools/list'), { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    assert.equal(r.status, 200);
    assert.ok(Date.now() - t0 < 2000, 'the other request was held up');
    sock.destroy();
  });
});

describe('serve --http and a client that never reads', () => {
  test('40,000 pipelined calls whose answers are never read leave the server memory bounded', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
    const s = await serve(['--api-key', KEY]);
    const rssMb = () => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${s.child.pid}/status`, 'utf8'))?.[1]) / 1024;
    // Answers of a few KB each (40,000 of them would be over 100 MB if the server kept queueing them).
    const call = (id: number) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'query_graph', arguments: { question: 'router match handler path', token_budget: 2000 }, _meta: META } });
      return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\ncontent-type: application/json\r\nx-api-key: ${KEY}\r\nmcp-protocol-version: ${MODERN}\r\nmcp-method: tools/call\r\nmcp-name: query_graph\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const one = await post(s.url, modernHeaders('tools/call', 'query_graph'), JSON.parse(call(0).slice(call(0).indexOf('\r\n\r\n') + 4)));
    assert.equal(one.status, 200);
    assert.ok(one.text.length > 2000, `an answer is ${one.text.length} bytes`);
    const start = rssMb();
    let peak = start;
    const sock = connect(s.port, '127.0.0.1');
    sock.on('error', () => {});
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.pause(); // never read
    let sent = 0;
    let stalled = false;
    const deadline = Date.now() + 60_000;
    while (sent < 40_000 && Date.now() < deadline) {
      if (!sock.write(call(++sent))) {
        // The server reads on while it has room; once it stops, the write buffer never drains.
        const drained = await new Promise<boolean>((r) => {
          const timer = setTimeout(() => r(false), 2000);
          sock.once('drain', () => {
            clearTimeout(timer);
            r(true);
          });
        });
        peak = Math.max(peak, rssMb());
        if (!drained) {
          stalled = true;
          break;
        }
      }
      if (sent % 1000 === 0) peak = Math.max(peak, rssMb());
    }
    await new Promise((r) => setTimeout(r, 1000));
    peak = Math.max(peak, rssMb());
    sock.destroy();
    assert.ok(peak - start < 100, `server RSS ${start.toFixed(0)} MB -> peak ${peak.toFixed(0)} MB after ${sent} calls (stopped reading: ${stalled})`);
    // and it still answers others
    assert.equal((await post(s.url, modernHeaders('tools/list'), { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } })).status, 200);
  });
});

describe('serve --http subscriptions', () => {
  test('modern subscriptions/listen: ack first, then resources/updated on a hot reload', async () => {
    const s = await serve(['--api-key', KEY]);
    const res = await request(s.url, {
      method: 'POST',
      headers: modernHeaders('subscriptions/listen'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 'sub-1', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['synaptic://stats'] }, _meta: META } }),
    });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    let touched = false;
    const events = await readEvents(res.body, (ev) => {
      if (ev.length === 1 && !touched) {
        touched = true;
        touchGraph('modern');
      }
      return ev.some((e) => e.method === 'notifications/resources/updated');
    });
    assert.equal(events[0].method, 'notifications/subscriptions/acknowledged');
    assert.equal(events[0].params._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    const update = events.find((e) => e.method === 'notifications/resources/updated');
    assert.equal(update.params.uri, 'synaptic://stats');
    assert.equal(update.params._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    res.body.destroy();
  });

  test('legacy resources/subscribe + GET stream receives the update', async () => {
    const s = await serve(['--api-key', KEY]);
    const init = await post(s.url, LEGACY_HEADERS, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const sid = init.headers['mcp-session-id'] as string;
    const h = { ...LEGACY_HEADERS, 'mcp-session-id': sid };
    assert.deepEqual((await post(s.url, h, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'synaptic://god-nodes' } })).json.result, {});
    const stream = await request(s.url, { method: 'GET', headers: h });
    assert.equal(stream.statusCode, 200);
    setTimeout(() => touchGraph('legacy'), 300);
    const events = await readEvents(stream.body, (ev) => ev.some((e) => e.method === 'notifications/resources/updated'));
    assert.equal(events.find((e) => e.method === 'notifications/resources/updated').params.uri, 'synaptic://god-nodes');
    stream.body.destroy();
  });
});

describe('serve --http options', () => {
  test('SYNAPTIC_API_KEY applies when no flag is given; the flag wins; blank disables', async () => {
    const envOnly = await serve([], { SYNAPTIC_API_KEY: 'from-env' });
    assert.equal((await request(`${envOnly.base}/api/stats`)).statusCode, 401);
    assert.equal((await request(`${envOnly.base}/api/stats`, { headers: { 'x-api-key': 'from-env' } })).statusCode, 200);
    const flag = await serve(['--api-key', 'from-flag'], { SYNAPTIC_API_KEY: 'from-env' });
    assert.equal((await request(`${flag.base}/api/stats`, { headers: { 'x-api-key': 'from-env' } })).statusCode, 401);
    assert.equal((await request(`${flag.base}/api/stats`, { headers: { 'x-api-key': 'from-flag' } })).statusCode, 200);
    const blank = await serve(['--api-key', '  '], { SYNAPTIC_API_KEY: '' });
    assert.equal((await request(`${blank.base}/api/stats`)).statusCode, 200);
  });

  test('--ready-file is never overwritten and needs an existing parent (exit 2)', () => {
    const existing = join(work, 'exists.json');
    writeFileSync(existing, 'keep');
    for (const [path, why] of [[existing, /already exists/], [join(work, 'missing-dir/ready.json'), /parent directory does not exist/]] as const) {
      let code = 0;
      let stderr = '';
      try {
        execFileSync(process.execPath, [CLI, 'serve', '--graph', graphJson, '--http', '127.0.0.1:0', '--ready-file', path], { stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (err) {
        code = (err as { status: number }).status;
        stderr = String((err as { stderr: Buffer }).stderr);
      }
      assert.equal(code, 2);
      assert.match(stderr, why);
    }
    assert.equal(readFileSync(existing, 'utf8'), 'keep');
  });

  test('--max-sessions caps legacy sessions (the least recently used goes); a bad value or no --http exits 2', async () => {
    const m = await serve(['--api-key', KEY, '--max-sessions', '2']);
    const init = async () => (await post(m.url, LEGACY_HEADERS, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })).headers['mcp-session-id'] as string;
    const ping = async (sid: string) => (await post(m.url, { ...LEGACY_HEADERS, 'mcp-session-id': sid }, { jsonrpc: '2.0', id: 2, method: 'ping' })).status;
    const [a, b] = [await init(), await init()];
    assert.equal(await ping(a), 200);
    const c = await init();
    assert.deepEqual([await ping(a), await ping(b), await ping(c)], [200, 404, 200]);
    for (const [args, why] of [[['--http', '127.0.0.1:0', '--max-sessions', '0'], /--max-sessions must be a whole number/], [['--max-sessions', '5'], /--max-sessions requires --http/]] as const) {
      const r = spawnSync(process.execPath, [CLI, 'serve', '--graph', graphJson, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 2);
      assert.match(r.stderr, why);
    }
  });

  test('a wildcard bind without a key warns on stderr', async () => {
    const ready = join(work, 'wild-ready.json');
    const child = spawn(process.execPath, [CLI, 'serve', '--graph', graphJson, '--http', '0.0.0.0:0', '--ready-file', ready], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(work, 'data') } });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d));
    const deadline = Date.now() + 20000;
    while (!/MCP server on/.test(err) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(err, /warning: serving on all interfaces/);
  });
});
