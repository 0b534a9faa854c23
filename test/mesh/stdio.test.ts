// The agent mesh end to end: real `synaptic serve` stdio children sharing one data directory, spoken
// to by the SDK clients (legacy and modern) and by raw modern requests.
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { INBOX_CAP, MAX_MESSAGE_BYTES } from '../../src/mesh/limits.ts';
import { MESH_TOOLS } from '../../src/mcp/tools/mesh/guidance.ts';
import { setSwitch, setWorkerCommand } from '../../src/skills/settings.ts';
import { cli, MeshChild, meshServeArgs, percentile, sandbox, until, type Sandbox } from './helpers.ts';

let sb: Sandbox;
const children: MeshChild[] = [];
const spawnChild = (project = sb.project): MeshChild => {
  const c = new MeshChild(project, sb.env);
  children.push(c);
  return c;
};
const settings = (...args: string[]): void => {
  const r = cli(sb, ['settings', ...args]);
  assert.equal(r.status, 0, r.stderr);
};

before(() => {
  sb = sandbox();
});
after(async () => {
  await Promise.all(children.map((c) => c.close()));
  sb.cleanup();
});

test('settings mesh on|off adds and withdraws the mesh tools and their guidance in running servers (legacy list_changed; modern tools/list and server/discover)', async () => {
  const legacy = new LegacyClient({ name: 'legacy-mesh', version: '1.0.0' });
  let changed = 0;
  legacy.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
  await legacy.connect(new LegacyStdio({ command: process.execPath, args: meshServeArgs(sb.project), env: sb.env, cwd: sb.project, stderr: 'pipe' }));
  const modern = spawnChild();
  try {
    const names = async () => (await legacy.listTools()).tools.map((t) => t.name);
    assert.deepEqual((await names()).filter((n) => n.startsWith('mesh_')), []);
    assert.doesNotMatch(legacy.getInstructions() ?? '', /mesh_/);
    assert.doesNotMatch(await modern.instructions(), /mesh_/);
    settings('mesh', 'on');
    await until(() => changed === 1, 10_000, 'tools/list_changed after mesh on');
    assert.deepEqual((await names()).filter((n) => n.startsWith('mesh_')), [...MESH_TOOLS]);
    assert.equal(MESH_TOOLS.length, 16);
    await until(async () => (await modern.toolNames()).includes('mesh_wait'), 10_000, 'modern tools/list with the mesh');
    // Tools and guidance agree on every look while the switch flips.
    for (const flip of [false, true]) {
      setSwitch('mesh', flip, sb.env); // what `settings mesh off|on` calls (the CLI ran above)
      for (let i = 0; i < 8; i++) {
        const [tools, guide] = await Promise.all([modern.toolNames(), modern.instructions()]);
        const guideNow = await modern.instructions();
        // A look at tools between two looks at the guidance agrees with one of them.
        assert.ok(tools.includes('mesh_register') === /mesh_register/.test(guide) || tools.includes('mesh_register') === /mesh_register/.test(guideNow), `${i}: tools and guidance disagree`);
        await new Promise((r) => setTimeout(r, 15));
      }
    }
    await until(() => changed === 3, 10_000, 'list_changed after off and on');
    assert.match(await modern.instructions(), /mesh_wait parks until a message or work item arrives/);
    // The legacy session keeps the instructions of its initialize, so the guidance comes with mesh_register.
    const reg = await legacy.callTool({ name: 'mesh_register', arguments: { name: 'legacy' } });
    assert.match(JSON.stringify(reg.content), /mesh_ack each message once handled/);
    const worker = (await legacy.listTools()).tools.find((t) => t.name === 'mesh_worker_start')!;
    assert.equal(worker.annotations?.openWorldHint, true, 'a tool that runs commands says so');
    assert.equal(worker.annotations?.readOnlyHint, false);
  } finally {
    await legacy.close();
  }
});

