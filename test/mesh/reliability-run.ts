// The mesh under crashes (#23), shared by the test suite (test/mesh/reliability*.test.ts, scaled) and
// the full run (bench/mesh-reliability.bench.ts): agents in separate `synaptic serve` processes
// on one project stream messages to each other and race for work items while a killer SIGKILLs random
// servers mid-stream and restarts them under the same name. Counted: answered sends never received
// (lost), messages of another project or for another agent, messages back after their ack was
// answered, work items claimed by two agents. Then the wake latency of a parked mesh_wait in one
// process for a send from another. On SQLite every server shares the data dir's mesh.db; on PostgreSQL
// every server talks to one team database (a throwaway cluster the caller starts).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, MeshChild, percentile, sandbox } from './helpers.ts';

export interface ReliabilityOptions {
  /** Extra environment of every server (SYNAPTIC_DATABASE_URL for the PostgreSQL run). */
  env?: Record<string, string>;
  agents: number;
  messages: number;
  workItems: number;
  /**
   * When servers are SIGKILLed: `count` kills at random points of the stream (the k-th somewhere in
   * the k-th equal share of the messages), or one every `everyMs` (each pause 0.5x-1.5x of it) up to `max`.
   */
  kills: { count: number } | { everyMs: number; max: number };
  wakeSamples: number;
  /** The traffic must be answered by then, or the run fails with the servers' stderr. */
  deadlineMs: number;
}

export interface ReliabilityResult {
  agents: number;
  answeredSends: number;
  seconds: number;
  kills: number;
  lost: number;
  wrongProject: number;
  misdelivered: number;
  backAfterAck: number;
  redelivered: number;
  inboxFullRetries: number;
  peerAwayRetries: number;
  workItems: number;
  claimed: number;
  claimedTwice: number;
  /** parked mesh_wait answer minus the send call's start / minus the send's answer (committed), ms. */
  wakeFromCall: { p50: number; p99: number };
  wakeFromAnswer: { p50: number; p99: number };
}

const isGone = (err: unknown): boolean => /server exited|no response/.test(String(err));

