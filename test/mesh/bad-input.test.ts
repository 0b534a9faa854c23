// Bad input to the mesh end to end, on each backend: SDK clients (modern era) over stdio to real
// `synaptic serve` children of one project, on SQLite (mesh.db) and in team mode on PostgreSQL (a
// throwaway cluster). A name already taken, an unknown peer, an oversized message, a full inbox, a
// worker command that does not exist, a worker that hangs: each a clear error or report, nothing half
// done, and the server keeps serving. On PostgreSQL also the database going away mid-call (an
// immediate stop under a parked mesh_wait): calls meanwhile are clear errors for mesh and memory tools,
// graph tools answer, the parked wait survives (it re-listens) and wakes when the database is back.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { INBOX_CAP, MAX_MESSAGE_BYTES } from '../../src/mesh/limits.ts';
import { setSwitch, setWorkerCommand } from '../../src/skills/settings.ts';
import { emptyGraph } from '../memory/mcp-child.ts';
import { clusterForFile } from '../helpers/pg-cluster.ts';
import { meshServeArgs, sandbox, until, type Sandbox } from './helpers.ts';

const pg = clusterForFile();
const skipPg = pg.skip;

interface Called {
  isError: boolean;
  text: string;
  data: Record<string, unknown>;
}

/** One agent session: an SDK client on its own `synaptic serve` stdio child. */
async function session(sb: Sandbox): Promise<{ call(name: string, args?: Record<string, unknown>): Promise<Called>; ok(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>; close(): Promise<void> }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: meshServeArgs(sb.project), env: sb.env, cwd: sb.project, stderr: 'pipe' });
  const client = new Client({ name: 'mesh-bad-input', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}): Promise<Called> => {
    const r = (await client.callTool({ name, arguments: args }, { timeout: 180_000 })) as { isError?: boolean; content: Array<{ text?: string }>; structuredContent?: Record<string, unknown> };
    return { isError: r.isError === true, text: r.content.map((c) => c.text ?? '').join('\n'), data: r.structuredContent ?? {} };
  };
  return {
    call,
    async ok(name, args) {
      const r = await call(name, args);
      assert.equal(r.isError, false, `${name}: ${r.text}`);
      return r.data;
    },
    close: () => client.close(),
  };
}

function setup(env: Record<string, string>): Sandbox {
  const sb = sandbox(env);
  emptyGraph(join(sb.project, 'synaptic-out')); // the graph meshServeArgs serves: graph tools answer
  setSwitch('mesh', true, sb.env);
  setSwitch('workers', true, sb.env);
  const node = process.execPath;
  setWorkerCommand('missing', { command: [join(sb.base, 'no-such-command')], limitSeconds: 600 }, sb.env);
  setWorkerCommand('hang', { command: [node, '-e', 'setInterval(() => {}, 1000)'], limitSeconds: 1 }, sb.env);
  return sb;
}

const backends = [
  { name: 'sqlite', skip: false as string | false, env: (): Record<string, string> => ({}) },
  { name: 'postgres', skip: skipPg ?? false, env: (): Record<string, string> => ({ SYNAPTIC_DATABASE_URL: pg.url('meshbad') }) },
];

