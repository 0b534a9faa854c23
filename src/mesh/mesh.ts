import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { refuseCredentials } from '../memory/credentials.ts';
import { NotRegisteredError } from './errors.ts';
import { INBOX_CAP, LEASE_MS, MAX_DETAIL_CHARS, MAX_MESSAGE_BYTES, MAX_WAIT_MS, NAME_PATTERN } from './limits.ts';
import type { AgentRecord, AgentState, MeshStore, MessageRecord, SendResult, WorkerRecord, WorkItem } from './store.ts';

export interface MeshOptions {
  store: MeshStore;
  /** Host and pid written with a registration (defaults: this machine, this process). */
  host?: string;
  pid?: number;
  /** Clock (Unix ms). */
  now?: () => number;
  leaseMs?: number;
}

/** What `wait` returns: the first fresh message, else a work item (claimed for you with `claim`), else a timeout. */
export type WaitResult =
  | { kind: 'message'; message: MessageRecord }
  | { kind: 'work'; work: WorkItem; claimed: boolean }
  | { kind: 'timeout'; waitedMs: number }
  | { kind: 'cancelled'; waitedMs: number };

/** True when `pid` is a live process on this machine (EPERM: alive, not ours). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function checkName(what: string, value: string, action: string): void {
  if (!NAME_PATTERN.test(value)) {
    throw new TypeError(`Cannot ${action}: ${what} "${value.slice(0, 80)}" is not 1-64 letters, digits, '.', '_' or '-' starting with a letter or digit`);
  }
}

function checkBody(body: string, action: string): void {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_MESSAGE_BYTES) {
    throw new RangeError(`Cannot ${action}: the message is ${bytes} bytes, over the ${MAX_MESSAGE_BYTES}-byte cap; nothing was sent. Put long content in a file (or remember it) and send its path or id`);
  }
  refuseCredentials(action, { body }, 'mesh messages');
}

/**
 * One session's view of the agent mesh: the name it holds in one project, its inbox, channels, work
 * state, work items and `wait`. All state lives in the MeshStore (shared by every server process of
 * the data directory); this object holds only the session id, the registered name and the lease timer.
 * A session sees only its own project's agents, messages and work.
 */
export class Mesh {
  readonly session = randomUUID();
  private readonly store: MeshStore;
  private readonly host: string;
  private readonly pid: number;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private me: { project: string; name: string } | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  /** Highest work item id `wait` has shown this session (so an unclaimed item wakes it once). */
  private seenWork = 0;

  constructor(options: MeshOptions) {
    this.store = options.store;
    this.host = options.host ?? hostname();
    this.pid = options.pid ?? process.pid;
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
  }

  /** The registered name and project, or undefined. */
  get registration(): { project: string; name: string } | undefined {
    return this.me;
  }

  private need(action: string): { project: string; name: string } {
    if (!this.me) throw new NotRegisteredError(`Cannot ${action}: this session has no mesh name yet; call mesh_register first`);
    return this.me;
  }

  /** Takes `name` in `project` (one name per session; registering again moves to the new name). */
  async register(project: string, name: string, role = ''): Promise<AgentRecord> {
    checkName('the name', name, 'register');
    if (role.length > MAX_DETAIL_CHARS) throw new RangeError(`Cannot register: role is over ${MAX_DETAIL_CHARS} characters`);
    if (this.me && this.me.project !== project) await this.unregister();
    const rec = await this.store.register({
      project,
      name,
      session: this.session,
      role,
      host: this.host,
      pid: this.pid,
      leaseMs: this.leaseMs,
      now: this.now(),
      // A holder on this machine whose process is gone ended without unregistering (a crash, a kill).
      holderGone: (h) => h.host === this.host && h.pid !== this.pid && !processAlive(h.pid),
    });
    this.me = { project, name };
    if (!this.renewTimer) {
      this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
      this.renewTimer.unref();
    }
    return rec;
  }

  private async renew(): Promise<void> {
    const me = this.me;
    if (!me) return;
    try {
      if (!(await this.store.renew(me.project, this.session, this.leaseMs, this.now()))) this.me = undefined; // taken over after a lapse
    } catch {
      // a busy or closed file: the next tick tries again, well inside the lease
    }
  }

  /** Releases the name; unacknowledged messages wait for the next holder of it. */
  async unregister(): Promise<{ name: string } | undefined> {
    const me = this.me;
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.renewTimer = undefined;
    this.me = undefined;
    if (!me) return undefined;
    await this.store.unregister(me.project, this.session);
    return { name: me.name };
  }

  /** Live agents of this session's project (with state), and its workers. */
  async peers(): Promise<{ agents: AgentRecord[]; workers: WorkerRecord[]; me: string }> {
    const me = this.need('list peers');
    const [agents, workers] = await Promise.all([this.store.agents(me.project, this.now()), this.store.workers(me.project, 20)]);
    return { agents, workers, me: me.name };
  }

  /** Sends `body` to each name in `to` (all or nothing per recipient: an unknown or full one stops the send there). */
  async send(to: string[], body: string): Promise<SendResult> {
    const me = this.need('send');
    for (const n of to) checkName('the recipient', n, 'send');
    if (to.length === 0) throw new TypeError('Cannot send: name at least one recipient');
    checkBody(body, 'send');
    return this.store.send({ project: me.project, from: me.name, kind: 'direct', to: [...new Set(to)], body, now: this.now(), inboxCap: INBOX_CAP });
  }

  /** Publishes to every subscriber of `channel` but the sender. */
  async publish(channel: string, body: string): Promise<SendResult> {
    const me = this.need('publish');
    checkName('the channel', channel, 'publish');
    checkBody(body, 'publish');
    return this.store.send({ project: me.project, from: me.name, kind: 'channel', channel, body, now: this.now(), inboxCap: INBOX_CAP });
  }

