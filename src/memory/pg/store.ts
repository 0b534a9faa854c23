import type pg from 'pg';
import type { MemoryBackend } from '../backend.ts';
import { refuseCredentials } from '../credentials.ts';
import { NotFoundError } from '../errors.ts';
import { projectKey } from '../identity.ts';
import { queryTerms } from '../query.ts';
import { DF_SAMPLE, RankState, TERM_WINDOW, rankPlan, runAsync, type RankMeta, type RankRequest } from '../rank.ts';
import { checkRemember, checkSupersedable, digestOf, historyOf, recallLimit, shapePage, shapeRecall, toRecord } from '../shape.ts';
import { STATES, type MemoryRecord, type ReadInput, type RecallInput, type RememberInput, type RememberResult, type StoredRow } from '../types.ts';
import { openMigratedPool, redactUrl, unavailable } from './connect.ts';

/** Postings read per lexeme to find an all-terms match's rarest one (which then drives the scan). */
const RARITY_SAMPLE = 200;

interface Row extends StoredRow {
  scope_key: number;
  project_id: number;
}

type Db = pg.Pool | pg.PoolClient;

const SELECT_ROW = `SELECT m.id, m.body, m.source, CASE m.scope_key WHEN 0 THEN 'global' ELSE 'project' END AS scope, p.key AS project, m.created,
  m.state, m.superseded_by, m.changed, m.scope_key, m.project_id FROM memories m JOIN projects p ON p.id = m.project_id`;

