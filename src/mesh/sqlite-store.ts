import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { openDatabase } from '../memory/open.ts';
import { dataDir } from '../memory/paths.ts';
import { projectKey } from '../memory/identity.ts';
import { withRetry } from '../memory/retry.ts';
import { InboxFullError, NameTakenError, UnknownPeerError } from './errors.ts';
import { MESH_MIGRATIONS } from './schema.ts';
import type {
  AgentRecord,
  AgentState,
  MeshStore,
  MessageKind,
  MessageRecord,
  RegisterInput,
  SendInput,
  SendResult,
  WorkerRecord,
  WorkerState,
  WorkItem,
  WorkState,
} from './store.ts';

/** File name of the mesh database inside the data directory (beside memory.db). */
export const MESH_DB_FILE = 'mesh.db';

/** How often a parked `wait` looks for other processes' commits (PRAGMA data_version: a few microseconds). */
export const CHANGE_POLL_MS = 10;

interface AgentRow {
  name: string;
  session: string;
  role: string;
  state: AgentState;
  detail: string;
  lease_until: number;
  changed: number;
  host: string;
  pid: number;
}
interface MessageRow {
  id: number;
  recipient: string;
  sender: string;
  channel: string;
  kind: MessageKind;
  body: string;
  created: number;
  handed_to: string | null;
  handed: number;
}
interface WorkRow {
  id: number;
  title: string;
  body: string;
  posted_by: string;
  state: WorkState;
  claimed_by: string;
  note: string;
  created: number;
  changed: number;
}
interface WorkerRow {
  id: number;
  worker: string;
  owner: string;
  owner_session: string;
  host: string;
  pid: number;
  state: WorkerState;
  exit_code: number | null;
  log: string;
  started: number;
  ended: number | null;
  limit_ms: number;
}

const agentOf = (r: AgentRow): AgentRecord => ({
  name: r.name,
  session: r.session,
  role: r.role,
  state: r.state,
  detail: r.detail,
  leaseUntil: r.lease_until,
  changed: r.changed,
  host: r.host,
  pid: r.pid,
});
const workOf = (r: WorkRow): WorkItem => ({
  id: r.id,
  title: r.title,
  body: r.body,
  postedBy: r.posted_by,
  state: r.state,
  claimedBy: r.claimed_by,
  note: r.note,
  created: r.created,
  changed: r.changed,
});
const workerOf = (r: WorkerRow): WorkerRecord => ({
  id: r.id,
  worker: r.worker,
  owner: r.owner,
  ownerSession: r.owner_session,
  host: r.host,
  pid: r.pid,
  state: r.state,
  exitCode: r.exit_code,
  log: r.log,
  started: r.started,
  ended: r.ended,
  limitMs: r.limit_ms,
});

/**
 * The mesh on the embedded SQLite file `<data dir>/mesh.db` (WAL, opened and migrated like memory.db).
 * Several server processes share the file; each write is one IMMEDIATE transaction, so a claim or a
 * name is taken by exactly one of them. Other processes' commits are seen by polling the connection's
 * `data_version` while someone waits; this process's own writes wake its waiters at once.
 */
export class SqliteMeshStore implements MeshStore {
  private readonly db: Database.Database;
  private readonly listeners = new Set<() => void>();
  private poll: NodeJS.Timeout | undefined;
  private version = 0;
  private readonly projectIds = new Map<string, number>();

  private constructor(db: Database.Database) {
    this.db = db;
  }

  /** Opens (creating and migrating) the mesh file of the data directory (`dir`, else SYNAPTIC_DATA_DIR/XDG rule). */
  static open(options: { dir?: string; env?: NodeJS.ProcessEnv; file?: string } = {}): SqliteMeshStore {
    const file = options.file ?? join(options.dir ?? dataDir(options.env), MESH_DB_FILE);
    return new SqliteMeshStore(openDatabase(file, { migrations: MESH_MIGRATIONS, what: 'mesh database' }));
  }

  private tx<T>(fn: () => T): T {
    return withRetry(() => this.db.transaction(fn).immediate());
  }

  /**
   * The project's row id, created on first use. Keyed like memory and the team database: the
   * portable identity (projectKey: the normalized git remote URL, else the path), so two clones of
   * one repository are one project's mesh.
   */
  private pid(project: string): number {
    const known = this.projectIds.get(project);
    if (known !== undefined) return known;
    const key = projectKey(project);
    // Read paths create the row too (a first look at an empty project): retried like any write.
    const id = withRetry(() => {
      this.db.prepare('INSERT OR IGNORE INTO projects (key) VALUES (?)').run(key);
      return (this.db.prepare('SELECT id FROM projects WHERE key = ?').get(key) as { id: number }).id;
    });
    this.projectIds.set(project, id);
    return id;
  }