export async function runMeshReliability(o: ReliabilityOptions): Promise<ReliabilityResult> {
  const sb = sandbox(o.env ?? {});
  const live = new Set<MeshChild>();
  /** Set when the run ends however it ends, so no loop (or the killer) starts another server. */
  let ended = false;

  const start = async (project: string, name: string): Promise<MeshChild> => {
    for (let attempt = 0; ; attempt++) {
      if (ended) throw new Error('the run ended');
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
  };

  try {
    const set = cli(sb, ['settings', 'mesh', 'on']);
    if (set.status !== 0) throw new Error(`settings mesh on failed: ${set.stderr}`);
    const other = join(sb.base, 'other-project');
    mkdirSync(join(other, '.git'), { recursive: true });

    interface Agent {
      name: string;
      child: MeshChild;
      /** Bumped on each restart; a loop of an older generation stops. */
      generation: number;
    }
    const agents: Agent[] = [];
    for (let i = 0; i < o.agents; i++) agents.push({ name: `a${i}`, child: await start(sb.project, `a${i}`), generation: 0 });
    // Another project's agent under a name this project uses too: it must never see this project's traffic.
    const decoy = await start(other, 'a0');
    for (let i = 0; i < o.workItems; i++) await agents[0]!.child.tool('mesh_offer', { title: `item ${i}` });

    const sentOk = new Map<string, string>(); // body -> intended recipient
    const received = new Map<string, number>(); // body -> times seen by its recipient
    // id -> the ack tick at which its ack was answered. A message only counts as back after its ack
    // when the read that returned it started after that answer: two readers of one inbox (a drain beside
    // the receiver loop) may both fetch a message before either acks it, which at-least-once allows.
    const ackedAt = new Map<number, number>();
    let ackTick = 0;
    const claims = new Map<number, Set<string>>();
    const r = { misdelivered: 0, wrongProject: 0, backAfterAck: 0, inboxFull: 0, peerAway: 0 };
    let seq = 0;
    let sent = 0;
    let kills = 0;
    let stop = false;

    const receive = async (name: string, child: MeshChild, messages: Array<{ id: number; body: string }>, readFrom: number): Promise<void> => {
      for (const m of messages) {
        if ((ackedAt.get(m.id) ?? Infinity) <= readFrom) r.backAfterAck++;
        const [project, , , to] = m.body.split(':');
        if (project !== 'P') r.wrongProject++;
        if (to !== name) r.misdelivered++;
        received.set(m.body, (received.get(m.body) ?? 0) + 1);
      }
      if (messages.length === 0) return;
      const ids = messages.map((m) => m.id);
      await child.tool('mesh_ack', { ids });
      ackTick++;
      for (const id of ids) ackedAt.set(id, ackTick); // only once the ack was answered
    };

    const sender = async (agent: Agent, generation: number): Promise<void> => {
      while (!stop && !ended && agent.generation === generation && sent < o.messages) {
        const to = agents[(agents.indexOf(agent) + 1 + Math.floor(Math.random() * (o.agents - 1))) % o.agents]!.name;
        const body = `P:${agent.name}:${seq++}:${to}`;
        try {
          await agent.child.tool('mesh_send', { to, body });
          sentOk.set(body, to);
          sent++;
        } catch (err) {
          if (isGone(err)) return;
          // A peer restarting after its lease lapsed (a slow restart on a loaded machine) is away, not lost.
          if (/no agent of this project is registered/.test(String(err))) {
            r.peerAway++;
            await new Promise((res) => setTimeout(res, 100));
            continue;
          }
          if (/inbox is full/.test(String(err))) {
            r.inboxFull++;
            await new Promise((res) => setTimeout(res, 50));
            continue;
          }
          throw err;
        }
      }
    };

    const claimOne = async (agent: Agent, child: MeshChild): Promise<boolean> => {
      const c = (await child.tool('mesh_claim')) as { work: { id: number } | null; resumed: boolean };
      if (!c.work) return false;
      if (!c.resumed) claims.set(c.work.id, (claims.get(c.work.id) ?? new Set()).add(agent.name));
      await child.tool('mesh_finish', { id: c.work.id });
      return true;
    };

    const receiver = async (agent: Agent, generation: number): Promise<void> => {
      while (!stop && !ended && agent.generation === generation) {
        const child = agent.child;
        try {
          const got = await child.tool('mesh_wait', { timeout_s: 0.5 });
          if (got.result === 'message') {
            const readFrom = ackTick;
            const { messages } = (await child.tool('mesh_inbox', { limit: 100 })) as { messages: Array<{ id: number; body: string }> };
            await receive(agent.name, child, messages, readFrom);
          }
          if (Math.random() < 0.3) await claimOne(agent, child);
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
        for (const m of messages) if (!m.body.startsWith('Q:')) r.wrongProject++;
        if (messages.length) await decoy.tool('mesh_ack', { ids: messages.map((m) => m.id) });
        await new Promise((res) => setTimeout(res, 20));
      }
    };

    const run = (agent: Agent): Array<Promise<void>> => [sender(agent, agent.generation), receiver(agent, agent.generation)];
    const loops: Array<Promise<void>> = agents.flatMap(run);
    let failed: unknown;
    const watch = (p: Promise<void>) => void p.catch((err: unknown) => (failed ??= err));
    loops.forEach(watch);
    loops.push(decoyLoop());
    watch(loops[loops.length - 1]!);

    const plan = o.kills;
    const killPoints = 'count' in plan ? Array.from({ length: plan.count }, (_, k) => Math.floor((o.messages * (k + 0.2 + 0.6 * Math.random())) / plan.count)) : [];
    const maxKills = 'count' in plan ? plan.count : plan.max;
    const killer = (async () => {
      while (!stop && !ended && kills < maxKills && sent < o.messages) {
        if ('count' in plan) while (sent < killPoints[kills]! && !ended) await new Promise((res) => setTimeout(res, 5));
        else await new Promise((res) => setTimeout(res, plan.everyMs * (0.5 + Math.random())));
        if (sent >= o.messages || ended) break;
        const victim = agents[Math.floor(Math.random() * o.agents)]!;
        victim.generation++;
        live.delete(victim.child);
        await victim.child.kill();
        kills++;
        victim.child = await start(sb.project, victim.name); // at once: the old holder's process is gone
        const again = run(victim);
        again.forEach(watch);
        loops.push(...again);
      }
    })();
    watch(killer);

    const started = Date.now();
    // A server that cannot restart (or a loop that failed) must fail the run, not hang it.
    const deadline = started + o.deadlineMs;
    while (sent < o.messages) {
      if (failed) throw failed;
      if (Date.now() > deadline) throw new Error(`only ${sent} of ${o.messages} sends answered in time; servers' stderr: ${agents.map((a) => a.child.stderr.slice(-300)).join(' | ')}`);
      await new Promise((res) => setTimeout(res, 50));
    }
    await killer;
    // Drain: every agent reads its inbox to the end; receivers are still running.
    for (const agent of agents) {
      for (;;) {
        const readFrom = ackTick;
        const { messages, pending } = (await agent.child.tool('mesh_inbox', { limit: 100 })) as { messages: Array<{ id: number; body: string }>; pending: number };
        await receive(agent.name, agent.child, messages, readFrom);
        if (pending <= messages.length) break;
      }
    }
    stop = true;
    await Promise.all(loops);
    if (failed) throw failed;
    // Whatever work is left, claim it now, so every item was claimed by someone.
    while (await claimOne(agents[0]!, agents[0]!.child));
    const seconds = (Date.now() - started) / 1000;

    // Wake latency: a parked mesh_wait in one process, a send from another.
    const [a, b] = [agents[0]!.child, agents[1]!.child];
    const fromCall: number[] = [];
    const fromAnswer: number[] = [];
    for (let i = 0; i < o.wakeSamples; i++) {
      const parked = a.tool('mesh_wait', { timeout_s: 10 });
      await new Promise((res) => setTimeout(res, 5 + Math.random() * 10));
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

    const lost = [...sentOk.keys()].filter((body) => !received.has(body)).length;
    return {
      agents: o.agents,
      answeredSends: sentOk.size,
      seconds,
      kills,
      lost,
      wrongProject: r.wrongProject,
      misdelivered: r.misdelivered,
      backAfterAck: r.backAfterAck,
      redelivered: [...received.values()].reduce((s, n) => s + n - 1, 0),
      inboxFullRetries: r.inboxFull,
      peerAwayRetries: r.peerAway,
      workItems: o.workItems,
      claimed: claims.size,
      claimedTwice: [...claims.values()].filter((who) => who.size > 1).length,
      wakeFromCall: { p50: percentile(fromCall, 50), p99: percentile(fromCall, 99) },
      wakeFromAnswer: { p50: percentile(fromAnswer, 50), p99: percentile(fromAnswer, 99) },
    };
  } finally {
    ended = true;
    await Promise.all([...live].map((c) => c.close()));
    sb.cleanup();
  }
}

/** One line for a log or a test diagnostic. */
export function describeResult(backend: string, x: ReliabilityResult): string {
  return (
    `${backend}: ${x.agents} agents, ${x.answeredSends} answered sends in ${x.seconds.toFixed(1)} s, ${x.kills} SIGKILLs: lost ${x.lost}, wrong project ${x.wrongProject}, ` +
    `misdelivered ${x.misdelivered}, back after ack ${x.backAfterAck}, redelivered (at-least-once) ${x.redelivered}, inbox-full retries ${x.inboxFullRetries}, ` +
    `peer-away retries ${x.peerAwayRetries}; work items ${x.claimed}/${x.workItems} claimed, claimed twice ${x.claimedTwice}; ` +
    `wait wake: from the send call p50 ${x.wakeFromCall.p50.toFixed(1)} / p99 ${x.wakeFromCall.p99.toFixed(1)} ms, after the send's answer p50 ${x.wakeFromAnswer.p50.toFixed(1)} / p99 ${x.wakeFromAnswer.p99.toFixed(1)} ms`
  );
}

/** The assertions every backend's scaled run makes (bound: the wake p99; this shared 2-core machine gets 3x). */
export function checkReliability(x: ReliabilityResult, kills: number, wakeBoundMs: number): void {
  assert.equal(x.kills, kills, 'servers were killed mid-stream');
  assert.equal(x.lost, 0, `${x.lost} answered sends lost`);
  assert.equal(x.wrongProject, 0);
  assert.equal(x.misdelivered, 0);
  assert.equal(x.backAfterAck, 0);
  assert.equal(x.claimedTwice, 0);
  assert.equal(x.claimed, x.workItems);
  assert.ok(x.wakeFromAnswer.p99 <= wakeBoundMs * 3, `wake p99 ${x.wakeFromAnswer.p99.toFixed(1)} ms (bound ${wakeBoundMs} ms, x3 slack here)`);
}
