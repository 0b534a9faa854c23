// The mesh under crashes (#23): agents in separate `synaptic serve` processes on one project stream
// messages to each other and race for work items while a killer SIGKILLs random servers and restarts
// them under the same name. Checked: no message whose send was answered is lost, none reaches the
// wrong project or the wrong agent, none comes back after its ack was answered, no work item goes to
// two agents. Then the wake latency of a parked mesh_wait.
//
// CI runs it scaled (4 agents, 600 messages, 3 kills: < 30 s). The full run:
//   MESH_RELIABILITY_FULL=1 node --import tsx --test test/mesh/reliability.test.ts
// (8 agents, 10,000 messages, a kill every ~1.5 s).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cli, MeshChild, percentile, sandbox } from './helpers.ts';

const FULL = process.env.MESH_RELIABILITY_FULL === '1';
const AGENTS = FULL ? 8 : 4;
const MESSAGES = FULL ? 10_000 : 600;
const WORK_ITEMS = FULL ? 400 : 40;
const KILL_EVERY_MS = FULL ? 1500 : 700;
const MAX_KILLS = FULL ? 1000 : 3;
const WAKE_SAMPLES = FULL ? 500 : 100;

const sb = sandbox();
const live = new Set<MeshChild>();
/** Set when the test ends however it ends, so no loop (or the killer) starts another server. */
let ended = false;
after(async () => {
  ended = true;
  await Promise.all([...live].map((c) => c.close()));
  sb.cleanup();
});

interface Agent {
  name: string;
  child: MeshChild;
  /** Bumped on each restart; a loop of an older generation stops. */
  generation: number;
}