  private changed(): void {
    for (const l of this.listeners) queueMicrotask(l);
  }

  private write<T>(fn: () => T): T {
    const out = this.tx(fn);
    this.changed();
    return out;
  }

  async register(input: RegisterInput): Promise<AgentRecord> {
    return this.write(() => {
      const p = this.pid(input.project);
      const held = this.db.prepare('SELECT * FROM agents WHERE project_id = ? AND name = ?').get(p, input.name) as AgentRow | undefined;
      if (held && held.session !== input.session && held.lease_until > input.now && !input.holderGone(agentOf(held))) {
        throw new NameTakenError(
          `Cannot register "${input.name}": the name is held by another live session (${held.role || 'agent'}, pid ${held.pid} on ${held.host}); pick another name, or wait until it unregisters or its lease lapses`,
        );
      }
      // One name per session: registering again moves the session to the new name.
      this.db.prepare('DELETE FROM agents WHERE session = ? AND NOT (project_id = ? AND name = ?)').run(input.session, p, input.name);
      const keep = held && held.session === input.session;
      this.db
        .prepare(
          `INSERT INTO agents (project_id, name, session, role, state, detail, lease_until, changed, host, pid)
           VALUES (?, ?, ?, ?, 'idle', '', ?, ?, ?, ?)
           ON CONFLICT (project_id, name) DO UPDATE SET session = excluded.session, role = excluded.role,
             lease_until = excluded.lease_until, host = excluded.host, pid = excluded.pid,
             state = ${keep ? 'state' : 'excluded.state'}, detail = ${keep ? 'detail' : 'excluded.detail'}, changed = ${keep ? 'changed' : 'excluded.changed'}`,
        )
        .run(p, input.name, input.session, input.role, input.now + input.leaseMs, input.now, input.host, input.pid);
      return agentOf(this.db.prepare('SELECT * FROM agents WHERE project_id = ? AND name = ?').get(p, input.name) as AgentRow);
    });
  }

  async renew(project: string, session: string, leaseMs: number, now: number): Promise<boolean> {
    // A lease renewal wakes nobody: it changes no state a waiter looks at.
    return this.tx(() => this.db.prepare('UPDATE agents SET lease_until = ? WHERE project_id = ? AND session = ?').run(now + leaseMs, this.pid(project), session).changes > 0);
  }

  async unregister(project: string, session: string): Promise<void> {
    this.write(() => {
      const p = this.pid(project);
      const names = (this.db.prepare('SELECT name FROM agents WHERE project_id = ? AND session = ?').all(p, session) as Array<{ name: string }>).map((r) => r.name);
      for (const name of names) this.db.prepare('DELETE FROM subscriptions WHERE project_id = ? AND name = ?').run(p, name);
      this.db.prepare('DELETE FROM agents WHERE project_id = ? AND session = ?').run(p, session);
    });
  }

  async agents(project: string, now: number): Promise<AgentRecord[]> {
    return (this.db.prepare('SELECT * FROM agents WHERE project_id = ? AND lease_until > ? ORDER BY name').all(this.pid(project), now) as AgentRow[]).map(agentOf);
  }