for (const backend of backends) {
  describe(`mesh bad input over stdio: ${backend.name}`, { skip: backend.skip }, () => {
    test('a name taken, an unknown peer, an oversized message, a full inbox: clear errors naming the cap, nothing sent', async () => {
      const sb = setup(backend.env());
      const [a, b] = await Promise.all([session(sb), session(sb)]);
      try {
        await a.ok('mesh_register', { name: 'alice' });
        const taken = await b.call('mesh_register', { name: 'alice' });
        assert.equal(taken.isError, true);
        assert.match(taken.text, /Cannot register "alice": the name is held by another live session .*pick another name/);
        await b.ok('mesh_register', { name: 'bob' });

        const unknown = await a.call('mesh_send', { to: ['bob', 'nobody'], body: 'hi' });
        assert.equal(unknown.isError, true);
        assert.match(unknown.text, /Cannot send to "nobody": no agent of this project is registered under that name/);
        const big = await a.call('mesh_send', { to: 'bob', body: 'é'.repeat(MAX_MESSAGE_BYTES / 2 + 1) }); // 2 bytes each: over the cap in bytes, not characters
        assert.equal(big.isError, true);
        assert.match(big.text, new RegExp(`over the ${MAX_MESSAGE_BYTES}-byte cap`));
        assert.equal((await b.ok('mesh_inbox')).pending, 0, 'neither refused send delivered anything (not even to bob)');

        // 4 at a time: a server's pool holds 4 connections to the team database.
        for (let i = 0; i < INBOX_CAP; i += 4) await Promise.all(Array.from({ length: Math.min(4, INBOX_CAP - i) }, (_, k) => a.ok('mesh_send', { to: 'bob', body: `fill ${i + k}` })));
        const full = await a.call('mesh_send', { to: 'bob', body: 'over' });
        assert.equal(full.isError, true);
        assert.match(full.text, new RegExp(`its inbox is full \\(${INBOX_CAP} unacknowledged messages\\)`));
        const inbox = await b.ok('mesh_inbox', { limit: 1 });
        assert.equal(inbox.pending, INBOX_CAP, 'the refused message was not stored');
        await b.ok('mesh_ack', { ids: [(inbox.messages as Array<{ id: number }>)[0]!.id] });
        await a.ok('mesh_send', { to: 'bob', body: 'room again' }); // the cap counts unacknowledged messages
        assert.equal((await a.ok('graph_stats')).nodes ?? 0, 0, 'graph tools still answer');
      } finally {
        await Promise.all([a.close(), b.close()]);
        sb.cleanup();
      }
    });

    test('a worker command that does not exist is refused; a worker that hangs is killed at its limit and reported', async () => {
      const sb = setup(backend.env());
      const a = await session(sb);
      try {
        await a.ok('mesh_register', { name: 'boss' });
        const missing = await a.call('mesh_worker_start', { worker: 'missing' });
        assert.equal(missing.isError, true);
        assert.match(missing.text, /Cannot start worker "missing": its command ".*no-such-command" was not found/);
        assert.deepEqual((await a.ok('mesh_peers')).workers, [], 'nothing was started or recorded as running');

        const t0 = Date.now();
        const hang = (await a.ok('mesh_worker_start', { worker: 'hang' })).worker as { id: number };
        const ended = await a.ok('mesh_wait', { timeout_s: 20 });
        const message = ended.message as { kind: string; body: string };
        assert.equal(message.kind, 'worker');
        assert.match(message.body, new RegExp(`worker ${hang.id} \\(hang\\) was killed at its 1 s limit`));
        assert.ok(Date.now() - t0 < 10_000, `reported after ${Date.now() - t0} ms`);
        const listed = ((await a.ok('mesh_peers')).workers as Array<{ id: number; state: string }>).find((w) => w.id === hang.id);
        assert.equal(listed?.state, 'timed-out');
        await a.ok('graph_stats');
      } finally {
        await a.close();
        sb.cleanup();
      }
    });
  });
}

test('postgres: the database going away mid-call (an immediate stop under a parked mesh_wait): calls made meanwhile are clear errors, graph tools keep answering, the parked wait survives and wakes once the database is back', { skip: skipPg ?? false }, async () => {
  const sb = setup({ SYNAPTIC_DATABASE_URL: pg.url('meshdown') });
  const [a, b] = await Promise.all([session(sb), session(sb)]);
  try {
    await a.ok('mesh_register', { name: 'alice' });
    await b.ok('mesh_register', { name: 'bob' });
    await a.ok('remember', { content: 'Releases go out on Thursdays.', source: 'user' });
    const parked = b.call('mesh_wait', { timeout_s: 120 });
    await new Promise((r) => setTimeout(r, 300));
    pg.cluster().stop(); // pg_ctl stop -m immediate, mid-call for the parked wait
    try {
      const send = await a.call('mesh_send', { to: 'bob', body: 'lost?' });
      assert.equal(send.isError, true);
      assert.match(send.text, /Cannot send: the team database postgres:\/\/synaptic@127\.0\.0\.1:\d+\/meshdown\d+ is unreachable .*nothing was changed\. Graph tools keep working/);
      const recall = await a.call('recall', { query: 'Thursdays' });
      assert.equal(recall.isError, true);
      assert.match(recall.text, /Cannot recall: the team database .* is unreachable/);
      await a.ok('graph_stats');
      await b.ok('graph_stats'); // beside its parked call
    } finally {
      pg.cluster().start();
    }
    // Back: the names are still held (the outage was shorter than the lease), the parked wait wakes on
    // the first send, the refused one was never stored, memory recalls.
    await until(async () => !(await a.call('mesh_peers')).isError, 30_000, 'the mesh to come back');
    await a.ok('mesh_send', { to: 'bob', body: 'after the outage' });
    const got = await parked;
    assert.equal(got.isError, false, got.text);
    assert.equal((got.data.message as { body: string }).body, 'after the outage');
    assert.equal((await b.ok('mesh_inbox')).pending, 1, 'only that message: the refused send left nothing');
    assert.deepEqual(((await a.ok('recall', { query: 'Thursdays' })).memories as Array<{ body: string }>).map((m) => m.body), ['Releases go out on Thursdays.']);
  } finally {
    await Promise.all([a.close(), b.close()]);
    sb.cleanup();
  }
});
