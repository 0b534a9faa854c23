import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { BUDGETS, SOURCE_ALLOWANCE, fitBodies, type Budget } from './budget.ts';
import { refuseCredentials } from './credentials.ts';
import { NotFoundError } from './errors.ts';
import { LifecycleLock } from './lock.ts';
import { ensureDataDir, openDatabase } from './open.ts';
import { dataDir, dbPath } from './paths.ts';
import { indexedText, matchExpression, queryTerms, quote } from './query.ts';
import { withRetry } from './retry.ts';
import { bytePage, truncateUtf8, utf8Length } from './utf8.ts';

export type Scope = 'global' | 'project';
export type MemoryState = 'live' | 'superseded' | 'forgotten';

/** Largest body a memory may hold (UTF-8 bytes). */
export const MAX_BODY_BYTES = 256 * 1024;
/** Largest source label stored (UTF-8 bytes); output shows at most SOURCE_ALLOWANCE of it. */
export const MAX_SOURCE_BYTES = 4096;
/** Per-term window (newest matches of one term) when too few memories hold every term; bounds p99. */
export const TERM_WINDOW = 48;
/** Document frequencies are counted exactly up to this many matches, then estimated from density. */
export const DF_SAMPLE = 500;
/** Recency half-life: a memory this many days old weighs 3/4 of a new one, and never below 1/2. */
export const RECENCY_HALF_LIFE_DAYS = 30;
export const DEFAULT_RECALL_LIMIT = 8;
export const MAX_RECALL_LIMIT = 50;

const STATES: MemoryState[] = ['live', 'superseded', 'forgotten'];

export interface RememberInput {
  content: string;
  source: string;
  scope: Scope;
  /** Resolved project path (see resolveProject). */
  project: string;
  supersedes?: number[];
}

export interface RememberResult {
  id: number;
  stored: boolean;
  superseded: number[];
}

export interface RecalledMemory {
  id: number;
  body: string;
  source: string;
  scope: Scope;
  project: string;
  created: number;
  abridged?: true;
}

export interface RecallResult {
  optimization: Budget;
  memories: RecalledMemory[];
}

export interface MemoryPage {
  id: number;
  body: string;
  source: string;
  sourceabridged: boolean;
  scope: Scope;
  project: string;
  created: number;
  offset: number;
  next: number | null;
  total: number;
}

export interface ReadResult {
  optimization: Budget;
  memory: MemoryPage | null;
}

/** A memory with its owner-facing metadata (CLI, export). */
export interface MemoryRecord {
  id: number;
  body: string;
  source: string;
  scope: Scope;
  project: string;
  created: number;
  state: MemoryState;
  supersededBy: number | null;
  changed: number;
}

interface Row {
  id: number;
  body: string;
  source: string;
  scope: Scope;
  project: string;
  created: number;
  state: number;
  superseded_by: number | null;
  changed: number;
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

function digestOf(body: string): number {
  return createHash('sha256').update(body).digest().readUIntBE(0, 6);
}

function toRecord(r: Row): MemoryRecord {
  return {
    id: r.id,
    body: r.body,
    source: r.source,
    scope: r.scope,
    project: r.project,
    created: r.created,
    state: STATES[r.state]!,
    supersededBy: r.superseded_by,
    changed: r.changed,
  };
}

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

  /** The id of a project path, or null when nothing was ever stored for it. */
  private findProject(path: string): number | null {
    const cached = this.projectIds.get(path);
    if (cached !== undefined) return cached;
    const row = this.stmts.projectId.get(path);
    if (!row) return null;
    this.projectIds.set(path, row.id);
    return row.id;
  }

  private ensureProject(path: string): number {
    const found = this.findProject(path);
    if (found !== null) return found;
    this.stmts.insertProject.run(path);
    const id = this.stmts.projectId.get(path)!.id;
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
    if (row.scope === 'project' && row.project !== project) return null;
    return row;
  }