  async agent(project: string, name: string, now: number): Promise<AgentRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM agents WHERE project_id = ? AND name = ? AND lease_until > ?').get(this.pid(project), name, now) as AgentRow | undefined;
    return row && agentOf(row);
  }

  async setState(project: string, name: string, state: AgentState, detail: string, now: number, inboxCap: number): Promise<void> {
    this.write(() => {
      const p = this.pid(project);
      this.db.prepare('UPDATE agents SET state = ?, detail = ?, changed = ? WHERE project_id = ? AND name = ?').run(state, detail, now, p, name);
      this.fanOut(p, name, `@${name}`, 'status', detail ? `${state}: ${detail}` : state, now, inboxCap);
    });
  }

  /** Inserts one message per subscriber of `channel` but `from`; returns who got it and whose inbox was full. */
  private fanOut(p: number, from: string, channel: string, kind: MessageKind, body: string, now: number, inboxCap: number): SendResult {
    const subscribers = (this.db.prepare('SELECT name FROM subscriptions WHERE project_id = ? AND channel = ? AND name != ? ORDER BY name').all(p, channel, from) as Array<{ name: string }>).map((r) => r.name);
    const out: SendResult = { ids: [], delivered: [], full: [] };
    for (const to of subscribers) {
      if (this.pendingIn(p, to) >= inboxCap) {
        out.full.push(to);
        continue;
      }
      out.ids.push(this.insertMessage(p, to, from, channel, kind, body, now));
      out.delivered.push(to);
    }
    return out;
  }

  private pendingIn(p: number, name: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM messages WHERE project_id = ? AND recipient = ?').get(p, name) as { n: number }).n;
  }

  private insertMessage(p: number, to: string, from: string, channel: string, kind: MessageKind, body: string, now: number): number {
    return Number(this.db.prepare('INSERT INTO messages (project_id, recipient, sender, channel, kind, body, created) VALUES (?, ?, ?, ?, ?, ?, ?)').run(p, to, from, channel, kind, body, now).lastInsertRowid);
  }

  async send(input: SendInput): Promise<SendResult> {
    return this.write(() => {
      const p = this.pid(input.project);
      if (input.channel !== undefined && input.kind === 'channel') return this.fanOut(p, input.from, input.channel, 'channel', input.body, input.now, input.inboxCap);
      const out: SendResult = { ids: [], delivered: [], full: [] };
      for (const to of input.to ?? []) {
        const live = this.db.prepare('SELECT 1 FROM agents WHERE project_id = ? AND name = ? AND lease_until > ?').get(p, to, input.now);
        // A worker's end goes to its owner even after the owner left: it reads it when it comes back.
        if (!live && input.kind !== 'worker') throw new UnknownPeerError(`Cannot send to "${to}": no agent of this project is registered under that name; mesh_peers lists who is`);
        if (this.pendingIn(p, to) >= input.inboxCap) {
          throw new InboxFullError(`Cannot send to "${to}": its inbox is full (${input.inboxCap} unacknowledged messages); nothing was sent. Try again after it acks, or wait for its reply`);
        }
        out.ids.push(this.insertMessage(p, to, input.from, input.channel ?? '', input.kind, input.body, input.now));
        out.delivered.push(to);
      }
      return out;
    });
  }

  async subscribe(project: string, name: string, channels: string[], on: boolean): Promise<string[]> {
    return this.write(() => {
      const p = this.pid(project);
      const stmt = on
        ? this.db.prepare('INSERT OR IGNORE INTO subscriptions (project_id, channel, name) VALUES (?, ?, ?)')
        : this.db.prepare('DELETE FROM subscriptions WHERE project_id = ? AND channel = ? AND name = ?');
      for (const c of channels) stmt.run(p, c, name);
      return (this.db.prepare('SELECT channel FROM subscriptions WHERE project_id = ? AND name = ? ORDER BY channel').all(p, name) as Array<{ channel: string }>).map((r) => r.channel);
    });
  }

  async inbox(project: string, name: string, session: string, options: { limit: number; fresh: boolean }): Promise<MessageRecord[]> {
    const p = this.pid(project);
    const sql = `SELECT * FROM messages WHERE project_id = ? AND recipient = ?${options.fresh ? ' AND handed_to IS NOT ?' : ''} ORDER BY id LIMIT ?`;
    const params = options.fresh ? [p, name, session, options.limit] : [p, name, options.limit];
    // Read, then mark handed, in one transaction: a redelivery flag is exact even with two readers.
    const rows = this.tx(() => {
      const found = this.db.prepare(sql).all(...params) as MessageRow[];
      const mark = this.db.prepare('UPDATE messages SET handed_to = ?, handed = handed + 1 WHERE id = ?');
      for (const r of found) mark.run(session, r.id);
      return found;
    });
    return rows.map((r) => ({ id: r.id, from: r.sender, to: r.recipient, channel: r.channel, kind: r.kind, body: r.body, created: r.created, redelivered: r.handed > 0 }));
  }

  async pending(project: string, name: string): Promise<number> {
    return this.pendingIn(this.pid(project), name);
  }

  async ack(project: string, name: string, ids: number[]): Promise<number[]> {
    return this.write(() => {
      const p = this.pid(project);
      const del = this.db.prepare('DELETE FROM messages WHERE id = ? AND project_id = ? AND recipient = ?');
      return ids.filter((id) => del.run(id, p, name).changes > 0);
    });
  }

  async offer(project: string, postedBy: string, title: string, body: string, now: number): Promise<WorkItem> {
    return this.write(() => {
      const row = this.db
        .prepare(`INSERT INTO work (project_id, title, body, posted_by, state, claimed_by, note, created, changed) VALUES (?, ?, ?, ?, 'open', '', '', ?, ?) RETURNING *`)
        .get(this.pid(project), title, body, postedBy, now, now) as WorkRow;
      return workOf(row);
    });
  }

  async claim(project: string, name: string, now: number, id?: number): Promise<WorkItem | undefined> {
    return this.write(() => {
      const p = this.pid(project);
      if (id !== undefined) {
        const row = this.db.prepare('SELECT * FROM work WHERE project_id = ? AND id = ?').get(p, id) as WorkRow | undefined;
        if (!row) throw new RangeError(`Cannot claim work item ${id}: this project has no such item; mesh_claim without an id takes the oldest open one`);
        if (row.state === 'claimed' && row.claimed_by === name) return workOf(row);
        if (row.state !== 'open') throw new Error(`Cannot claim work item ${id}: it is ${row.state === 'done' ? 'done' : `claimed by "${row.claimed_by}"`}`);
      }
      const claimed = this.db
        .prepare(
          id !== undefined
            ? `UPDATE work SET state = 'claimed', claimed_by = ?, changed = ? WHERE project_id = ? AND id = ? AND state = 'open' RETURNING *`
            : `UPDATE work SET state = 'claimed', claimed_by = ?, changed = ? WHERE id = (SELECT id FROM work WHERE project_id = ? AND state = 'open' ORDER BY id LIMIT 1) RETURNING *`,
        )
        .get(...(id !== undefined ? [name, now, p, id] : [name, now, p])) as WorkRow | undefined;
      return claimed && workOf(claimed);
    });
  }

  async finish(project: string, name: string, id: number, outcome: 'done' | 'release', note: string, now: number): Promise<WorkItem> {
    return this.write(() => {
      const p = this.pid(project);
      const row = this.db.prepare('SELECT * FROM work WHERE project_id = ? AND id = ?').get(p, id) as WorkRow | undefined;
      if (!row || row.state !== 'claimed' || row.claimed_by !== name) {
        throw new Error(`Cannot finish work item ${id}: ${!row ? 'this project has no such item' : row.state === 'claimed' ? `it is claimed by "${row.claimed_by}", not you` : `it is ${row.state}, not claimed by you`}`);
      }
      const next = outcome === 'done' ? `state = 'done'` : `state = 'open', claimed_by = ''`;
      return workOf(this.db.prepare(`UPDATE work SET ${next}, note = ?, changed = ? WHERE id = ? RETURNING *`).get(note, now, id) as WorkRow);
    });
  }

  async work(project: string, options: { limit: number; done: boolean; afterId?: number; claimedBy?: string; state?: WorkState }): Promise<WorkItem[]> {
    const where = ['project_id = ?'];
    const params: Array<string | number> = [this.pid(project)];
    if (options.state) (where.push('state = ?'), params.push(options.state));
    else if (!options.done) where.push(`state != 'done'`);
    if (options.afterId !== undefined) (where.push('id > ?'), params.push(options.afterId));
    if (options.claimedBy !== undefined) (where.push(`claimed_by = ? AND state = 'claimed'`), params.push(options.claimedBy));
    params.push(options.limit);
    return (this.db.prepare(`SELECT * FROM work WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`).all(...params) as WorkRow[]).map(workOf);
  }

  async addWorker(project: string, r: Omit<WorkerRecord, 'id'>): Promise<WorkerRecord> {
    return this.write(() =>
      workerOf(
        this.db
          .prepare(
            `INSERT INTO workers (project_id, worker, owner, owner_session, host, pid, state, exit_code, log, started, ended, limit_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
          )
          .get(this.pid(project), r.worker, r.owner, r.ownerSession, r.host, r.pid, r.state, r.exitCode, r.log, r.started, r.ended, r.limitMs) as WorkerRow,
      ),
    );
  }

  async endWorker(project: string, id: number, state: WorkerState, exitCode: number | null, now: number): Promise<void> {
    this.write(() => this.db.prepare(`UPDATE workers SET state = ?, exit_code = ?, ended = ? WHERE project_id = ? AND id = ? AND state = 'running'`).run(state, exitCode, now, this.pid(project), id));
  }

  async workers(project: string, limit: number): Promise<WorkerRecord[]> {
    return (this.db.prepare(`SELECT * FROM workers WHERE project_id = ? ORDER BY state = 'running' DESC, id DESC LIMIT ?`).all(this.pid(project), limit) as WorkerRow[]).map(workerOf);
  }

  onChange(_project: string, listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.poll) {
      this.version = this.dataVersion();
      this.poll = setInterval(() => {
        const v = this.dataVersion();
        if (v !== this.version) {
          this.version = v;
          this.changed();
        }
      }, CHANGE_POLL_MS);
      this.poll.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.poll) {
        clearInterval(this.poll);
        this.poll = undefined;
      }
    };
  }

  /** Changes whenever another connection commits to the file (never for this connection's own writes). */
  private dataVersion(): number {
    try {
      return this.db.pragma('data_version', { simple: true }) as number;
    } catch {
      return this.version; // closed or busy: try again next tick
    }
  }

  async close(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    this.listeners.clear();
    if (this.db.open) this.db.close();
  }
}
