import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryBackend } from './backend.ts';
import { redactUrl } from './pg/connect.ts';
import { dataDir } from './paths.ts';
import { SqliteBackend } from './sqlite-backend.ts';
import { writeTextAtomic } from './install/files.ts';

/** Where team mode's settings live: `database` and `team` keys of settings.json in the data directory. */
function settingsOf(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const file = join(dataDir(env), 'settings.json');
  if (!existsSync(file)) return {};
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  } catch {
    throw new Error(`Cannot read ${file}: it is not valid JSON (fix or delete it)`);
  }
}

/** Throws a clear error unless `url` is a postgres:// or postgresql:// URL. */
export function checkDatabaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TypeError(`Cannot use "${url.replace(/:[^:@/]*@/, ':***@')}" as the team database: not a URL; use postgres://user[:password]@host[:port]/database`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new TypeError(`Cannot use ${redactUrl(url)} as the team database: only postgres:// (or postgresql://) URLs are supported; unset it for the local SQLite store`);
  }
  return url;
}

/** Team mode's database URL: SYNAPTIC_DATABASE_URL, else `synaptic settings database`, else null (embedded SQLite). */
export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env.SYNAPTIC_DATABASE_URL?.trim();
  if (fromEnv) return checkDatabaseUrl(fromEnv);
  const setting = settingsOf(env).database;
  return typeof setting === 'string' && setting.trim() !== '' ? checkDatabaseUrl(setting.trim()) : null;
}

/** The team whose rows a server sees: SYNAPTIC_TEAM, else `synaptic settings team`, else "default". */
export function teamName(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SYNAPTIC_TEAM?.trim();
  if (fromEnv) return fromEnv;
  const setting = settingsOf(env).team;
  return typeof setting === 'string' && setting.trim() !== '' ? setting.trim() : 'default';
}

export interface BackendOptions {
  env?: NodeJS.ProcessEnv;
  /** SQLite data directory (default from env). */
  dir?: string;
  /** A database URL overriding the configuration (data migrate), or null for the SQLite file whatever is configured. */
  url?: string | null;
  clock?: () => number;
  lock?: boolean;
}

/** Opens the configured memory backend: PostgreSQL in team mode, else the SQLite file. */
export async function openMemoryBackend(options: BackendOptions = {}): Promise<MemoryBackend> {
  const env = options.env ?? process.env;
  const url = options.url === undefined ? databaseUrl(env) : options.url;
  if (url === null) return SqliteBackend.open({ env, dir: options.dir, clock: options.clock, lock: options.lock });
  const { PgMemoryStore } = await import('./pg/store.ts');
  return PgMemoryStore.open({ url: checkDatabaseUrl(url), team: teamName(env), clock: options.clock });
}

/**
 * Sets (or with null clears) `database` or `team` in settings.json, keeping every other key. A URL is
 * checked first and stored as given (a password in it stays in the 0600 file, never in output).
 */
export function setTeamSetting(key: 'database' | 'team', value: string | null, env: NodeJS.ProcessEnv = process.env): void {
  if (key === 'database' && value !== null) checkDatabaseUrl(value);
  if (key === 'team' && value !== null && !/^[\w.-]{1,64}$/.test(value)) throw new TypeError(`Cannot set team "${value}": use 1-64 letters, digits, '_', '.' or '-'`);
  const doc = settingsOf(env);
  if (value === null) delete doc[key];
  else doc[key] = value;
  const dir = dataDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeTextAtomic(join(dir, 'settings.json'), `${JSON.stringify(doc, null, 2)}\n`, 0o600);
}
