import type Database from 'better-sqlite3';
import { type Budget } from './budget.ts';
import { refuseCredentials } from './credentials.ts';
import { NotFoundError } from './errors.ts';
import { projectKey } from './identity.ts';
import { LifecycleLock } from './lock.ts';
import { ensureDataDir, openDatabase } from './open.ts';
import { dataDir, dbPath } from './paths.ts';
import { indexedText, matchExpression, queryTerms } from './query.ts';
import { DF_SAMPLE, RankState, rankPlan, runSync, type RankMeta, type RankRequest } from './rank.ts';
import { withRetry } from './retry.ts';
import { checkRemember, checkSupersedable, digestOf, historyOf, recallLimit, shapePage, shapeRecall, toRecord } from './shape.ts';
import { STATES, type MemoryRecord, type ReadResult, type RecallResult, type RememberInput, type RememberResult, type Scope, type StoredRow } from './types.ts';

export * from './types.ts';
export { TERM_WINDOW, DF_SAMPLE, RECENCY_HALF_LIFE_DAYS } from './rank.ts';

interface Row extends StoredRow {
  scope_key: number;
  project_id: number;
}

export interface StoreOptions {
  /** Data directory; default from the environment (see dataDir). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  /** Unix seconds; injectable for tests. */
  clock?: () => number;
  /** Take the shared lifecycle lock (default true). */
  lock?: boolean;
  busyTimeoutMs?: number;
}

const SELECT_ROW = `SELECT m.id, m.body, m.source, CASE m.scope_key WHEN 0 THEN 'global' ELSE 'project' END AS scope, p.path AS project, m.created, m.state, m.superseded_by,
  m.changed, m.scope_key, m.project_id FROM memories m JOIN projects p ON p.id = m.project_id`;

/**
 * Durable agent memory in one SQLite file: remember (store + supersede in one transaction), recall
 * (FTS5 + recency under the scope rule), readmemory (exact UTF-8 byte pages), and the owner's
 * list/show/forget/restore/export/import. Scope rule: everything global plus everything of the
 * caller's project, nothing of any other project.
 */
export class MemoryStore {
  readonly db: Database.Database;
  readonly file: string;
  readonly dir: string;
  private readonly lock: LifecycleLock | null;
  private readonly clock: () => number;
  private readonly projectIds = new Map<string, number>();
  private readonly stmts: ReturnType<MemoryStore['prepare']>;

  constructor(db: Database.Database, file: string, dir: string, lock: LifecycleLock | null, clock?: () => number) {
    this.db = db;
    this.file = file;
    this.dir = dir;
    this.lock = lock;
    this.clock = clock ?? (() => Math.floor(Date.now() / 1000));
    this.stmts = this.prepare();
  }

  /** Opens the store in the data directory, holding the shared lifecycle lock until close(). */
  static open(options: StoreOptions = {}): MemoryStore {
    const dir = options.dir ?? dataDir(options.env);
    ensureDataDir(dir);
    const lock = options.lock === false ? null : LifecycleLock.acquire(dir, 'shared');
    try {
      const file = dbPath(dir);
      const db = withRetry(() => openDatabase(file, { busyTimeoutMs: options.busyTimeoutMs }));
      return new MemoryStore(db, file, dir, lock, options.clock);
    } catch (err) {
      lock?.release();
      throw err;
    }
  }