  /** Subscribes to (or, with `on` false, leaves) channels; returns the session's channels now. */
  async subscribe(channels: string[], on: boolean): Promise<string[]> {
    const me = this.need('subscribe');
    for (const c of channels) checkName('the channel', c, 'subscribe');
    return (await this.store.subscribe(me.project, me.name, channels, on)).filter((c) => !c.startsWith('@'));
  }

  /** Watches (or stops watching) peers: each state change they report arrives as a 'status' message. */
  async watch(peers: string[], on: boolean): Promise<string[]> {
    const me = this.need('watch');
    for (const p of peers) checkName('the peer', p, 'watch');
    const all = await this.store.subscribe(me.project, me.name, peers.map((p) => `@${p}`), on);
    return all.filter((c) => c.startsWith('@')).map((c) => c.slice(1));
  }

  /** Unacknowledged messages, oldest first (`fresh`: only ones this session has not been handed). */
  async inbox(limit: number, fresh = false): Promise<{ messages: MessageRecord[]; pending: number }> {
    const me = this.need('read the inbox');
    const messages = await this.store.inbox(me.project, me.name, this.session, { limit, fresh });
    return { messages, pending: await this.store.pending(me.project, me.name) };
  }

  /** Acknowledges messages: they are never delivered again. Returns the ids that were pending. */
  async ack(ids: number[]): Promise<number[]> {
    const me = this.need('ack');
    return this.store.ack(me.project, me.name, ids);
  }

  /** Reports this session's work state to its watchers. */
  async status(state: AgentState, detail: string): Promise<void> {
    const me = this.need('report status');
    if (detail.length > MAX_DETAIL_CHARS) throw new RangeError(`Cannot report status: detail is ${detail.length} characters, over ${MAX_DETAIL_CHARS}`);
    await this.store.setState(me.project, me.name, state, state === 'idle' ? '' : detail, this.now(), INBOX_CAP);
  }

  /** Posts a work item any agent of the project may claim. */
  async offer(title: string, body: string): Promise<WorkItem> {
    const me = this.need('offer work');
    if (!title.trim() || title.length > MAX_DETAIL_CHARS) throw new RangeError(`Cannot offer work: the title must be 1-${MAX_DETAIL_CHARS} characters`);
    checkBody(body, 'offer work');
    refuseCredentials('offer work', { title }, 'mesh messages');
    return this.store.offer(me.project, me.name, title, body, this.now());
  }

  /**
   * Claims `id`, or (without one) resumes an item this name holds unfinished, else takes the oldest
   * open item. undefined when there is nothing to claim.
   */
  async claim(id?: number): Promise<{ work: WorkItem; resumed: boolean } | undefined> {
    const me = this.need('claim work');
    if (id === undefined) {
      const [held] = await this.store.work(me.project, { limit: 1, done: false, claimedBy: me.name });
      if (held) return { work: held, resumed: true };
    }
    const work = await this.store.claim(me.project, me.name, this.now(), id);
    return work && { work, resumed: false };
  }

  async finish(id: number, outcome: 'done' | 'release', note: string): Promise<WorkItem> {
    const me = this.need('finish work');
    if (note.length > MAX_DETAIL_CHARS * 10) throw new RangeError(`Cannot finish work item ${id}: the note is over ${MAX_DETAIL_CHARS * 10} characters`);
    return this.store.finish(me.project, me.name, id, outcome, note, this.now());
  }

  /** Open and claimed work items of the project. */
  async work(limit: number): Promise<WorkItem[]> {
    const me = this.need('list work');
    return this.store.work(me.project, { limit, done: false });
  }

  /**
   * Parks until a message this session has not been handed arrives, or (with `claim`) a work item it
   * claims, or an open item it has not been shown; else until `timeoutMs` or `signal` aborts.
   * Returns the first thing found; a message stays unacknowledged until `ack`.
   */
  async wait(timeoutMs: number, options: { claim?: boolean; signal?: AbortSignal } = {}): Promise<WaitResult> {
    const me = this.need('wait');
    const limit = Math.min(Math.max(0, timeoutMs), MAX_WAIT_MS);
    const started = this.now();
    let dirty = true;
    let wake: (() => void) | undefined;
    // Listen before the first look, so a change between the look and the park is not missed.
    const off = this.store.onChange(me.project, () => {
      dirty = true;
      wake?.();
    });
    const onAbort = (): void => wake?.();
    options.signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (options.signal?.aborted) return { kind: 'cancelled', waitedMs: this.now() - started };
        if (dirty) {
          dirty = false;
          const found = await this.look(me, options.claim === true);
          if (found) return found;
        }
        const left = limit - (this.now() - started);
        if (left <= 0) return { kind: 'timeout', waitedMs: this.now() - started };
        if (!dirty) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      }
    } finally {
      off();
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async look(me: { project: string; name: string }, claim: boolean): Promise<WaitResult | undefined> {
    const [message] = await this.store.inbox(me.project, me.name, this.session, { limit: 1, fresh: true });
    if (message) return { kind: 'message', message };
    if (claim) {
      const work = await this.store.claim(me.project, me.name, this.now());
      if (work) return { kind: 'work', work, claimed: true };
      return undefined;
    }
    const [work] = await this.store.work(me.project, { limit: 1, done: false, state: 'open', afterId: this.seenWork });
    if (work) {
      this.seenWork = work.id;
      return { kind: 'work', work, claimed: false };
    }
    return undefined;
  }

  /** Stops renewing and releases the name (the session ended). */
  async close(): Promise<void> {
    try {
      await this.unregister();
    } catch {
      // the file is gone or busy at exit: the lease lapses instead
    }
  }
}
