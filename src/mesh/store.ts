/**
 * The agent mesh's storage, behind one small interface so the same `Mesh` logic (mesh.ts) runs on the
 * embedded SQLite file (sqlite-store.ts) and on a shared PostgreSQL database. Every method is scoped by
 * `project` (an opaque key: the resolved project path on SQLite, the portable project identity in team
 * mode): no method ever reads or writes another project's rows. Methods are async so a networked
 * backend fits; each one is a single transaction.
 *
 * Delivery is at-least-once: a message is a row per recipient name that stays until that name acks it,
 * so a session that dies (even under SIGKILL) and registers again under the same name reads it again.
 */

/** Work state an agent reports about itself. */
export type AgentState = 'idle' | 'working' | 'blocked';

/** One registered agent (a name held by a session). */
export interface AgentRecord {
  name: string;
  /** The session (one server connection) holding the name. */
  session: string;
  role: string;
  state: AgentState;
  /** What it is working on or blocked by ('' when idle). */
  detail: string;
  /** Unix ms when the lease lapses unless renewed. */
  leaseUntil: number;
  /** Unix ms of the last state change. */
  changed: number;
  host: string;
  pid: number;
}

export interface RegisterInput {
  project: string;
  name: string;
  session: string;
  role: string;
  host: string;
  pid: number;
  leaseMs: number;
  now: number;
  /**
   * Called for a holder whose lease has not lapsed: true when that session is known to be gone (a
   * process on this host that no longer exists), so its name may be taken over at once.
   */
  holderGone(holder: AgentRecord): boolean;
}

/** Message kinds: direct, channel, a watched peer's state change, a worker's end. */
export type MessageKind = 'direct' | 'channel' | 'status' | 'worker';

export interface MessageRecord {
  id: number;
  from: string;
  to: string;
  /** The channel for kind 'channel'; the watched peer for 'status'; else ''. */
  channel: string;
  kind: MessageKind;
  body: string;
  /** Unix ms. */
  created: number;
  /** True when an earlier session (or an earlier read) was already handed this message. */
  redelivered: boolean;
}

export interface SendInput {
  project: string;
  from: string;
  kind: MessageKind;
  /** Recipient names; for a channel or status fan-out, the store picks the subscribers. */
  to?: string[];
  channel?: string;
  body: string;
  now: number;
  /** At most this many unacknowledged messages per recipient. */
  inboxCap: number;
}

export interface SendResult {
  /** Message ids, one per recipient that received it. */
  ids: number[];
  delivered: string[];
  /** Recipients skipped because their inbox was full (fan-outs only; a direct send throws InboxFullError). */
  full: string[];
}

export type WorkState = 'open' | 'claimed' | 'done';

export interface WorkItem {
  id: number;
  title: string;
  body: string;
  postedBy: string;
  state: WorkState;
  /** The name holding the claim ('' while open). */
  claimedBy: string;
  note: string;
  created: number;
  changed: number;
}

export type WorkerState = 'running' | 'exited' | 'failed' | 'timed-out' | 'stopped';

export interface WorkerRecord {
  id: number;
  /** The configured worker's name (settings). */
  worker: string;
  /** The agent name that started it. */
  owner: string;
  ownerSession: string;
  host: string;
  pid: number;
  state: WorkerState;
  exitCode: number | null;
  log: string;
  started: number;
  ended: number | null;
  limitMs: number;
}

/**
 * What the mesh persists. Errors a caller must tell apart are the classes in errors.ts
 * (NameTakenError, UnknownPeerError, InboxFullError); everything else is a plain Error.
 */
export interface MeshStore {
  /** Takes `name` for `session`: free, lapsed, held by the same session, or `holderGone`. Throws NameTakenError. */
  register(input: RegisterInput): Promise<AgentRecord>;
  /** Extends the lease of every name `session` holds; false when it holds none (taken over or lapsed). */
  renew(project: string, session: string, leaseMs: number, now: number): Promise<boolean>;
  /** Releases the name (and its subscriptions and watches); unacknowledged messages stay for a later holder. */
  unregister(project: string, session: string): Promise<void>;
  /** Agents whose lease has not lapsed at `now`, by name. */
  agents(project: string, now: number): Promise<AgentRecord[]>;
  /** The live agent holding `name`, or undefined. */
  agent(project: string, name: string, now: number): Promise<AgentRecord | undefined>;
  /** Sets `name`'s state; fans a 'status' message out to its watchers (inbox caps apply, full ones skipped). */
  setState(project: string, name: string, state: AgentState, detail: string, now: number, inboxCap: number): Promise<void>;

  /** Delivers a message (direct: `to`; channel: the channel's subscribers but the sender). Direct to a full inbox throws InboxFullError. */
  send(input: SendInput): Promise<SendResult>;
  /** Adds or removes channel subscriptions of `name` ('@peer' channels are watches of that peer's state). */
  subscribe(project: string, name: string, channels: string[], on: boolean): Promise<string[]>;
  /** `name`'s unacknowledged messages, oldest first, each marked handed to `session`. `fresh`: only ones `session` was not handed yet. */
  inbox(project: string, name: string, session: string, options: { limit: number; fresh: boolean }): Promise<MessageRecord[]>;
  /** Count of `name`'s unacknowledged messages. */
  pending(project: string, name: string): Promise<number>;
  /** Acknowledges (deletes) messages addressed to `name`; returns the ids that were pending. */
  ack(project: string, name: string, ids: number[]): Promise<number[]>;

  /** Posts a work item (state open). */
  offer(project: string, postedBy: string, title: string, body: string, now: number): Promise<WorkItem>;
  /**
   * Claims atomically (two callers never both get one item): `id` when it is open (or already held by
   * `name`), else the oldest open item. undefined when nothing is claimable; an `id` held by another
   * name or done throws.
   */
  claim(project: string, name: string, now: number, id?: number): Promise<WorkItem | undefined>;
  /** Finishes (`done`) or hands back (`release`) an item `name` holds; throws when it does not hold it. */
  finish(project: string, name: string, id: number, outcome: 'done' | 'release', note: string, now: number): Promise<WorkItem>;
  /** Work items, oldest first: open and claimed ones (done ones too when `done`); only `claimedBy`'s, or only ids above `afterId`. */
  work(project: string, options: { limit: number; done: boolean; afterId?: number; claimedBy?: string; state?: WorkState }): Promise<WorkItem[]>;

  /** Records a started worker. */
  addWorker(project: string, record: Omit<WorkerRecord, 'id'>): Promise<WorkerRecord>;
  /** Records a worker's end (state, exit code, end time). */
  endWorker(project: string, id: number, state: WorkerState, exitCode: number | null, now: number): Promise<void>;
  /** Workers, newest first (running ones and the last ended ones up to `limit`). */
  workers(project: string, limit: number): Promise<WorkerRecord[]>;

  /**
   * Calls `listener` soon after anything may have changed for `project` in any process (SQLite: polls
   * the file's data version; PostgreSQL: LISTEN/NOTIFY). Returns the unsubscribe function.
   */
  onChange(project: string, listener: () => void): () => void;
  close(): Promise<void>;
}
