import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// MCP 2026-07-28 subscriptions/listen over stdio: the request stays open, an acknowledgement comes
// first, a hot reload sends notifications/resources/updated tagged with the listen id, and
// notifications/cancelled stops it.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let work: string;
let child: ChildProcess;
let graph: string;
const messages: any[] = [];

function send(message: unknown): void {
  child.stdin!.write(JSON.stringify(message) + '\n');
}

async function waitFor(pred: (m: any) => boolean, ms = 15000): Promise<any> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const hit = messages.find(pred);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out; saw ${JSON.stringify(messages).slice(0, 500)}`);
}

function touchGraph(tag: string): void {
  const doc = JSON.parse(readFileSync(graph, 'utf8'));
  doc.nodes.push({ id: `extra/${tag}.ts`, label: `${tag}.ts`, file_type: 'code', source_file: `extra/${tag}.ts`, source_location: 'L1', kind: 'file' });
  writeFileSync(graph + '.tmp', JSON.stringify(doc));
  renameSync(graph + '.tmp', graph);
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 'synaptic-stdio-sub-'));
  cpSync(join(ROOT, 'test/fixtures/repo'), join(work, 'repo'), { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', join(work, 'repo')], { stdio: 'ignore' });
  graph = join(work, 'repo/synaptic-out/graph.json');
  child = spawn(process.execPath, [CLI, 'serve', '--graph', graph, '--no-freshen'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, SYNAPTIC_DATA_DIR: join(work, 'data') } });
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      messages.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
});

after(() => {
  child?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

let nextId = 100;

/** Call a tool and wait for its answer. */
async function call(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const id = nextId++;
  send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } });
  return waitFor((m) => m.id === id);
}

/** Nodes of the served graph once a reload made it `want` (the swap notifies listeners before later answers). */
async function servedNodes(want: number): Promise<number> {
  let nodes = -1;
  for (let tries = 0; tries < 200 && nodes !== want; tries++) nodes = (await call('graph_stats')).result.structuredContent.nodes;
  return nodes;
}

const updatesFor = (listenId: string) =>
  messages.filter((m) => m.method === 'notifications/resources/updated' && m.params._meta['io.modelcontextprotocol/subscriptionId'] === listenId).length;

test('subscriptions/listen over stdio: ack, update on hot reload, stop on cancel', async () => {
  const startNodes = (await call('graph_stats')).result.structuredContent.nodes;
  send({ jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['synaptic://stats', 'synaptic://node/*'] }, _meta: META } });
  const ack = await waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
  assert.equal(ack.params._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1');
  assert.deepEqual(ack.params.notifications.resourceSubscriptions, ['synaptic://stats', 'synaptic://node/*']);
  // Other requests keep working while the listen request is open.
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
  await waitFor((m) => m.id === 2 && m.result?.tools);
  touchGraph('one');
  const update = await waitFor((m) => m.method === 'notifications/resources/updated');
  assert.equal(update.params.uri, 'synaptic://stats');
  assert.equal(update.params._meta['io.modelcontextprotocol/subscriptionId'], 'listen-1');
  assert.equal(await servedNodes(startNodes + 1), startNodes + 1);
  // Cancel listen-1, then open listen-2: lines are handled in order, so listen-2's acknowledgement
  // means the cancel was. The next reload notifies listen-2 and, were it still listening, listen-1
  // in the same turn: once the new graph answers, every update of that reload has been written.
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1', _meta: META } });
  send({ jsonrpc: '2.0', id: 'listen-2', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['synaptic://stats'] }, _meta: META } });
  await waitFor((m) => m.method === 'notifications/subscriptions/acknowledged' && m.params._meta['io.modelcontextprotocol/subscriptionId'] === 'listen-2');
  const before = updatesFor('listen-1');
  touchGraph('two');
  assert.equal(await servedNodes(startNodes + 2), startNodes + 2);
  assert.ok(updatesFor('listen-2') >= 1, 'the live listener heard the reload');
  assert.equal(updatesFor('listen-1'), before, 'the cancelled listener heard nothing');
  send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-2', _meta: META } });
});

test('subscriptions/listen with malformed params is -32602; with a bad version -32022', async () => {
  send({ jsonrpc: '2.0', id: 'bad-1', method: 'subscriptions/listen', params: { _meta: META } });
  assert.equal((await waitFor((m) => m.id === 'bad-1')).error.code, -32602);
  send({ jsonrpc: '2.0', id: 'bad-2', method: 'subscriptions/listen', params: { notifications: {}, _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
  assert.equal((await waitFor((m) => m.id === 'bad-2')).error.code, -32022);
});
