import type pg from 'pg';
import { projectKey } from '../memory/identity.ts';
import { openMigratedPool, poolConfig, redactUrl, unavailable } from '../memory/pg/connect.ts';
import { InboxFullError, NameTakenError, UnknownPeerError } from './errors.ts';
import { PG_MESH_MIGRATIONS } from './pg-schema.ts';
import type { AgentRecord, AgentState, MeshStore, MessageKind, MessageRecord, RegisterInput, SendInput, SendResult, WorkerRecord, WorkerState, WorkItem, WorkState } from './store.ts';

/** The NOTIFY channel every mesh write of a team database signals on; the payload is the project row id. */
export const MESH_CHANNEL = 'synaptic_mesh';

// Rows come back in the record shapes directly (camelCase aliases), so no mapping layer is needed.
const AGENT = `name, session, role, state, detail, lease_until AS "leaseUntil", changed, host, pid`;
const WORK = `id, title, body, posted_by AS "postedBy", state, claimed_by AS "claimedBy", note, created, changed`;
const WORKER = `id, worker, owner, owner_session AS "ownerSession", host, pid, state, exit_code AS "exitCode", log, started, ended, limit_ms AS "limitMs"`;

type Q = pg.PoolClient;
/** Where a single statement runs: the pool (no transaction) or a transaction's client. */
type Db = pg.Pool | pg.PoolClient;

/**
 * The mesh in the team's PostgreSQL database: the SqliteMeshStore's semantics (sqlite-store.ts) with
 * rows scoped by team and project, each write one transaction, and `onChange` driven by LISTEN/NOTIFY:
 * every write NOTIFYs at commit, and one listening connection per store wakes the waiters of that
 * project, in this process or any other on any machine.
 */
export class PgMeshStore implements MeshStore {
  readonly location: string;
  private readonly projectIds = new Map<string, number>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private listener: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;

  private constructor(
    private readonly pgModule: typeof pg,
    readonly pool: pg.Pool,
    private readonly url: string,
    readonly team: string,
  ) {
    this.location = redactUrl(url);
  }

  static async open(options: { url: string; team?: string }): Promise<PgMeshStore> {
    const { pgModule, pool } = await openMigratedPool(options.url, 'open the mesh', 'the mesh', PG_MESH_MIGRATIONS, 'synaptic_mesh_schema');
    return new PgMeshStore(pgModule, pool, options.url, options.team ?? 'default');
  }

  /**
   * One transaction for `project` that NOTIFYs the project's waiters at commit (the NOTIFY and the
   * COMMIT go in one trip); this process's are woken at once.
   */
  private async write<T>(action: string, project: string, fn: (c: Q, p: number) => Promise<T>): Promise<T> {
    const out = await this.tx(action, project, fn, (p) => `SELECT pg_notify('${MESH_CHANNEL}', '${Number(p)}'); COMMIT`);
    for (const l of this.listeners.get(projectKey(project)) ?? []) queueMicrotask(l);
    return out;
  }

  /** One statement on the pool, no transaction (a read, or a write that is one statement and wakes nobody). */
  private async one<T>(action: string, project: string, fn: (c: Db, p: number) => Promise<T>): Promise<T> {
    try {
      return await fn(this.pool, await this.pid(this.pool, project));
    } catch (err) {
      unavailable(action, this.location, err, 'the mesh');
    }
  }

  private async tx<T>(action: string, project: string, fn: (c: Q, p: number) => Promise<T>, commit: (p: number) => string = () => 'COMMIT'): Promise<T> {
    let client: Q;
    try {
      client = await this.pool.connect();
    } catch (err) {
      unavailable(action, this.location, err, 'the mesh');
    }
    const dropped = () => {}; // a connection lost mid-transaction: the pending query rejects and says so
    client.on('error', dropped);
    try {
      await client.query('BEGIN');
      const p = await this.pid(client, project);
      const out = await fn(client, p);
      await client.query(commit(p));
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      unavailable(action, this.location, err, 'the mesh');
    } finally {
      client.off('error', dropped);
      client.release();
    }
  }

