import type pg from 'pg';
import { DatabaseRefusedError } from '../errors.ts';
import { PG_MIGRATIONS, type PgMigration } from './schema.ts';

/** The team database cannot be reached (down, restarting, network): the call did nothing. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** A database URL for messages: the password never appears. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);

/** True for errors that mean the database is not there (as opposed to a bad statement). */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e.code && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(e.message ?? '');
}

/** Rethrows a connection failure as DatabaseUnavailableError naming the database and what still works. */
export function unavailable(action: string, location: string, err: unknown, what = 'memory'): never {
  if (!isUnavailable(err)) throw err;
  const e = err as { code?: string; message?: string };
  throw new DatabaseUnavailableError(
    `Cannot ${action}: the team database ${location} is unreachable (${e.code ?? e.message}); nothing was changed. ` +
      `Graph tools keep working; ${what} comes back when the database does (check SYNAPTIC_DATABASE_URL or \`synaptic settings database\`)`,
  );
}

/** pg returns BIGINT as a string; every bigint here (ids, unix seconds, counts, digests) fits a double. */
export function poolConfig(pgModule: typeof pg, url: string): pg.PoolConfig {
  return {
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    query_timeout: 15_000,
    application_name: 'synaptic',
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === 20 ? (v: string) => Number(v) : pgModule.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
    },
  };
}

/**
 * Applies pending migrations in one transaction under an advisory lock; refuses a newer schema. Each
 * module keeps its own list and version table (memory: synaptic_schema; the mesh: synaptic_mesh_schema).
 */
export async function migratePg(pool: pg.Pool, location: string, migrations: readonly PgMigration[] = PG_MIGRATIONS, table = 'synaptic_schema'): Promise<void> {
  const latest = migrations[migrations.length - 1]!.version;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied BIGINT NOT NULL)`);
    const { rows } = await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${table}`);
    const current = rows[0]?.v ?? 0;
    if (current > latest) {
      throw new DatabaseRefusedError(`Cannot open the team database ${location}: its ${table} version ${current} is newer than this synaptic supports (${latest}); nothing was changed. Upgrade synaptic`);
    }
    for (const m of migrations) {
      if (m.version <= current) continue;
      await client.query(m.sql);
      await client.query(`INSERT INTO ${table} (version, description, applied) VALUES ($1, $2, $3)`, [m.version, m.description, Math.floor(Date.now() / 1000)]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * A pool on `url` with `migrations` applied: one for each PostgreSQL-backed store (memory, skills,
 * mesh). When the database cannot be reached the pool is closed and the failure reported as
 * `action` (DatabaseUnavailableError naming `what` as the part that waits for it).
 */
export async function openMigratedPool(
  url: string,
  action: string,
  what?: string,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
  table = 'synaptic_schema',
): Promise<{ pgModule: typeof pg; pool: pg.Pool }> {
  const { default: pgModule } = await import('pg');
  const pool = new pgModule.Pool(poolConfig(pgModule, url));
  pool.on('error', () => {}); // an idle connection dropped by the server: the next call reports it
  try {
    await migratePg(pool, redactUrl(url), migrations, table);
  } catch (err) {
    await pool.end().catch(() => {});
    unavailable(action, redactUrl(url), err, what);
  }
  return { pgModule, pool };
}