  private prepare() {
    const db = this.db;
    return {
      projectId: db.prepare<[string], { id: number }>('SELECT id FROM projects WHERE path = ?'),
      insertProject: db.prepare<[string]>('INSERT INTO projects (path) VALUES (?) ON CONFLICT (path) DO NOTHING'),
      row: db.prepare<[number], Row>(`${SELECT_ROW} WHERE m.id = ?`),
      duplicate: db.prepare<[number, number, string], { id: number }>(
        'SELECT id FROM memories WHERE scope_key = ? AND digest = ? AND state = 0 AND body = ? LIMIT 1',
      ),
      insert: db.prepare<[string, string, number, number, number, number, number]>(
        `INSERT INTO memories (body, source, project_id, scope_key, created, changed, digest, state)
         VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
      ),
      ftsInsert: db.prepare<[number, string]>('INSERT INTO memories_fts (rowid, text) VALUES (?, ?)'),
      ftsDelete: db.prepare<[number, string]>("INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', ?, ?)"),
      supersede: db.prepare<[number, number, number]>('UPDATE memories SET state = 1, superseded_by = ?, changed = ? WHERE id = ?'),
      setState: db.prepare<[number, number, number]>('UPDATE memories SET state = ?, changed = ? WHERE id = ?'),
      revive: db.prepare<[number, number]>('UPDATE memories SET state = 0, superseded_by = NULL, changed = ? WHERE id = ?'),
      recentIds: db.prepare<[number, number], { id: number }>(
        'SELECT id FROM memories WHERE state = 0 AND scope_key = ? ORDER BY id DESC LIMIT ?',
      ),
      countLive: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM memories WHERE state = 0 AND scope_key = ?'),
      // rowid is the negated id: ascending rowid order is newest first and streams without sorting.
      matches: db.prepare<[string, number], { rid: number }>('SELECT rowid AS rid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid LIMIT ?'),
      meta: db.prepare<[number], { created: number; state: number; scope_key: number }>('SELECT created, state, scope_key FROM memories WHERE id = ?'),
      liveTotal: db.prepare<[], { n: number; top: number | null }>('SELECT count(*) AS n, max(id) AS top FROM memories WHERE state = 0'),
      replaced: db.prepare<[number], { id: number }>('SELECT id FROM memories WHERE superseded_by = ? ORDER BY id'),
    };
  }

  /** Releases the database and the lifecycle lock. */
  close(): void {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }

  now(): number {
    return this.clock();
  }

  /** The id of a project (by its key, see projectKey), or null when nothing was ever stored for it. */
  private findProject(path: string): number | null {
    const cached = this.projectIds.get(path);
    if (cached !== undefined) return cached;
    const row = this.stmts.projectId.get(projectKey(path));
    if (!row) return null;
    this.projectIds.set(path, row.id);
    return row.id;
  }

  // projects.path holds the project key: the normalized git remote URL, else the path (migration 2).
  private ensureProject(path: string): number {
    const found = this.findProject(path);
    if (found !== null) return found;
    const key = projectKey(path);
    this.stmts.insertProject.run(key);
    const id = this.stmts.projectId.get(key)!.id;
    this.projectIds.set(path, id);
    return id;
  }

  /** Removes a live memory from the full-text index (the exact text it was indexed with). */
  private unindex(id: number): void {
    const row = this.stmts.row.get(id)!;
    this.stmts.ftsDelete.run(-id, indexedText(row.body, row.source, row.scope_key === 0 ? null : row.scope_key));
  }

  /** A row visible from `project` under the scope rule and live, else null. */
  private visibleRow(id: number, project: string): Row | null {
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    const row = this.stmts.row.get(id);
    if (!row || row.state !== 0) return null;
    if (row.scope === 'project' && row.project !== projectKey(project)) return null;
    return row;
  }

  /**
   * Stores a memory and supersedes `supersedes` in one transaction. A body identical to a live memory
   * of the same scope is not stored twice (`stored: false`, the existing id). Throws
   * CredentialRefusedError when the content, source or project looks like a credential, RangeError for a bad supersedes id (nothing
   * is stored then).
   */
  remember(input: RememberInput): RememberResult {
    const { body, source, supersedes, digest } = checkRemember(input);
    const now = this.clock();
    const knownProject = this.projectIds.has(input.project);
    try {
      return this.rememberTx(input, body, source, supersedes, digest, now);
    } catch (err) {
      // A rolled-back transaction may have created the project row: forget its cached id.
      if (!knownProject) this.projectIds.delete(input.project);
      throw err;
    }
  }

  private rememberTx(input: RememberInput, body: string, source: string, supersedes: number[], digest: number, now: number): RememberResult {
    return withRetry(() =>
      this.db
        .transaction((): RememberResult => {
          const projectId = this.ensureProject(input.project);
          const scopeKey = input.scope === 'global' ? 0 : projectId;
          for (const old of supersedes) this.checkSupersedable(old, input.scope, input.project);
          if (supersedes.length === 0) {
            const dup = this.stmts.duplicate.get(scopeKey, digest, body);
            if (dup) return { id: dup.id, stored: false, superseded: [] };
          }
          const id = Number(this.stmts.insert.run(body, source, projectId, scopeKey, now, now, digest).lastInsertRowid);
          this.stmts.ftsInsert.run(-id, indexedText(body, source, scopeKey === 0 ? null : scopeKey));
          for (const old of supersedes) {
            this.unindex(old);
            this.stmts.supersede.run(id, now, old);
          }
          this.rank.adjust(1 - supersedes.length, id);
          return { id, stored: true, superseded: supersedes };
        })
        .immediate(),
    );
  }

  private checkSupersedable(id: number, scope: Scope, project: string): void {
    const row = Number.isSafeInteger(id) && id > 0 ? this.stmts.row.get(id) : undefined;
    checkSupersedable(id, row, scope, project, row !== undefined && row.project === projectKey(project));
  }

  /** Live memories visible from `project`: recent first for an empty query, else FTS5 relevance x recency. */
  recall(input: { query?: string; limit?: number; budget?: Budget; project: string }): RecallResult {
    const limit = recallLimit(input.limit);
    const projectId = this.findProject(input.project);
    const terms = queryTerms(input.query ?? '');
    const ids = withRetry(() => (terms.length === 0 ? this.recentIdList(projectId, limit) : this.search(terms, projectId, limit)));
    const rows = ids.map((id) => this.stmts.row.get(id)).filter((r) => r !== undefined);
    return shapeRecall(rows, input.budget ?? 'lean');
  }

  private recentIdList(projectId: number | null, limit: number): number[] {
    const global = this.stmts.recentIds.all(0, limit).map((r) => r.id);
    const own = projectId === null ? [] : this.stmts.recentIds.all(projectId, limit).map((r) => r.id);
    return [...global, ...own].sort((a, b) => b - a).slice(0, limit);
  }

  /** Relevance x recency (rank.ts) over the FTS5 index. */
  private search(terms: string[], projectId: number | null, limit: number): number[] {
    return runSync(rankPlan(this.rank, terms, projectId, limit, this.clock()), (r) => this.answer(r));
  }

  private answer(r: RankRequest): unknown {
    if (r.kind === 'total') return this.stmts.liveTotal.get()!;
    if (r.kind === 'meta') {
      const metas = new Map<number, RankMeta>();
      for (const id of r.ids) {
        const m = this.stmts.meta.get(id);
        if (m) metas.set(id, { created: m.created, state: m.state, scopeKey: m.scope_key });
      }
      return metas;
    }
    if (r.kind === 'df') {
      const ids = this.matchIds(matchExpression([r.term], 'OR', undefined), DF_SAMPLE);
      return { count: ids.length, oldest: ids.length > 0 ? ids[ids.length - 1]! : null };
    }
    return this.matchIds(matchExpression(r.terms, r.op, r.projectId), r.window);
  }

  private matchIds(expression: string, window: number): number[] {
    try {
      return this.stmts.matches.all(expression, window).map((r) => -r.rid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_ERROR') return []; // a term the tokenizer splits (phrase): skip it
      throw err;
    }
  }

  private readonly rank = new RankState();

  /**
   * One exact byte page of a memory's body. Missing, superseded, forgotten or out-of-scope ids give
   * `memory: null`. Throws RangeError for an offset inside a character or past the end.
   */
  read(input: { id: number; project: string; offset?: number; budget?: Budget }): ReadResult {
    const row = withRetry(() => this.visibleRow(input.id, input.project));
    return shapePage(row, input.offset ?? 0, input.budget ?? 'lean');
  }

  /** Number of live memories visible from `project`. */
  count(project: string): number {
    const projectId = this.findProject(project);
    return withRetry(() => this.stmts.countLive.get(0)!.n + (projectId === null ? 0 : this.stmts.countLive.get(projectId)!.n));
  }

  /** The most recent live memories visible from `project`, newest first. */
  recent(project: string, limit: number): MemoryRecord[] {
    const ids = withRetry(() => this.recentIdList(this.findProject(project), limit));
    return ids.map((id) => toRecord(this.stmts.row.get(id)!));
  }

  // ---- owner operations (CLI) ----

  /** Memories for the owner: live ones visible from `project`, or with `all` every memory in any state. */
  list(options: { project?: string; all?: boolean; limit?: number }): MemoryRecord[] {
    const limit = Math.max(1, options.limit ?? 1000);
    if (options.all || options.project === undefined) {
      const where = options.all ? '' : 'WHERE m.state = 0';
      return this.db.prepare<[number], Row>(`${SELECT_ROW} ${where} ORDER BY m.id DESC LIMIT ?`).all(limit).map(toRecord);
    }
    return this.recent(options.project, limit);
  }

  /** Any memory by id, in any state, with its history: what it replaced (transitively) and what replaced it. */
  show(id: number): { memory: MemoryRecord; history: MemoryRecord[] } {
    const row = this.stmts.row.get(id);
    if (!row) throw new NotFoundError(`Cannot show memory ${id}: no memory has that id (synaptic memory list shows ids)`);
    const history = historyOf(
      row,
      (of) => this.stmts.replaced.all(of).map((r) => r.id),
      (at) => this.stmts.row.get(at),
    );
    return { memory: toRecord(row), history };
  }

  /** Hides a live memory from every tool (kept as history; `restore` brings it back). */
  forget(id: number): MemoryRecord {
    return withRetry(() =>
      this.db
        .transaction(() => {
          const row = this.stmts.row.get(id);
          if (!row) throw new NotFoundError(`Cannot forget memory ${id}: no memory has that id`);
          if (row.state === 0) {
            this.unindex(id);
            this.stmts.setState.run(2, this.clock(), id);
            this.rank.adjust(-1);
          }
          return toRecord(this.stmts.row.get(id)!);
        })
        .immediate(),
    );
  }

  /** Makes a superseded or forgotten memory live again (the memory that replaced it stays live). */
  restore(id: number): MemoryRecord {
    return withRetry(() =>
      this.db
        .transaction(() => {
          const row = this.stmts.row.get(id);
          if (!row) throw new NotFoundError(`Cannot restore memory ${id}: no memory has that id`);
          if (row.state !== 0) {
            this.stmts.revive.run(this.clock(), id);
            this.rank.adjust(1);
            this.stmts.ftsInsert.run(-id, indexedText(row.body, row.source, row.scope_key === 0 ? null : row.scope_key));
          }
          return toRecord(this.stmts.row.get(id)!);
        })
        .immediate(),
    );
  }

  /** Every memory, oldest first (export). */
  *exportAll(): Generator<MemoryRecord> {
    for (const r of this.db.prepare<[], Row>(`${SELECT_ROW} ORDER BY m.id`).iterate()) yield toRecord(r);
  }

  /**
   * Imports exported records in one transaction: new ids, `supersededBy` remapped inside the batch,
   * exact duplicates (same body, scope, project and creation time) skipped, credentials refused.
   */
  importRecords(records: MemoryRecord[]): { imported: number; skipped: number } {
    for (const r of records) refuseCredentials(`import memory ${r.id}`, { content: r.body, source: r.source, project: r.project });
    try {
      return this.importTx(records);
    } catch (err) {
      this.projectIds.clear(); // project rows made by the rolled-back transaction are gone
      throw err;
    }
  }

  private importTx(records: MemoryRecord[]): { imported: number; skipped: number } {
    return withRetry(() =>
      this.db
        .transaction(() => {
          const idMap = new Map<number, number>();
          let imported = 0;
          let skipped = 0;
          const exists = this.db.prepare<[string, string, number, number], { id: number }>(
            'SELECT m.id FROM memories m JOIN projects p ON p.id = m.project_id WHERE m.body = ? AND p.path = ? AND m.created = ? AND m.scope_key = (CASE WHEN ? THEN 0 ELSE m.project_id END)',
          );
          for (const r of records) {
            const projectId = this.ensureProject(r.project);
            const dup = exists.get(r.body, projectKey(r.project), r.created, r.scope === 'global' ? 1 : 0);
            if (dup) {
              idMap.set(r.id, dup.id);
              skipped++;
              continue;
            }
            const scopeKey = r.scope === 'global' ? 0 : projectId;
            const id = Number(this.stmts.insert.run(r.body, r.source, projectId, scopeKey, r.created, r.changed ?? r.created, digestOf(r.body)).lastInsertRowid);
            idMap.set(r.id, id);
            const state = STATES.indexOf(r.state);
            if (state > 0) this.stmts.setState.run(state, r.changed ?? r.created, id);
            else this.stmts.ftsInsert.run(-id, indexedText(r.body, r.source, scopeKey === 0 ? null : scopeKey));
            imported++;
          }
          for (const r of records) {
            if (r.supersededBy === null || r.supersededBy === undefined) continue;
            const to = idMap.get(r.supersededBy);
            if (to !== undefined) this.db.prepare('UPDATE memories SET superseded_by = ? WHERE id = ?').run(to, idMap.get(r.id)!);
          }
          return { imported, skipped };
        })
        .immediate(),
    );
  }

  /** Online backup to `file` (consistent snapshot; writers keep going). */
  async backup(file: string): Promise<void> {
    await this.db.backup(file);
  }
}