  private async pid(c: Db, project: string): Promise<number> {
    const key = projectKey(project);
    const known = this.projectIds.get(key);
    if (known !== undefined) return known;
    await c.query('INSERT INTO mesh_projects (team, key) VALUES ($1, $2) ON CONFLICT (team, key) DO NOTHING', [this.team, key]);
    const { rows } = await c.query<{ id: number }>('SELECT id FROM mesh_projects WHERE team = $1 AND key = $2', [this.team, key]);
    this.projectIds.set(key, rows[0]!.id);
    return rows[0]!.id;
  }

  /** Serializes writers of one (project, name) or project-wide key for the rest of the transaction. */
  private async lock(c: Q, scope: string, p: number): Promise<void> {
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', [`mesh:${scope}`, p % 2147483647]);
  }

  async register(input: RegisterInput): Promise<AgentRecord> {
    return this.write('register', input.project, async (c, p) => {
      await this.lock(c, `name:${input.name}`, p);
      const { rows } = await c.query<AgentRecord>(`SELECT ${AGENT} FROM mesh_agents WHERE project_id = $1 AND name = $2`, [p, input.name]);
      const held = rows[0];
      if (held && held.session !== input.session && held.leaseUntil > input.now && !input.holderGone(held)) {
        throw new NameTakenError(
          `Cannot register "${input.name}": the name is held by another live session (${held.role || 'agent'}, pid ${held.pid} on ${held.host}); pick another name, or wait until it unregisters or its lease lapses`,
        );
      }
      await c.query('DELETE FROM mesh_agents WHERE session = $1 AND NOT (project_id = $2 AND name = $3)', [input.session, p, input.name]);
      const keep = held !== undefined && held.session === input.session;
      const { rows: out } = await c.query<AgentRecord>(
        `INSERT INTO mesh_agents AS a (project_id, name, session, role, state, detail, lease_until, changed, host, pid)
         VALUES ($1, $2, $3, $4, 'idle', '', $5, $6, $7, $8)
         ON CONFLICT (project_id, name) DO UPDATE SET session = excluded.session, role = excluded.role,
           lease_until = excluded.lease_until, host = excluded.host, pid = excluded.pid,
           state = ${keep ? 'a.state' : 'excluded.state'}, detail = ${keep ? 'a.detail' : 'excluded.detail'}, changed = ${keep ? 'a.changed' : 'excluded.changed'}
         RETURNING ${AGENT}`,
        [p, input.name, input.session, input.role, input.now + input.leaseMs, input.now, input.host, input.pid],
      );
      return out[0]!;
    });
  }

  async renew(project: string, session: string, leaseMs: number, now: number): Promise<boolean> {
    // A lease renewal wakes nobody: it changes no state a waiter looks at.
    return this.one('renew the mesh lease', project, async (c, p) => ((await c.query('UPDATE mesh_agents SET lease_until = $1 WHERE project_id = $2 AND session = $3', [now + leaseMs, p, session])).rowCount ?? 0) > 0);
  }

  async unregister(project: string, session: string): Promise<void> {
    await this.write('unregister', project, async (c, p) => {
      await c.query('DELETE FROM mesh_subscriptions WHERE project_id = $1 AND name IN (SELECT name FROM mesh_agents WHERE project_id = $1 AND session = $2)', [p, session]);
      await c.query('DELETE FROM mesh_agents WHERE project_id = $1 AND session = $2', [p, session]);
    });
  }

  async agents(project: string, now: number): Promise<AgentRecord[]> {
    return this.one('list peers', project, async (c, p) => (await c.query<AgentRecord>(`SELECT ${AGENT} FROM mesh_agents WHERE project_id = $1 AND lease_until > $2 ORDER BY name COLLATE "C"`, [p, now])).rows);
  }

  async agent(project: string, name: string, now: number): Promise<AgentRecord | undefined> {
    return this.one('look up a peer', project, async (c, p) => (await c.query<AgentRecord>(`SELECT ${AGENT} FROM mesh_agents WHERE project_id = $1 AND name = $2 AND lease_until > $3`, [p, name, now])).rows[0]);
  }