test('two server processes on one project exchange messages, channels, state and work; bad input gets clear errors', async () => {
  setSwitch('mesh', true, sb.env); // already on after the first test; this one may run alone
  const a = spawnChild();
  const b = spawnChild();
  await a.tool('mesh_register', { name: 'alice', role: 'planner' });
  assert.deepEqual((await b.tool('mesh_register', { name: 'bob' })).peers, ['alice']);
  await assert.rejects(a.tool('mesh_register', { name: 'bob' }), /Cannot register "bob": the name is held by another live session/);
  await assert.rejects(a.tool('mesh_send', { to: 'nobody', body: 'hi' }), /Cannot send to "nobody": no agent of this project is registered under that name/);
  await assert.rejects(a.tool('mesh_send', { to: 'bob', body: 'x'.repeat(MAX_MESSAGE_BYTES + 1) }), new RegExp(`over the ${MAX_MESSAGE_BYTES}-byte cap`));
  await assert.rejects(a.tool('mesh_register', { name: 'has space' }), /is not 1-64 letters/);

  // wait parks in one process and wakes on a send from the other.
  const lat: number[] = [];
  for (let i = 0; i < 30; i++) {
    const parked = b.tool('mesh_wait', { timeout_s: 10 });
    await new Promise((r) => setTimeout(r, 20));
    const t0 = performance.now();
    const sent = await a.tool('mesh_send', { to: 'bob', body: `ping ${i}` });
    const got = await parked;
    lat.push(performance.now() - t0);
    assert.equal(got.result, 'message');
    const message = got.message as { id: number; from: string; body: string };
    assert.deepEqual([message.from, message.body, message.id], ['alice', `ping ${i}`, (sent.ids as number[])[0]]);
    assert.deepEqual((await b.tool('mesh_ack', { ids: [message.id] })).acked, [message.id]);
  }
  console.log(`# wait wake (send call start -> wait answer, two processes): p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms`);
  assert.ok(percentile(lat, 99) < 1000, `p99 ${percentile(lat, 99)} ms`);

  await b.tool('mesh_subscribe', { channels: ['ci'] });
  assert.deepEqual((await a.tool('mesh_publish', { channel: 'ci', body: 'build green' })).delivered, ['bob']);
  await a.tool('mesh_watch', { peers: ['bob'] });
  await b.tool('mesh_status', { state: 'blocked', detail: 'review of #12' });
  const peers = await a.tool('mesh_peers');
  assert.deepEqual((peers.agents as Array<{ name: string; state: string; detail: string }>).map((p) => [p.name, p.state, p.detail]), [['alice', 'idle', ''], ['bob', 'blocked', 'review of #12']]);
  const aInbox = await a.tool('mesh_inbox');
  assert.deepEqual((aInbox.messages as Array<{ kind: string; body: string }>).map((m) => [m.kind, m.body]), [['status', 'blocked: review of #12']]);
  const bInbox = await b.tool('mesh_inbox');
  assert.deepEqual((bInbox.messages as Array<{ kind: string; channel: string; body: string }>).map((m) => [m.kind, m.channel, m.body]), [['channel', 'ci', 'build green']]);

  const offered = (await a.tool('mesh_offer', { title: 'fix the flaky test', body: 'test/x.test.ts' })).work as { id: number };
  const [cb, ca] = await Promise.all([b.tool('mesh_claim'), a.tool('mesh_claim')]);
  const winners = [cb, ca].filter((c) => c.work !== null);
  assert.equal(winners.length, 1, 'one agent gets the item');
  assert.equal((winners[0]!.work as { id: number }).id, offered.id);
  const winner = cb.work ? b : a;
  await assert.rejects((winner === a ? b : a).tool('mesh_finish', { id: offered.id }), /Cannot finish work item \d+: it is claimed by/);
  assert.equal(((await winner.tool('mesh_finish', { id: offered.id, note: 'fixed' })).work as { state: string }).state, 'done');

  // A full inbox refuses the next direct send, naming the cap.
  const burst: Array<Promise<unknown>> = [];
  const pending = (await b.tool('mesh_inbox', { limit: 1 })).pending as number;
  for (let i = pending; i < INBOX_CAP; i++) burst.push(a.tool('mesh_send', { to: 'bob', body: `fill ${i}` }));
  await Promise.all(burst);
  await assert.rejects(a.tool('mesh_send', { to: 'bob', body: 'over' }), new RegExp(`its inbox is full \\(${INBOX_CAP} unacknowledged messages\\)`));
});