  /**
   * Stores a memory and supersedes `supersedes` in one transaction. A body identical to a live memory
   * of the same scope is not stored twice (`stored: false`, the existing id). Throws
   * CredentialRefusedError when the content, source or project looks like a credential, RangeError for a bad supersedes id (nothing
   * is stored then).
   */
  remember(input: RememberInput): RememberResult {
    const body = input.content;
    if (typeof body !== 'string' || body.trim() === '') throw new TypeError('Cannot remember: content is empty; pass the fact to store');
    if (utf8Length(body) > MAX_BODY_BYTES) {
      throw new RangeError(`Cannot remember: content is ${utf8Length(body)} bytes, over the ${MAX_BODY_BYTES}-byte limit; store a summary and keep the document in the repository`);
    }
    refuseCredentials('remember', { content: body, source: input.source, project: input.project });
    const source = truncateUtf8(input.source.trim() || 'agent', MAX_SOURCE_BYTES).text;
    if (input.scope !== 'global' && input.scope !== 'project') {
      throw new TypeError(`Cannot remember: scope "${String(input.scope)}" is not global or project`);
    }
    const supersedes = [...new Set(input.supersedes ?? [])];
    const digest = digestOf(body);
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
          this.adjustTotal(1 - supersedes.length, id);
          return { id, stored: true, superseded: supersedes };
        })
        .immediate(),
    );
  }

  private checkSupersedable(id: number, scope: Scope, project: string): void {
    if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError(`Cannot remember: supersedes id ${id} is not a memory id; nothing was stored`);
    const row = this.stmts.row.get(id);
    if (!row || (row.scope === 'project' && row.project !== project)) {
      throw new RangeError(`Cannot remember: memory ${id} does not exist in this scope (global or project ${project}); nothing was stored. Recall to find the id to supersede`);
    }
    if (row.scope !== scope) {
      throw new RangeError(
        `Cannot remember: memory ${id} is ${row.scope} memory and the new one is ${scope}; a memory can only supersede one of the same scope, so nothing was stored. Remember with scope ${row.scope} to replace it`,
      );
    }
    if (row.state === 1) {
      throw new RangeError(`Cannot remember: memory ${id} was already superseded by ${row.superseded_by}; nothing was stored. Supersede ${row.superseded_by} instead`);
    }
    if (row.state === 2) throw new RangeError(`Cannot remember: memory ${id} was forgotten by the owner; nothing was stored`);
  }

  /** Live memories visible from `project`: recent first for an empty query, else FTS5 relevance x recency. */
  recall(input: { query?: string; limit?: number; budget?: Budget; project: string }): RecallResult {
    const budget: Budget = input.budget ?? 'lean';
    const limit = Math.min(MAX_RECALL_LIMIT, Math.max(1, Math.floor(input.limit ?? DEFAULT_RECALL_LIMIT)));
    const projectId = this.findProject(input.project);
    const terms = queryTerms(input.query ?? '');
    const ids = withRetry(() => (terms.length === 0 ? this.recentIdList(projectId, limit) : this.search(terms, projectId, limit)));
    const rows = ids.map((id) => this.stmts.row.get(id)!).filter((r) => r !== undefined);
    const fitted = fitBodies(
      rows.map((r) => r.body),
      BUDGETS[budget].recallBytes,
    );
    const memories = fitted.map((f, i): RecalledMemory => {
      const r = rows[i]!;
      const m: RecalledMemory = {
        id: r.id,
        body: f.body,
        source: truncateUtf8(r.source, SOURCE_ALLOWANCE).text,
        scope: r.scope,
        project: r.project,
        created: r.created,
      };
      if (f.abridged) m.abridged = true;
      return m;
    });
    return { optimization: budget, memories };
  }

  private recentIdList(projectId: number | null, limit: number): number[] {
    const global = this.stmts.recentIds.all(0, limit).map((r) => r.id);
    const own = projectId === null ? [] : this.stmts.recentIds.all(projectId, limit).map((r) => r.id);
    return [...global, ...own].sort((a, b) => b - a).slice(0, limit);
  }

  /**
   * Relevance x recency without a full scan: candidates are the newest matches of the query (all
   * terms, then each term alone when that finds too few), scored by the summed IDF of the terms they
   * hold (a coordination-weighted BM25 without term frequency) and weighted by age. Every index read is bounded by a window, so cost does not grow with
   * the store; document frequencies are cached and re-counted as the store changes.
   */
  private search(terms: string[], projectId: number | null, limit: number): number[] {
    const df = new Map(terms.map((t) => [t, this.docFrequency(t)]));
    const { n } = this.liveTotal();
    const idf = new Map(terms.map((t) => [t, Math.log(1 + (Math.max(n, df.get(t)!) - df.get(t)! + 0.5) / (df.get(t)! + 0.5))]));
    const scored = new Map<number, number>();
    // Memories holding every term share one score, so recency alone orders them: the newest
    // `limit` are all that can win, and the index streams them newest first.
    const all = [...idf.values()].reduce((a, b) => a + b, 0);
    for (const m of this.matchIds(matchExpression(terms, 'AND', projectId), limit)) scored.set(m, all);
    if (scored.size < limit && terms.length > 1) {
      const full = new Set(scored.keys());
      const byRarity = terms.filter((t) => df.get(t)! > 0).sort((a, b) => idf.get(b)! - idf.get(a)!);
      const top = byRarity.length > 0 ? idf.get(byRarity[0]!)! : 0;
      // Near-stopwords (a small fraction of the rarest term's weight) add noise and cost, not rank.
      for (const t of byRarity.filter((x, i) => i === 0 || idf.get(x)! >= top * 0.25)) {
        const w = idf.get(t)!;
        for (const m of this.matchIds(matchExpression([t], 'OR', projectId), Math.max(TERM_WINDOW, limit * 4))) {
          if (!full.has(m)) scored.set(m, (scored.get(m) ?? 0) + w);
        }
      }
    }
    // Recency re-weighs the strongest candidates only (bounded row reads); the scope is re-checked here.
    const short = [...scored.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, limit * 4);
    const now = this.clock();
    const final: Array<[number, number]> = [];
    for (const [id, score] of short) {
      const meta = this.stmts.meta.get(id);
      if (!meta || meta.state !== 0 || (meta.scope_key !== 0 && meta.scope_key !== projectId)) continue;
      const ageDays = Math.max(0, now - meta.created) / 86400;
      final.push([id, score * (0.5 + 0.5 * Math.pow(2, -ageDays / RECENCY_HALF_LIFE_DAYS))]);
    }
    return final
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, limit)
      .map(([id]) => id);
  }

  private matchIds(expression: string, window: number): number[] {
    try {
      return this.stmts.matches.all(expression, window).map((r) => -r.rid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_ERROR') return []; // a term the tokenizer splits (phrase): skip it
      throw err;
    }
  }

  private total: { n: number; top: number; checked: number } | null = null;
  private readonly dfCache = new Map<string, { df: number; at: number }>();

  /** Keeps the cached live count current with this process's own writes (others' show up on re-count). */
  private adjustTotal(delta: number, newId = 0): void {
    if (!this.total) return;
    this.total.n = Math.max(1, this.total.n + delta);
    this.total.top = Math.max(this.total.top, newId);
  }

  /** Live memory count and newest id, for IDF; re-counted at most every 30 s (a count is O(n)). */
  private liveTotal(): { n: number; top: number } {
    if (!this.total || Date.now() - this.total.checked > 30_000) {
      const r = this.stmts.liveTotal.get()!;
      this.total = { n: Math.max(1, r.n), top: r.top ?? 0, checked: Date.now() };
    }
    return this.total;
  }

  /**
   * How many live memories hold `term` (any scope): counted up to DF_SAMPLE matches, past that
   * extrapolated from how far back the newest DF_SAMPLE reach. Cached per term until the store
   * grows or shrinks by 10%.
   */
  private docFrequency(term: string): number {
    const { n, top } = this.liveTotal();
    const hit = this.dfCache.get(term);
    if (hit && Math.abs(n - hit.at) <= Math.max(50, hit.at * 0.1)) return hit.df;
    const ids = this.matchIds(quote(term), DF_SAMPLE);
    let df = ids.length;
    if (ids.length === DF_SAMPLE) {
      const span = Math.max(1, top - ids[ids.length - 1]! + 1);
      df = Math.min(n, Math.round((DF_SAMPLE * n) / Math.min(n, span)));
    }
    if (this.dfCache.size > 10_000) this.dfCache.clear();
    this.dfCache.set(term, { df, at: n });
    return df;
  }

  /**
   * One exact byte page of a memory's body. Missing, superseded, forgotten or out-of-scope ids give
   * `memory: null`. Throws RangeError for an offset inside a character or past the end.
   */
  read(input: { id: number; project: string; offset?: number; budget?: Budget }): ReadResult {
    const budget: Budget = input.budget ?? 'lean';
    const row = withRetry(() => this.visibleRow(input.id, input.project));
    if (!row) return { optimization: budget, memory: null };
    const offset = input.offset ?? 0;
    let page;
    try {
      page = bytePage(row.body, offset, BUDGETS[budget].pageBytes);
    } catch (err) {
      throw new RangeError((err as Error).message.replace('Cannot read page', `Cannot read memory ${row.id}`));
    }
    const source = truncateUtf8(row.source, SOURCE_ALLOWANCE);
    return {
      optimization: budget,
      memory: {
        id: row.id,
        body: page.text,
        source: source.text,
        sourceabridged: source.truncated,
        scope: row.scope,
        project: row.project,
        created: row.created,
        offset,
        next: page.next,
        total: page.total,
      },
    };
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
    const history: MemoryRecord[] = [];
    const seen = new Set<number>([id]);
    const queue = [id];
    while (queue.length > 0) {
      for (const r of this.stmts.replaced.all(queue.shift()!)) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        queue.push(r.id);
        history.push(toRecord(this.stmts.row.get(r.id)!));
      }
    }
    for (let next = row.superseded_by; next !== null && !seen.has(next); ) {
      seen.add(next);
      const r = this.stmts.row.get(next);
      if (!r) break;
      history.push(toRecord(r));
      next = r.superseded_by;
    }
    history.sort((a, b) => b.id - a.id);
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
            this.adjustTotal(-1);
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
            this.adjustTotal(1);
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
            const dup = exists.get(r.body, r.project, r.created, r.scope === 'global' ? 1 : 0);
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