  async setState(project: string, name: string, state: AgentState, detail: string, now: number, inboxCap: number): Promise<void> {
    await this.write('report state', project, async (c, p) => {
      await c.query('UPDATE mesh_agents SET state = $1, detail = $2, changed = $3 WHERE project_id = $4 AND name = $5', [state, detail, now, p, name]);
      await this.fanOut(c, p, name, `@${name}`, 'status', detail ? `${state}: ${detail}` : state, now, inboxCap);
    });
  }

  private async fanOut(c: Q, p: number, from: string, channel: string, kind: MessageKind, body: string, now: number, inboxCap: number): Promise<SendResult> {
    const { rows } = await c.query<{ name: string }>('SELECT name FROM mesh_subscriptions WHERE project_id = $1 AND channel = $2 AND name != $3 ORDER BY name COLLATE "C"', [p, channel, from]);
    const out: SendResult = { ids: [], delivered: [], full: [] };
    await this.lockInboxes(c, p, rows.map((r) => r.name));
    for (const { name: to } of rows) {
      if ((await this.pendingIn(c, p, to)) >= inboxCap) {
        out.full.push(to);
        continue;
      }
      out.ids.push(await this.insertMessage(c, p, to, from, channel, kind, body, now));
      out.delivered.push(to);
    }
    return out;
  }

