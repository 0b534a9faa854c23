// The Mesh module over the SQLite store, in this process: two Mesh objects are two sessions sharing
// one mesh.db (as two servers would), each with its own connection.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { InboxFullError, NameTakenError, NotRegisteredError, UnknownPeerError } from '../../src/mesh/errors.ts';
import { INBOX_CAP, MAX_MESSAGE_BYTES } from '../../src/mesh/limits.ts';
import { Mesh } from '../../src/mesh/mesh.ts';
import { SqliteMeshStore } from '../../src/mesh/sqlite-store.ts';

let dir: string;
const open: Array<{ mesh: Mesh; store: SqliteMeshStore }> = [];

function session(options: { pid?: number; leaseMs?: number; now?: () => number } = {}): Mesh {
  const store = SqliteMeshStore.open({ dir });
  const mesh = new Mesh({ store, ...options });
  open.push({ mesh, store });
  return mesh;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-mesh-'));
});
afterEach(async () => {
  for (const { mesh, store } of open.splice(0)) {
    await mesh.close();
    await store.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

test('register() keeps a name unique per project and releases it on unregister', async () => {
  const a = session();
  const b = session();
  await a.register('/p', 'alice');
  await assert.rejects(b.register('/p', 'alice'), NameTakenError);
  await b.register('/q', 'alice'); // another project: another namespace
  await a.unregister();
  const c = session();
  await c.register('/p', 'alice');
  assert.deepEqual((await c.peers()).agents.map((x) => x.name), ['alice']);
});

test('register() takes over a name whose holder process is gone, or whose lease lapsed', async () => {
  const dead = session({ pid: 2 ** 22 + 12345 }); // no such process
  await dead.register('/p', 'bob');
  const next = session();
  await next.register('/p', 'bob');
  let clock = 1_000_000;
  const lapsing = session({ leaseMs: 1000, now: () => clock });
  await lapsing.register('/p', 'carol');
  const other = session({ now: () => clock });
  await assert.rejects(other.register('/p', 'carol'), NameTakenError);
  clock += 1001;
  await other.register('/p', 'carol');
});

test('send() refuses an unknown peer, an oversized message and a full inbox, with the cap named', async () => {
  const a = session();
  const b = session();
  await assert.rejects(a.send(['x'], 'hi'), NotRegisteredError);
  await a.register('/p', 'a');
  await b.register('/p', 'b');
  await assert.rejects(a.send(['nobody'], 'hi'), (e: Error) => e instanceof UnknownPeerError && /nobody/.test(e.message));
  await assert.rejects(a.send(['b'], 'x'.repeat(MAX_MESSAGE_BYTES + 1)), (e: Error) => e instanceof RangeError && e.message.includes(String(MAX_MESSAGE_BYTES)));
  for (let i = 0; i < INBOX_CAP; i++) await a.send(['b'], `m${i}`);
  await assert.rejects(a.send(['b'], 'one more'), (e: Error) => e instanceof InboxFullError && e.message.includes(String(INBOX_CAP)));
  const { messages } = await b.inbox(5);
  assert.deepEqual(await b.ack(messages.map((m) => m.id)), messages.map((m) => m.id));
  await a.send(['b'], 'fits again');
});

test('inbox() is at-least-once: unacknowledged messages come back to the next session under the name, marked redelivered', async () => {
  const a = session();
  const b1 = session();
  await a.register('/p', 'a');
  await b1.register('/p', 'b');
  await a.send(['b'], 'first');
  await a.send(['b'], 'second');
  const got = await b1.inbox(10);
  assert.deepEqual(got.messages.map((m) => [m.body, m.from, m.redelivered]), [['first', 'a', false], ['second', 'a', false]]);
  await b1.ack([got.messages[0]!.id]);
  await b1.unregister();
  const b2 = session();
  await b2.register('/p', 'b');
  const again = await b2.inbox(10, true);
  assert.deepEqual(again.messages.map((m) => [m.body, m.redelivered]), [['second', true]]);
  assert.equal(again.pending, 1);
});

test('publish() reaches subscribers of the channel but the sender; watch() delivers state changes', async () => {
  const [a, b, c] = [session(), session(), session()];
  await a.register('/p', 'a');
  await b.register('/p', 'b');
  await c.register('/p', 'c');
  await b.subscribe(['builds'], true);
  await a.subscribe(['builds'], true);
  const sent = await a.publish('builds', 'green');
  assert.deepEqual(sent.delivered, ['b']);
  assert.deepEqual(await c.watch(['a'], true), ['a']);
  await a.status('working', 'the parser');
  const { messages } = await c.inbox(10);
  assert.deepEqual(messages.map((m) => [m.kind, m.channel, m.body]), [['status', '@a', 'working: the parser']]);
  const peers = await c.peers();
  assert.deepEqual(peers.agents.map((p) => [p.name, p.state, p.detail]), [['a', 'working', 'the parser'], ['b', 'idle', ''], ['c', 'idle', '']]);
});

test('claim() gives each work item to one agent, however many race for it', async () => {
  const agents = [session(), session(), session(), session()];
  for (const [i, m] of agents.entries()) await m.register('/p', `w${i}`);
  for (let i = 0; i < 20; i++) await agents[0]!.offer(`item ${i}`, '');
  const taken = new Map<number, string>();
  await Promise.all(
    agents.map(async (m, i) => {
      for (;;) {
        const got = await m.claim();
        if (!got) return;
        if (got.resumed) {
          await m.finish(got.work.id, 'done', '');
          continue;
        }
        assert.equal(taken.has(got.work.id), false, `item ${got.work.id} claimed twice`);
        taken.set(got.work.id, `w${i}`);
        await m.finish(got.work.id, 'done', 'ok');
      }
    }),
  );
  assert.equal(taken.size, 20);
  await assert.rejects(agents[1]!.finish([...taken.keys()][0]!, 'done', ''), /Cannot finish/);
});

test('wait() wakes on a send from another connection, returns an open item, times out and cancels', async () => {
  const a = session();
  const b = session();
  await a.register('/p', 'a');
  await b.register('/p', 'b');
  const parked = b.wait(5000);
  await new Promise((r) => setTimeout(r, 30));
  const t0 = performance.now();
  await a.send(['b'], 'wake');
  const got = await parked;
  assert.equal(got.kind, 'message');
  assert.ok(performance.now() - t0 < 500);
  // The message stays unacknowledged but is not handed to this session twice.
  assert.equal((await b.wait(50)).kind, 'timeout');
  await a.offer('fix the build', '');
  const work = await b.wait(1000);
  assert.equal(work.kind === 'work' && !work.claimed && work.work.title, 'fix the build');
  const claimed = await b.wait(1000, { claim: true });
  assert.equal(claimed.kind === 'work' && claimed.claimed && claimed.work.claimedBy, 'b');
  const ctl = new AbortController();
  const cancelled = b.wait(10_000, { signal: ctl.signal });
  setTimeout(() => ctl.abort(), 20);
  assert.equal((await cancelled).kind, 'cancelled');
});

test('a project never sees another project\'s messages, peers or work', async () => {
  const a = session();
  const b = session();
  await a.register('/p', 'same');
  await b.register('/q', 'same');
  await a.offer('p only', '');
  assert.deepEqual(await b.work(10), []);
  assert.deepEqual((await b.peers()).agents.map((x) => x.name), ['same']);
  const other = session();
  await other.register('/p', 'sender');
  await other.send(['same'], 'for p');
  assert.equal((await b.inbox(10)).messages.length, 0);
  assert.equal((await a.inbox(10)).messages.length, 1);
});

test('mesh.db migration 2: path-keyed projects become their portable key; two clones of one remote merge (messages, work kept; a name held in both goes to the later lease)', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { openDatabase } = await import('../../src/memory/open.ts');
  const { MESH_MIGRATIONS } = await import('../../src/mesh/schema.ts');
  const clone = (name: string) => {
    const root = join(dir, name);
    mkdirSync(join(root, '.git'), { recursive: true });
    writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:acme/app.git\n');
    return root;
  };
  const [laptop, desktop, plain] = [clone('laptop'), clone('desktop'), join(dir, 'plain')];
  const v1 = openDatabase(join(dir, 'mesh.db'), { migrations: MESH_MIGRATIONS.slice(0, 1), what: 'mesh database' });
  const far = Date.now() + 3_600_000;
  v1.prepare('INSERT INTO projects (id, key) VALUES (1, ?), (2, ?), (3, ?)').run(laptop, desktop, plain);
  const agent = v1.prepare("INSERT INTO agents VALUES (?, ?, ?, '', 'idle', '', ?, 0, 'h', 1)");
  agent.run(1, 'alice', 's1', far);
  agent.run(2, 'alice', 's2', far + 1); // the later lease keeps the name
  agent.run(2, 'bob', 's3', far);
  v1.prepare("INSERT INTO messages (project_id, recipient, sender, channel, kind, body, created) VALUES (2, 'alice', 'bob', '', 'direct', 'kept', 0)").run();
  v1.prepare("INSERT INTO work (project_id, title, body, posted_by, state, claimed_by, note, created, changed) VALUES (1, 'item', '', 'alice', 'open', '', '', 0, 0)").run();
  v1.close();
  const store = SqliteMeshStore.open({ dir });
  open.push({ mesh: new Mesh({ store }), store });
  assert.deepEqual(
    (await store.agents(laptop, Date.now())).map((a) => [a.name, a.session]),
    [['alice', 's2'], ['bob', 's3']],
  );
  assert.equal((await store.pending(desktop, 'alice')), 1);
  assert.deepEqual((await store.work(desktop, { limit: 5, done: false })).map((w) => w.title), ['item']);
  assert.equal((await store.agents(plain, Date.now())).length, 0, 'a folder without a remote keeps its path');
});