/** The words the SQLite index sees (letter/number runs, case and diacritics folded), for to_tsvector. */
export function searchWords(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/** PostgreSQL text cannot hold U+0000 (SQLite can): refuse it clearly rather than let the server's encoding error through. */
function refuseNul(action: string, body: string, source: string): void {
  if (body.includes('\0') || source.includes('\0')) {
    throw new RangeError(`Cannot ${action}: the ${body.includes('\0') ? 'content' : 'source'} holds a NUL character (U+0000), which the team database (PostgreSQL text) cannot store; nothing was stored. Remove it`);
  }
}

/** The key a prefetched answer is kept under (null: not prefetchable). */
function requestKey(r: RankRequest): string | null {
  if (r.kind === 'total') return 'total';
  if (r.kind === 'df') return `df ${r.term}`;
  if (r.kind === 'match') return `match ${r.op} ${String(r.projectId)} ${r.window} ${r.terms.join(' ')}`;
  return null;
}

function emptyAnswer(r: RankRequest): unknown {
  return r.kind === 'df' ? { count: 0, oldest: null } : r.kind === 'total' ? { n: 0, top: null } : [];
}

function answerOf(r: RankRequest, rows: Array<Record<string, unknown>>): unknown {
  if (r.kind === 'total') return { n: Number(rows[0]!.n), top: rows[0]!.top === null ? null : Number(rows[0]!.top) };
  if (r.kind === 'df') return { count: Number(rows[0]!.count), oldest: rows[0]!.oldest === null ? null : Number(rows[0]!.oldest) };
  return rows.map((x) => Number(x.id));
}

export interface PgStoreOptions {
  url: string;
  /** Rows are scoped by team: one database can serve several (default SYNAPTIC_TEAM, else "default"). */
  team?: string;
  clock?: () => number;
}

/**
 * Team memory in PostgreSQL: the same semantics as the SQLite store (shape.ts, rank.ts), every row and
 * query scoped by team and, for project memory, by the project's portable key.
 */
export class PgMemoryStore implements MemoryBackend {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly team: string;
  private readonly rank = new RankState();
  private readonly projectIds = new Map<string, number>();
  private readonly clock: () => number;

  private constructor(
    private readonly pgModule: typeof pg,
    readonly pool: pg.Pool,
    options: PgStoreOptions,
  ) {
    this.location = redactUrl(options.url);
    this.team = options.team ?? 'default';
    this.clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Connects and applies migrations. Throws DatabaseUnavailableError when the database cannot be reached. */
  static async open(options: PgStoreOptions): Promise<PgMemoryStore> {
    const { pgModule, pool } = await openMigratedPool(options.url, 'open team memory');
    return new PgMemoryStore(pgModule, pool, options);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  private async run<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      unavailable(action, this.location, err);
    }
  }

  private async tx<T>(action: string, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.run(action, async () => {
      const client = await this.pool.connect();
      const dropped = () => {}; // a connection lost mid-transaction: the pending query rejects and says so
      client.on('error', dropped);
      try {
        await client.query('BEGIN');
        const out = await fn(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.off('error', dropped);
        client.release();
      }
    });
  }

  private async rows(db: Db, ids: number[]): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const { rows } = await db.query<Row>({ name: 'rows', text: `${SELECT_ROW} WHERE m.id = ANY($1::bigint[]) AND m.team = $2`, values: [ids, this.team] });
    return new Map(rows.map((r) => [r.id, r]));
  }

  private async row(db: Db, id: number): Promise<Row | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    return (await this.rows(db, [id])).get(id);
  }

  private async findProject(db: Db, path: string): Promise<number | null> {
    const cached = this.projectIds.get(path);
    if (cached !== undefined) return cached;
    const { rows } = await db.query<{ id: number }>({ name: 'project', text: 'SELECT id FROM projects WHERE team = $1 AND key = $2', values: [this.team, projectKey(path)] });
    if (rows.length === 0) return null;
    this.projectIds.set(path, rows[0]!.id);
    return rows[0]!.id;
  }

  private async ensureProject(db: Db, path: string): Promise<number> {
    const found = await this.findProject(db, path);
    if (found !== null) return found;
    await db.query('INSERT INTO projects (team, key) VALUES ($1, $2) ON CONFLICT (team, key) DO NOTHING', [this.team, projectKey(path)]);
    return (await this.findProject(db, path))!;
  }

  async remember(input: RememberInput): Promise<RememberResult> {
    const { body, source, supersedes, digest } = checkRemember(input);
    refuseNul('remember', body, source);
    const now = this.clock();
    const key = projectKey(input.project);
    const knownProject = this.projectIds.has(input.project);
    try {
      const result = await this.tx('remember', async (c) => {
        const projectId = await this.ensureProject(c, input.project);
        const scopeKey = input.scope === 'global' ? 0 : projectId;
        // One writer per (team, scope, body digest) at a time: a repeated remember is answered, not stored twice.
        await c.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', [`${this.team}/${scopeKey}`, digest % 2147483647]);
        if (supersedes.length > 0) {
          await c.query('SELECT id FROM memories WHERE id = ANY($1::bigint[]) AND team = $2 FOR UPDATE', [supersedes.filter((i) => Number.isSafeInteger(i) && i > 0), this.team]);
          const found = await this.rows(c, supersedes.filter((i) => Number.isSafeInteger(i) && i > 0));
          for (const old of supersedes) {
            const row = found.get(old);
            checkSupersedable(old, row, input.scope, input.project, row !== undefined && row.project === key);
          }
        } else {
          const dup = await c.query<{ id: number }>({
            name: 'duplicate',
            text: 'SELECT id FROM memories WHERE team = $1 AND scope_key = $2 AND digest = $3 AND state = 0 AND body = $4 LIMIT 1',
            values: [this.team, scopeKey, digest, body],
          });
          if (dup.rows.length > 0) return { id: dup.rows[0]!.id, stored: false, superseded: [] };
        }
        const { rows } = await c.query<{ id: number }>({
          name: 'insert',
          text: `INSERT INTO memories (team, body, source, project_id, scope_key, created, changed, digest, state, search)
                 VALUES ($1, $2, $3, $4, $5, $6, $6, $7, 0, to_tsvector('synaptic_memory', $8)) RETURNING id`,
          values: [this.team, body, source, projectId, scopeKey, now, digest, searchWords(`${body}\n${source}`)],
        });
        const id = rows[0]!.id;
        if (supersedes.length > 0) await c.query('UPDATE memories SET state = 1, superseded_by = $1, changed = $2 WHERE id = ANY($3::bigint[])', [id, now, supersedes]);
        return { id, stored: true, superseded: supersedes };
      });
      if (result.stored) this.rank.adjust(1 - supersedes.length, result.id);
      return result;
    } catch (err) {
      if (!knownProject) this.projectIds.delete(input.project);
      throw err;
    }
  }

  /**
   * Recall in two round trips whatever the query: every index read the ranking plan can ask for
   * (document-frequency samples the cache lacks, the all-terms match, each term's window) goes to the
   * server as one multi-statement query, then the shortlisted rows in one more. On a loopback
   * connection the trips, not the queries (well under a millisecond each), are the cost.
   */
  async recall(input: RecallInput) {
    const limit = recallLimit(input.limit);
    const terms = queryTerms(input.query ?? '');
    return this.run('recall', async () => {
      const projectId = await this.findProject(this.pool, input.project);
      if (terms.length === 0) {
        const { rows } = await this.pool.query<Row>({
          name: 'recent-rows',
          text: `${SELECT_ROW} WHERE m.team = $1 AND m.id IN ((SELECT id FROM memories WHERE team = $1 AND state = 0 AND scope_key = 0 ORDER BY id DESC LIMIT $3)
                 UNION ALL (SELECT id FROM memories WHERE team = $1 AND state = 0 AND scope_key = $2 ORDER BY id DESC LIMIT $3)) ORDER BY m.id DESC LIMIT $3`,
          values: [this.team, projectId ?? -1, limit],
        });
        return shapeRecall(rows, input.budget ?? 'lean');
      }
      const prefetched = await this.prefetch(terms, projectId, limit);
      let rows = new Map<number, Row>();
      const ids = await runAsync(rankPlan(this.rank, terms, projectId, limit, this.clock()), async (r) => {
        const key = requestKey(r);
        if (key !== null && prefetched.has(key)) return prefetched.get(key);
        if (r.kind !== 'meta') return this.answer(r);
        rows = await this.rows(this.pool, r.ids); // the shortlist's whole rows: recency needs three columns, the answer the rest
        return new Map<number, RankMeta>([...rows.values()].map((m) => [m.id, { created: m.created, state: m.state, scopeKey: m.scope_key }]));
      });
      const missing = ids.filter((id) => !rows.has(id));
      if (missing.length > 0) for (const [id, row] of await this.rows(this.pool, missing)) rows.set(id, row);
      return shapeRecall(
        ids.map((id) => rows.get(id)).filter((r) => r !== undefined),
        input.budget ?? 'lean',
      );
    });
  }

  /** The plan's likely index reads for `terms`, answered in one multi-statement trip, by requestKey. */
  private async prefetch(terms: string[], projectId: number | null, limit: number): Promise<Map<string, unknown>> {
    const misses = this.rank.misses(terms);
    const wanted: RankRequest[] = [];
    if (misses.total) wanted.push({ kind: 'total' });
    for (const term of misses.df) wanted.push({ kind: 'df', term });
    wanted.push({ kind: 'match', terms, op: 'AND', projectId, window: limit });
    if (terms.length > 1) for (const t of terms) wanted.push({ kind: 'match', terms: [t], op: 'OR', projectId, window: Math.max(TERM_WINDOW, limit * 4) });
    const out = new Map<string, unknown>();
    const asked: RankRequest[] = [];
    const sql: string[] = [];
    for (const r of wanted) {
      const text = this.requestSql(r);
      if (text === null) out.set(requestKey(r)!, emptyAnswer(r));
      else (asked.push(r), sql.push(text));
    }
    if (sql.length === 0) return out;
    const results = await this.pool.query(sql.join(';\n'));
    const list = (Array.isArray(results) ? results : [results]) as pg.QueryResult[];
    asked.forEach((r, i) => out.set(requestKey(r)!, answerOf(r, list[i]!.rows)));
    return out;
  }

  /**
   * A total, df or match request as SQL with its values inlined (escaped), or null when it can match
   * nothing. Matches read the postings table (migration 2) newest first: the query's lexemes (the
   * same to_tsvector the rows were indexed with), the one with the fewest postings drives the scan,
   * every other lexeme is an index probe per candidate. A scoped window reads each scope's newest
   * postings on their own index range and merges them, so it reads at most `window` rows per scope.
   */
  private requestSql(r: RankRequest): string | null {
    const lit = (v: string) => this.pgModule.escapeLiteral(v);
    const team = lit(this.team);
    if (r.kind === 'total') return `SELECT count(*) AS n, max(id) AS top FROM memories WHERE team = ${team} AND state = 0`;
    if (r.kind === 'meta') return null;
    // A match of one term (the per-term windows, df samples) or of all of them: both are "every lexeme of these words".
    const terms = r.kind === 'df' ? [r.term] : r.terms;
    if (r.kind === 'match' && r.op === 'OR' && terms.length !== 1) throw new RangeError('an OR window is one term');
    const words = terms.map(searchWords).filter((w) => w !== '');
    if (words.length === 0) return null;
    const lexemes = `l AS MATERIALIZED (SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('synaptic_memory', ${lit(words.join(' '))})))::text AS term)`;
    const driver =
      words.length === 1
        ? 'd AS MATERIALIZED (SELECT term FROM l ORDER BY term LIMIT 1)'
        : // The rarest lexeme: fewest of its newest RARITY_SAMPLE postings, then the sparsest (oldest reach).
          `d AS MATERIALIZED (SELECT l.term FROM l, LATERAL (SELECT count(*) AS n, min(id) AS oldest FROM (SELECT c.id FROM memory_terms c WHERE c.team = ${team} AND c.term = l.term ORDER BY c.id DESC LIMIT ${RARITY_SAMPLE}) x) s ORDER BY s.n, s.oldest, l.term LIMIT 1)`;
    const holdsAll = `NOT EXISTS (SELECT 1 FROM l WHERE l.term <> p.term AND NOT EXISTS (SELECT 1 FROM memory_terms q WHERE q.team = ${team} AND q.term = l.term AND q.id = p.id))`;
    const scan = (scope: string, window: number) =>
      `SELECT p.id FROM memory_terms p WHERE p.team = ${team} AND p.term = (SELECT term FROM d)${scope} AND ${holdsAll} ORDER BY p.id DESC LIMIT ${window}`;
    const head = `WITH ${lexemes}, ${driver} `;
    if (r.kind === 'df') return `${head}SELECT count(*) AS count, min(id) AS oldest FROM (${scan('', DF_SAMPLE)}) s`;
    const window = Math.floor(r.window);
    if (r.projectId === undefined) return `${head}${scan('', window)}`;
    if (r.projectId === null) return `${head}${scan(' AND p.scope_key = 0', window)}`;
    return `${head}SELECT id FROM ((${scan(' AND p.scope_key = 0', window)}) UNION ALL (${scan(` AND p.scope_key = ${Number(r.projectId)}`, window)})) u ORDER BY id DESC LIMIT ${window}`;
  }

  private async recentIds(projectId: number | null, limit: number): Promise<number[]> {
    const { rows } = await this.pool.query<{ id: number }>({
      name: 'recent',
      text: `(SELECT id FROM memories WHERE team = $1 AND state = 0 AND scope_key = 0 ORDER BY id DESC LIMIT $3)
             UNION ALL (SELECT id FROM memories WHERE team = $1 AND state = 0 AND scope_key = $2 ORDER BY id DESC LIMIT $3)`,
      values: [this.team, projectId ?? -1, limit],
    });
    return rows
      .map((r) => r.id)
      .sort((a, b) => b - a)
      .slice(0, limit);
  }

  /** One index read the prefetch did not cover. */
  private async answer(r: RankRequest): Promise<unknown> {
    if (r.kind === 'meta') {
      const rows = await this.rows(this.pool, r.ids);
      return new Map<number, RankMeta>([...rows.values()].map((m) => [m.id, { created: m.created, state: m.state, scopeKey: m.scope_key }]));
    }
    const text = this.requestSql(r);
    return text === null ? emptyAnswer(r) : answerOf(r, (await this.pool.query(text)).rows);
  }

  async read(input: ReadInput) {
    const row = await this.run('read memory', async () => {
      const r = await this.row(this.pool, input.id);
      if (!r || r.state !== 0) return null;
      if (r.scope === 'project' && r.project !== projectKey(input.project)) return null;
      return r;
    });
    return shapePage(row, input.offset ?? 0, input.budget ?? 'lean');
  }

  async count(project: string): Promise<number> {
    return this.run('count memories', async () => {
      const projectId = await this.findProject(this.pool, project);
      const { rows } = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM memories WHERE team = $1 AND state = 0 AND scope_key IN (0, $2)', [this.team, projectId ?? -1]);
      return rows[0]!.n;
    });
  }

  async recent(project: string, limit: number): Promise<MemoryRecord[]> {
    return this.run('read recent memories', async () => {
      const ids = await this.recentIds(await this.findProject(this.pool, project), limit);
      const rows = await this.rows(this.pool, ids);
      return ids.map((id) => toRecord(rows.get(id)!));
    });
  }

  async list(options: { project?: string; all?: boolean; limit?: number }): Promise<MemoryRecord[]> {
    const limit = Math.max(1, options.limit ?? 1000);
    if (!options.all && options.project !== undefined) return this.recent(options.project, limit);
    const where = options.all ? '' : 'AND m.state = 0';
    return this.run('list memories', async () => {
      const { rows } = await this.pool.query<Row>(`${SELECT_ROW} WHERE m.team = $1 ${where} ORDER BY m.id DESC LIMIT $2`, [this.team, limit]);
      return rows.map(toRecord);
    });
  }

  async show(id: number) {
    return this.run('show memory', async () => {
      const row = await this.row(this.pool, id);
      if (!row) throw new NotFoundError(`Cannot show memory ${id}: no memory has that id (synaptic memory list shows ids)`);
      // The whole supersedes chain around `id`, both ways, in one read; then the shared walk.
      const { rows } = await this.pool.query<Row>(
        `WITH RECURSIVE down(id) AS (SELECT $1::bigint UNION SELECT m.id FROM memories m JOIN down d ON m.superseded_by = d.id),
         up(id) AS (SELECT $1::bigint UNION SELECT m.superseded_by FROM memories m JOIN up u ON m.id = u.id WHERE m.superseded_by IS NOT NULL)
         ${SELECT_ROW} WHERE m.team = $2 AND m.id IN (SELECT id FROM down UNION SELECT id FROM up)`,
        [id, this.team],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      const history = historyOf(
        row,
        (of) => rows.filter((r) => r.superseded_by === of).map((r) => r.id).sort((a, b) => a - b),
        (at) => byId.get(at),
      );
      return { memory: toRecord(row), history };
    });
  }

  async forget(id: number): Promise<MemoryRecord> {
    const out = await this.tx('forget memory', async (c) => {
      const row = await this.lockRow(c, id, 'forget');
      if (row.state === 0) await c.query('UPDATE memories SET state = 2, changed = $1 WHERE id = $2', [this.clock(), id]);
      return { was: row.state, now: (await this.row(c, id))! };
    });
    if (out.was === 0) this.rank.adjust(-1);
    return toRecord(out.now);
  }

  async restore(id: number): Promise<MemoryRecord> {
    const out = await this.tx('restore memory', async (c) => {
      const row = await this.lockRow(c, id, 'restore');
      if (row.state !== 0) await c.query('UPDATE memories SET state = 0, superseded_by = NULL, changed = $1 WHERE id = $2', [this.clock(), id]);
      return { was: row.state, now: (await this.row(c, id))! };
    });
    if (out.was !== 0) this.rank.adjust(1);
    return toRecord(out.now);
  }

  private async lockRow(c: pg.PoolClient, id: number, verb: string): Promise<Row> {
    if (Number.isSafeInteger(id) && id > 0) await c.query('SELECT id FROM memories WHERE id = $1 AND team = $2 FOR UPDATE', [id, this.team]);
    const row = await this.row(c, id);
    if (!row) throw new NotFoundError(`Cannot ${verb} memory ${id}: no memory has that id`);
    return row;
  }

  async *exportAll(): AsyncIterable<MemoryRecord> {
    // Keyset pages: a long export never holds a transaction or the whole table in memory.
    for (let after = 0; ; ) {
      const { rows } = await this.run('export memories', () => this.pool.query<Row>(`${SELECT_ROW} WHERE m.team = $1 AND m.id > $2 ORDER BY m.id LIMIT 1000`, [this.team, after]));
      if (rows.length === 0) return;
      for (const r of rows) yield toRecord(r);
      after = rows[rows.length - 1]!.id;
    }
  }

  async importRecords(records: MemoryRecord[]): Promise<{ imported: number; skipped: number }> {
    for (const r of records) {
      refuseCredentials(`import memory ${r.id}`, { content: r.body, source: r.source, project: r.project });
      refuseNul(`import memory ${r.id}`, r.body, r.source);
    }
    try {
      const out = await this.tx('import memories', async (c) => {
        const idMap = new Map<number, number>();
        let imported = 0;
        let skipped = 0;
        for (const r of records) {
          const projectId = await this.ensureProject(c, r.project);
          const scopeKey = r.scope === 'global' ? 0 : projectId;
          const dup = await c.query<{ id: number }>(
            'SELECT m.id FROM memories m JOIN projects p ON p.id = m.project_id WHERE m.team = $1 AND m.body = $2 AND p.key = $3 AND m.created = $4 AND m.scope_key = $5 LIMIT 1',
            [this.team, r.body, projectKey(r.project), r.created, scopeKey],
          );
          if (dup.rows.length > 0) {
            idMap.set(r.id, dup.rows[0]!.id);
            skipped++;
            continue;
          }
          const state = Math.max(0, STATES.indexOf(r.state));
          const { rows } = await c.query<{ id: number }>(
            `INSERT INTO memories (team, body, source, project_id, scope_key, created, changed, digest, state, search)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, to_tsvector('synaptic_memory', $10)) RETURNING id`,
            [this.team, r.body, r.source, projectId, scopeKey, r.created, r.changed ?? r.created, digestOf(r.body), state, searchWords(`${r.body}\n${r.source}`)],
          );
          idMap.set(r.id, rows[0]!.id);
          imported++;
        }
        for (const r of records) {
          const to = r.supersededBy === null || r.supersededBy === undefined ? undefined : idMap.get(r.supersededBy);
          if (to !== undefined) await c.query('UPDATE memories SET superseded_by = $1 WHERE id = $2', [to, idMap.get(r.id)!]);
        }
        return { imported, skipped };
      });
      this.rank.adjust(out.imported);
      return out;
    } catch (err) {
      this.projectIds.clear(); // project rows made by the rolled-back transaction are gone
      throw err;
    }
  }
}