  /**
   * Serializes the senders to these inboxes (the cap's count-then-insert) for the rest of the
   * transaction; other inboxes' senders go on in parallel. Always taken in one order: no deadlock.
   */
  private async lockInboxes(c: Q, p: number, names: string[]): Promise<void> {
    const sorted = [...new Set(names)].sort();
    if (sorted.length === 0) return;
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1 || n), $2) FROM unnest($3::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i', ['mesh:inbox:', p % 2147483647, sorted]);
  }

  private async pendingIn(c: Db, p: number, name: string): Promise<number> {
    return (await c.query<{ n: number }>('SELECT count(*) AS n FROM mesh_messages WHERE project_id = $1 AND recipient = $2', [p, name])).rows[0]!.n;
  }

  private async insertMessage(c: Q, p: number, to: string, from: string, channel: string, kind: MessageKind, body: string, now: number): Promise<number> {
    const { rows } = await c.query<{ id: number }>(
      'INSERT INTO mesh_messages (project_id, recipient, sender, channel, kind, body, created) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
      [p, to, from, channel, kind, body, now],
    );
    return rows[0]!.id;
  }

  async send(input: SendInput): Promise<SendResult> {
    return this.write('send', input.project, async (c, p) => {
      if (input.channel !== undefined && input.kind === 'channel') return this.fanOut(c, p, input.from, input.channel, 'channel', input.body, input.now, input.inboxCap);
      const out: SendResult = { ids: [], delivered: [], full: [] };
      await this.lockInboxes(c, p, input.to ?? []);
      for (const to of input.to ?? []) {
        const live = (await c.query('SELECT 1 FROM mesh_agents WHERE project_id = $1 AND name = $2 AND lease_until > $3', [p, to, input.now])).rowCount;
        if (!live && input.kind !== 'worker') throw new UnknownPeerError(`Cannot send to "${to}": no agent of this project is registered under that name; mesh_peers lists who is`);
        if ((await this.pendingIn(c, p, to)) >= input.inboxCap) {
          throw new InboxFullError(`Cannot send to "${to}": its inbox is full (${input.inboxCap} unacknowledged messages); nothing was sent. Try again after it acks, or wait for its reply`);
        }
        out.ids.push(await this.insertMessage(c, p, to, input.from, input.channel ?? '', input.kind, input.body, input.now));
        out.delivered.push(to);
      }
      return out;
    });
  }

  async subscribe(project: string, name: string, channels: string[], on: boolean): Promise<string[]> {
    return this.write('subscribe', project, async (c, p) => {
      for (const ch of channels) {
        if (on) await c.query('INSERT INTO mesh_subscriptions (project_id, channel, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [p, ch, name]);
        else await c.query('DELETE FROM mesh_subscriptions WHERE project_id = $1 AND channel = $2 AND name = $3', [p, ch, name]);
      }
      return (await c.query<{ channel: string }>('SELECT channel FROM mesh_subscriptions WHERE project_id = $1 AND name = $2 ORDER BY channel COLLATE "C"', [p, name])).rows.map((r) => r.channel);
    });
  }

  async inbox(project: string, name: string, session: string, options: { limit: number; fresh: boolean }): Promise<MessageRecord[]> {
    return this.one('read the inbox', project, async (c, p) => {
      // Read and mark handed in one statement (rows locked): the redelivery flag is exact with two readers.
      const { rows } = await c.query<MessageRecord & { handed: number }>(
        `UPDATE mesh_messages m SET handed_to = $3, handed = m.handed + 1
         WHERE m.id IN (SELECT id FROM mesh_messages WHERE project_id = $1 AND recipient = $2 ${options.fresh ? 'AND handed_to IS DISTINCT FROM $3' : ''} ORDER BY id LIMIT $4 FOR UPDATE)
         RETURNING m.id, m.sender AS "from", m.recipient AS "to", m.channel, m.kind, m.body, m.created, m.handed - 1 AS handed`,
        [p, name, session, options.limit],
      );
      return rows.sort((a, b) => a.id - b.id).map(({ handed, ...m }) => ({ ...m, redelivered: handed > 0 }));
    });
  }

  async pending(project: string, name: string): Promise<number> {
    return this.one('count the inbox', project, (c, p) => this.pendingIn(c, p, name));
  }

  async ack(project: string, name: string, ids: number[]): Promise<number[]> {
    const valid = ids.filter((id) => Number.isSafeInteger(id));
    return this.write('acknowledge', project, async (c, p) => {
      const { rows } = await c.query<{ id: number }>('DELETE FROM mesh_messages WHERE id = ANY($1::bigint[]) AND project_id = $2 AND recipient = $3 RETURNING id', [valid, p, name]);
      const gone = new Set(rows.map((r) => r.id));
      return valid.filter((id) => gone.has(id));
    });
  }

  async offer(project: string, postedBy: string, title: string, body: string, now: number): Promise<WorkItem> {
    return this.write('offer work', project, async (c, p) =>
      (await c.query<WorkItem>(`INSERT INTO mesh_work (project_id, title, body, posted_by, state, claimed_by, note, created, changed) VALUES ($1, $2, $3, $4, 'open', '', '', $5, $5) RETURNING ${WORK}`, [p, title, body, postedBy, now])).rows[0]!,
    );
  }

  async claim(project: string, name: string, now: number, id?: number): Promise<WorkItem | undefined> {
    return this.write('claim work', project, async (c, p) => {
      if (id !== undefined) {
        const row = (await c.query<WorkItem>(`SELECT ${WORK} FROM mesh_work WHERE project_id = $1 AND id = $2 FOR UPDATE`, [p, id])).rows[0];
        if (!row) throw new RangeError(`Cannot claim work item ${id}: this project has no such item; mesh_claim without an id takes the oldest open one`);
        if (row.state === 'claimed' && row.claimedBy === name) return row;
        if (row.state !== 'open') throw new Error(`Cannot claim work item ${id}: it is ${row.state === 'done' ? 'done' : `claimed by "${row.claimedBy}"`}`);
        return (await c.query<WorkItem>(`UPDATE mesh_work SET state = 'claimed', claimed_by = $1, changed = $2 WHERE id = $3 RETURNING ${WORK}`, [name, now, id])).rows[0];
      }
      // SKIP LOCKED: racing claimers each take a different open item, never the same one.
      const { rows } = await c.query<WorkItem>(
        `UPDATE mesh_work SET state = 'claimed', claimed_by = $1, changed = $2
         WHERE id = (SELECT id FROM mesh_work WHERE project_id = $3 AND state = 'open' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING ${WORK}`,
        [name, now, p],
      );
      return rows[0];
    });
  }

  async finish(project: string, name: string, id: number, outcome: 'done' | 'release', note: string, now: number): Promise<WorkItem> {
    return this.write('finish work', project, async (c, p) => {
      const row = (await c.query<WorkItem>(`SELECT ${WORK} FROM mesh_work WHERE project_id = $1 AND id = $2 FOR UPDATE`, [p, id])).rows[0];
      if (!row || row.state !== 'claimed' || row.claimedBy !== name) {
        throw new Error(`Cannot finish work item ${id}: ${!row ? 'this project has no such item' : row.state === 'claimed' ? `it is claimed by "${row.claimedBy}", not you` : `it is ${row.state}, not claimed by you`}`);
      }
      const next = outcome === 'done' ? `state = 'done'` : `state = 'open', claimed_by = ''`;
      return (await c.query<WorkItem>(`UPDATE mesh_work SET ${next}, note = $1, changed = $2 WHERE id = $3 RETURNING ${WORK}`, [note, now, id])).rows[0]!;
    });
  }

  async work(project: string, options: { limit: number; done: boolean; afterId?: number; claimedBy?: string; state?: WorkState }): Promise<WorkItem[]> {
    return this.one('list work', project, async (c, p) => {
      const params: Array<string | number> = [p];
      const where = ['project_id = $1'];
      const add = (sql: string, v: string | number) => {
        params.push(v);
        where.push(sql.replace('?', `$${params.length}`));
      };
      if (options.state) add('state = ?', options.state);
      else if (!options.done) where.push(`state != 'done'`);
      if (options.afterId !== undefined) add('id > ?', options.afterId);
      if (options.claimedBy !== undefined) add(`claimed_by = ? AND state = 'claimed'`, options.claimedBy);
      params.push(options.limit);
      return (await c.query<WorkItem>(`SELECT ${WORK} FROM mesh_work WHERE ${where.join(' AND ')} ORDER BY id LIMIT $${params.length}`, params)).rows;
    });
  }

  async addWorker(project: string, r: Omit<WorkerRecord, 'id'>): Promise<WorkerRecord> {
    return this.write('record a worker', project, async (c, p) =>
      (
        await c.query<WorkerRecord>(
          `INSERT INTO mesh_workers (project_id, worker, owner, owner_session, host, pid, state, exit_code, log, started, ended, limit_ms)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${WORKER}`,
          [p, r.worker, r.owner, r.ownerSession, r.host, r.pid, r.state, r.exitCode, r.log, r.started, r.ended, r.limitMs],
        )
      ).rows[0]!,
    );
  }

  async endWorker(project: string, id: number, state: WorkerState, exitCode: number | null, now: number): Promise<void> {
    await this.write('record a worker\'s end', project, (c, p) =>
      c.query(`UPDATE mesh_workers SET state = $1, exit_code = $2, ended = $3 WHERE project_id = $4 AND id = $5 AND state = 'running'`, [state, exitCode, now, p, id]),
    );
  }

  async workers(project: string, limit: number): Promise<WorkerRecord[]> {
    return this.one('list workers', project, async (c, p) => (await c.query<WorkerRecord>(`SELECT ${WORKER} FROM mesh_workers WHERE project_id = $1 ORDER BY state = 'running' DESC, id DESC LIMIT $2`, [p, limit])).rows);
  }

  onChange(project: string, listener: () => void): () => void {
    const key = projectKey(project);
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    void this.listen();
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /** The LISTEN connection, (re)opened while anyone waits; a reconnect wakes everyone once (a NOTIFY may have been missed). */
  private async listen(): Promise<void> {
    if (this.listener || this.connecting || this.closed) return;
    this.connecting = (async () => {
      const client = new this.pgModule.Client(poolConfig(this.pgModule, this.url));
      const lost = () => {
        if (this.listener === client) this.listener = null;
        client.end().catch(() => {});
        if (!this.closed && this.listeners.size > 0) setTimeout(() => void this.listen(), 500).unref();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (n) => {
        const p = Number(n.payload);
        for (const [key, set] of this.listeners) {
          const id = this.projectIds.get(key);
          if (id === undefined || id === p) for (const l of set) queueMicrotask(l);
        }
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${MESH_CHANNEL}`);
        this.listener = client;
        for (const set of this.listeners.values()) for (const l of set) queueMicrotask(l);
      } catch {
        lost();
      }
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.connecting;
    await this.listener?.end().catch(() => {});
    this.listener = null;
    await this.pool.end().catch(() => {});
  }
}