async function start(project: string, name: string): Promise<MeshChild> {
  for (let attempt = 0; ; attempt++) {
    if (ended) throw new Error('the test ended');
    const child = new MeshChild(project, sb.env);
    live.add(child);
    try {
      await child.tool('mesh_register', { name });
      return child;
    } catch (err) {
      live.delete(child);
      await child.close();
      if (attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

const isGone = (err: unknown): boolean => /server exited|no response/.test(String(err));

test(`${AGENTS} agents, ${MESSAGES} messages, random SIGKILLs: 0 answered sends lost, 0 to the wrong project, 0 work items claimed twice`, async (t) => {
  assert.equal(cli(sb, ['settings', 'mesh', 'on']).status, 0);
  const other = join(sb.base, 'other-project');
  mkdirSync(join(other, '.git'), { recursive: true });

  const agents: Agent[] = [];
  for (let i = 0; i < AGENTS; i++) agents.push({ name: `a${i}`, child: await start(sb.project, `a${i}`), generation: 0 });
  // Another project's agent under a name this project uses too: it must never see this project's traffic.
  const decoy = await start(other, 'a0');
  for (let i = 0; i < WORK_ITEMS; i++) await agents[0]!.child.tool('mesh_offer', { title: `item ${i}` });

  const sentOk = new Map<string, string>(); // body -> intended recipient
  const received = new Map<string, number>(); // body -> times seen by its recipient
  const ackedIds = new Set<number>();
  let misdelivered = 0;
  let wrongProject = 0;
  let backAfterAck = 0;
  let inboxFull = 0;
  let peerAway = 0;
  const claims = new Map<number, Set<string>>();
  let seq = 0;
  let sent = 0;
  let kills = 0;
  let stop = false;

  const receive = async (name: string, child: MeshChild, messages: Array<{ id: number; body: string }>): Promise<void> => {
    for (const m of messages) {
      if (ackedIds.has(m.id)) backAfterAck++;
      const [project, , , to] = m.body.split(':');
      if (project !== 'P') wrongProject++;
      if (to !== name) misdelivered++;
      received.set(m.body, (received.get(m.body) ?? 0) + 1);
    }
    if (messages.length === 0) return;
    const ids = messages.map((m) => m.id);
    await child.tool('mesh_ack', { ids });
    for (const id of ids) ackedIds.add(id); // only once the ack was answered
  };

  const sender = async (agent: Agent, generation: number): Promise<void> => {
    while (!stop && !ended && agent.generation === generation && sent < MESSAGES) {
      const to = agents[(agents.indexOf(agent) + 1 + Math.floor(Math.random() * (AGENTS - 1))) % AGENTS]!.name;
      const body = `P:${agent.name}:${seq++}:${to}`;
      try {
        await agent.child.tool('mesh_send', { to, body });
        sentOk.set(body, to);
        sent++;
      } catch (err) {
        if (isGone(err)) return;
        // A peer restarting after its lease lapsed (a slow restart on a loaded machine) is away, not lost.
        if (/no agent of this project is registered/.test(String(err))) {
          peerAway++;
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (/inbox is full/.test(String(err))) {
          inboxFull++;
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        throw err;
      }
    }
  };

  const receiver = async (agent: Agent, generation: number): Promise<void> => {
    while (!stop && !ended && agent.generation === generation) {
      const child = agent.child;
      try {
        const got = await child.tool('mesh_wait', { timeout_s: 0.5 });
        if (got.result === 'message') {
          const { messages } = (await child.tool('mesh_inbox', { limit: 100 })) as { messages: Array<{ id: number; body: string }> };
          await receive(agent.name, child, messages);
        }
        if (Math.random() < 0.3) {
          const c = (await child.tool('mesh_claim')) as { work: { id: number } | null; resumed: boolean };
          if (c.work) {
            if (!c.resumed) claims.set(c.work.id, (claims.get(c.work.id) ?? new Set()).add(agent.name));
            await child.tool('mesh_finish', { id: c.work.id });
          }
        }
      } catch (err) {
        if (isGone(err)) return;
        throw err;
      }
    }
  };

  const decoyLoop = async (): Promise<void> => {
    let n = 0;
    while (!stop && !ended) {
      await decoy.tool('mesh_send', { to: 'a0', body: `Q:a0:${n++}:a0` });
      const { messages } = (await decoy.tool('mesh_inbox', { limit: 100 })) as { messages: Array<{ id: number; body: string }> };
      for (const m of messages) if (!m.body.startsWith('Q:')) wrongProject++;
      if (messages.length) await decoy.tool('mesh_ack', { ids: messages.map((m) => m.id) });
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  const run = (agent: Agent): Array<Promise<void>> => [sender(agent, agent.generation), receiver(agent, agent.generation)];
  const loops: Array<Promise<void>> = agents.flatMap(run);
  loops.push(decoyLoop());

  const killer = (async () => {
    while (!stop && !ended && kills < MAX_KILLS && sent < MESSAGES) {
      await new Promise((r) => setTimeout(r, KILL_EVERY_MS * (0.5 + Math.random())));
      if (sent >= MESSAGES) break;
      const victim = agents[Math.floor(Math.random() * AGENTS)]!;
      victim.generation++;
      live.delete(victim.child);
      await victim.child.kill();
      kills++;
      victim.child = await start(sb.project, victim.name); // at once: the old holder's process is gone
      loops.push(...run(victim));
    }
  })();

  const started = Date.now();
  let failed: unknown;
  void killer.catch((err: unknown) => (failed = err));
  // A server that cannot restart (or a loop that stopped) must fail the test, not hang it.
  const deadline = started + (FULL ? 1_800_000 : 120_000);
  while (sent < MESSAGES) {
    if (failed) throw failed;
    if (Date.now() > deadline) throw new Error(`only ${sent} of ${MESSAGES} sends answered in time; servers' stderr: ${agents.map((a) => a.child.stderr.slice(-300)).join(' | ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await killer;
  // Drain: every agent reads its inbox to the end; receivers are still running.
  for (const agent of agents) {
    for (;;) {
      const { messages, pending } = (await agent.child.tool('mesh_inbox', { limit: 100 })) as { messages: Array<{ id: number; body: string }>; pending: number };
      await receive(agent.name, agent.child, messages);
      if (pending <= messages.length) break;
    }
  }
  stop = true;
  await Promise.all(loops);
  // Whatever work is left, claim it now, so every item was claimed by someone.
  for (;;) {
    const c = (await agents[0]!.child.tool('mesh_claim')) as { work: { id: number } | null; resumed: boolean };
    if (!c.work) break;
    if (!c.resumed) claims.set(c.work.id, (claims.get(c.work.id) ?? new Set()).add(agents[0]!.name));
    await agents[0]!.child.tool('mesh_finish', { id: c.work.id });
  }
  const secs = (Date.now() - started) / 1000;

  const lost = [...sentOk.keys()].filter((b) => !received.has(b));
  const duplicates = [...received.values()].reduce((s, n) => s + n - 1, 0);
  const twice = [...claims.entries()].filter(([, who]) => who.size > 1);
  t.diagnostic(
    `${AGENTS} agents, ${sentOk.size} answered sends in ${secs.toFixed(1)} s, ${kills} SIGKILLs: lost ${lost.length}, wrong project ${wrongProject}, ` +
      `misdelivered ${misdelivered}, back after ack ${backAfterAck}, redelivered (at-least-once) ${duplicates}, inbox-full retries ${inboxFull}, peer-away retries ${peerAway}; ` +
      `work items ${claims.size}/${WORK_ITEMS} claimed, claimed twice ${twice.length}`,
  );
  assert.ok(kills >= 1, 'at least one server was killed mid-stream');
  assert.deepEqual(lost.slice(0, 5), [], `${lost.length} answered sends lost`);
  assert.equal(wrongProject, 0);
  assert.equal(misdelivered, 0);
  assert.equal(backAfterAck, 0);
  assert.deepEqual(twice, []);
  assert.equal(claims.size, WORK_ITEMS);

  // Wake latency: a parked mesh_wait in one process, a send from another.
  const [a, b] = [agents[0]!.child, agents[1]!.child];
  const fromCall: number[] = [];
  const fromAnswer: number[] = [];
  for (let i = 0; i < WAKE_SAMPLES; i++) {
    const parked = a.tool('mesh_wait', { timeout_s: 10 });
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
    const t0 = performance.now();
    let t1 = 0;
    const send = b.tool('mesh_send', { to: 'a0', body: `P:a1:wake${i}:a0` }).then(() => (t1 = performance.now()));
    const got = (await parked) as { message: { id: number } };
    const t2 = performance.now();
    await send;
    fromCall.push(t2 - t0);
    fromAnswer.push(Math.max(0, t2 - t1));
    await a.tool('mesh_ack', { ids: [got.message.id] });
  }
  t.diagnostic(
    `wait wake over ${WAKE_SAMPLES} sends: from the send call p50 ${percentile(fromCall, 50).toFixed(1)} / p99 ${percentile(fromCall, 99).toFixed(1)} ms; ` +
      `after the send's answer (committed) p50 ${percentile(fromAnswer, 50).toFixed(1)} / p99 ${percentile(fromAnswer, 99).toFixed(1)} ms`,
  );
  // The bound is 100 ms; this shared 2-core CI machine gets 3x that before the test fails.
  assert.ok(percentile(fromAnswer, 99) <= 300, `p99 ${percentile(fromAnswer, 99)} ms`);
});