test('another project\'s agents see none of this project\'s peers, messages or work', async () => {
  setSwitch('mesh', true, sb.env);
  const other = join(sb.base, 'other');
  mkdirSync(join(other, '.git'), { recursive: true });
  const o = spawnChild(other);
  await o.tool('mesh_register', { name: 'bob' }); // the same name, another project
  const peers = await o.tool('mesh_peers');
  assert.deepEqual((peers.agents as Array<{ name: string }>).map((p) => p.name), ['bob']);
  assert.equal((await o.tool('mesh_inbox')).pending, 0);
  assert.equal((await o.tool('mesh_claim')).work, null);
  await assert.rejects(o.tool('mesh_send', { to: 'alice', body: 'hi' }), /no agent of this project/);
});

test('mesh_wait is cancelled by the protocol\'s cancellation (SDK AbortSignal): it takes no message, and the server keeps serving', async () => {
  setSwitch('mesh', true, sb.env);
  const transport = new StdioClientTransport({ command: process.execPath, args: meshServeArgs(sb.project), env: sb.env, cwd: sb.project, stderr: 'pipe' });
  const client = new Client({ name: 'mesh-cancel', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  const sender = spawnChild();
  try {
    await client.callTool({ name: 'mesh_register', arguments: { name: 'carol' } });
    await sender.tool('mesh_register', { name: 'dave' });
    const ctl = new AbortController();
    const t0 = performance.now();
    const parked = client.callTool({ name: 'mesh_wait', arguments: { timeout_s: 30 } }, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 150);
    await assert.rejects(parked);
    assert.ok(performance.now() - t0 < 5000);
    await new Promise((r) => setTimeout(r, 100));
    await sender.tool('mesh_send', { to: 'carol', body: 'after the cancel' });
    // Had the cancelled wait kept running, it would have taken this message for an answer nobody reads.
    const got = (await client.callTool({ name: 'mesh_wait', arguments: { timeout_s: 5 } })).structuredContent as { result: string; message?: { body: string } };
    assert.deepEqual([got.result, got.message?.body], ['message', 'after the cancel']);
  } finally {
    await client.close();
  }
});

test('a name is released when its session ends or its server is SIGKILLed; unacknowledged messages come back to the next holder', async () => {
  setSwitch('mesh', true, sb.env);
  const a = spawnChild();
  const e1 = spawnChild();
  await a.tool('mesh_register', { name: 'sender' });
  await e1.tool('mesh_register', { name: 'erin' });
  await a.tool('mesh_send', { to: 'erin', body: 'keep me' });
  assert.equal(((await e1.tool('mesh_inbox')).messages as unknown[]).length, 1); // read, not acked
  await e1.kill();
  const e2 = spawnChild();
  await e2.tool('mesh_register', { name: 'erin' }); // at once: the holder's process is gone
  const again = (await e2.tool('mesh_inbox')).messages as Array<{ body: string; redelivered?: boolean }>;
  assert.deepEqual(again.map((m) => [m.body, m.redelivered]), [['keep me', true]]);
  await e2.close(); // a clean end unregisters
  await until(async () => !((await a.tool('mesh_peers')).agents as Array<{ name: string }>).some((p) => p.name === 'erin'), 5000, 'erin released');
});

test('workers: off until allowed; a missing command and a hang are reported; output is captured; stop and server exit kill them', async () => {
  setSwitch('mesh', true, sb.env);
  const a = spawnChild();
  await a.tool('mesh_register', { name: 'boss' });
  const node = process.execPath;
  settings('worker', 'echo', '--', node, '-e', 'console.log("worker says " + process.argv[1])', '{prompt}');
  // The CLI form is covered above; the rest are written directly (each CLI run costs a second here).
  setWorkerCommand('hang', { command: [node, '-e', 'setInterval(() => {}, 1000)'], limitSeconds: 1 }, sb.env);
  setWorkerCommand('sleeper', { command: [node, '-e', 'setInterval(() => {}, 1000)'], limitSeconds: 600 }, sb.env);
  setWorkerCommand('missing', { command: [join(sb.base, 'no-such-command')], limitSeconds: 600 }, sb.env);
  await assert.rejects(a.tool('mesh_worker_start', { worker: 'echo', prompt: 'hi' }), /starting workers is off \(the owner enables it with `synaptic settings workers on`\)/);
  setSwitch('workers', true, sb.env); // what `settings workers on` calls
  await assert.rejects(a.tool('mesh_worker_start', { worker: 'missing' }), /Cannot start worker "missing": its command ".*no-such-command" was not found/);
  await assert.rejects(a.tool('mesh_worker_start', { worker: 'nope' }), /no worker of that name is configured \(configured: echo, hang, sleeper, missing\)/);

  const echo = (await a.tool('mesh_worker_start', { worker: 'echo', prompt: 'hello mesh' })).worker as { id: number; log: string };
  const ended = await a.tool('mesh_wait', { timeout_s: 20 });
  const body = (ended.message as { kind: string; body: string }).body;
  assert.equal((ended.message as { kind: string }).kind, 'worker');
  assert.match(body, new RegExp(`worker ${echo.id} \\(echo\\) exited with code 0`));
  assert.match(body, /worker says hello mesh/);
  assert.match(readFileSync(echo.log, 'utf8'), /worker says hello mesh/);
  assert.ok(echo.log.startsWith(join(sb.data, 'mesh', 'workers')));

  const t0 = Date.now();
  const hang = (await a.tool('mesh_worker_start', { worker: 'hang' })).worker as { id: number };
  const killed = await a.tool('mesh_wait', { timeout_s: 20 });
  assert.match((killed.message as { body: string }).body, new RegExp(`worker ${hang.id} \\(hang\\) was killed at its 1 s limit`));
  assert.ok(Date.now() - t0 < 8000);
  const listed = ((await a.tool('mesh_peers')).workers as Array<{ id: number; state: string }>).find((w) => w.id === hang.id);
  assert.equal(listed?.state, 'timed-out');

  const s1 = (await a.tool('mesh_worker_start', { worker: 'sleeper' })).worker as { id: number };
  const pid1 = readPid(s1.id, sb);
  assert.equal(((await a.tool('mesh_worker_stop', { id: s1.id })).worker as { state: string }).state, 'stopped');
  assert.equal(alive(pid1), false, 'a stopped worker is gone');
  await a.tool('mesh_worker_start', { worker: 'sleeper' });
  const s2pid = readPid(undefined, sb);
  assert.equal(alive(s2pid), true);
  await a.close();
  await until(() => !alive(s2pid), 5000, 'the worker to end with its server');
  // A SIGKILLed server cannot stop its worker: the next registration on the machine does.
  const k = spawnChild();
  await k.tool('mesh_register', { name: 'doomed' });
  await k.tool('mesh_worker_start', { worker: 'sleeper' });
  const orphan = readPid(undefined, sb);
  await k.kill();
  assert.equal(alive(orphan), true, 'the worker outlived its SIGKILLed server');
  const n = spawnChild();
  await n.tool('mesh_register', { name: 'next' });
  await until(() => !alive(orphan), 5000, 'the orphaned worker to be reaped');
  assert.ok(((await n.tool('mesh_peers')).workers as Array<{ state: string }>).every((w) => w.state !== 'running'));
  assert.equal(existsSync(join(sb.data, 'mesh.db')), true);
});

/** The pid of worker `id` (else the newest running one), read from mesh.db as any process could. */
function readPid(id: number | undefined, s: Sandbox): number {
  const db = new Database(join(s.data, 'mesh.db'), { readonly: true });
  try {
    const row = (id === undefined ? db.prepare(`SELECT pid FROM workers WHERE state = 'running' ORDER BY id DESC LIMIT 1`).get() : db.prepare('SELECT pid FROM workers WHERE id = ?').get(id)) as { pid: number };
    return row.pid;
  } finally {
    db.close();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
