import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseRefusedError } from './errors.ts';
import { MIGRATIONS, type Migration } from './schema.ts';

export interface OpenOptions {
  /** Milliseconds SQLite waits on a lock before SQLITE_BUSY (retries come on top). */
  busyTimeoutMs?: number;
  /** Skip `integrity_check` (only for throwaway copies the caller just checked). */
  skipIntegrityCheck?: boolean;
  readonly?: boolean;
  /** The numbered migrations of this file (default: memory's); the mesh keeps its own file and list. */
  migrations?: readonly Migration[];
  /** What the file is, in errors (default "memory database"). */
  what?: string;
}

/** Creates the data directory 0700 (and tightens an existing one). */
export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch {
    // a directory we cannot chmod (not ours): SQLite still works
  }
}

/** Tightens the database file and its WAL/SHM companions to 0600. */
export function securePermissions(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (existsSync(f) && (statSync(f).mode & 0o077) !== 0) chmodSync(f, 0o600);
    } catch {
      // best effort
    }
  }
}

function refuseFile(file: string, reason: string, what = 'memory database'): never {
  throw new DatabaseRefusedError(`Cannot open the ${what} "${file}": ${reason}`);
}

/**
 * Opens (creating if needed) the memory database: checks integrity and foreign keys, refuses a newer
 * schema or a corrupt file before writing anything, then switches to WAL and applies migrations in
 * one transaction. The file is created 0600 in a 0700 directory.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Database.Database {
  const migrations = options.migrations ?? MIGRATIONS;
  const schemaVersion = migrations[migrations.length - 1]!.version;
  const refuse: (f: string, reason: string) => never = (f, reason) => refuseFile(f, reason, options.what);
  const created = !existsSync(file);
  if (created) {
    if (options.readonly) refuse(file, 'it does not exist');
    ensureDataDir(dirname(file));
    closeSync(openSync(file, 'a', 0o600)); // SQLite treats an empty file as a new database
  }
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true, readonly: options.readonly ?? false });
  } catch (err) {
    refuse(file, (err as Error).message);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    let version: number;
    try {
      version = db.pragma('user_version', { simple: true }) as number;
    } catch (err) {
      refuse(file, `it is not a readable SQLite database (${(err as Error).message}); nothing was changed. Restore a backup with synaptic data restore <file>, or move the file away to start empty`);
    }
    if (version > schemaVersion) {
      refuse(file, `its schema version ${version} is newer than this synaptic supports (${schemaVersion}); nothing was changed. Upgrade synaptic`);
    }
    if (!created && !options.skipIntegrityCheck) checkIntegrity(db, file, options.what);
    if (!options.readonly) {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL'); // WAL + NORMAL: durable across process crashes
      migrate(db, migrations);
      securePermissions(file);
    }
    db.pragma('foreign_keys = ON');
    db.pragma('cache_size = -16000');
    db.pragma('temp_store = MEMORY');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Runs `integrity_check` and `foreign_key_check`; throws DatabaseRefusedError on any finding. */
export function checkIntegrity(db: Database.Database, file: string, what?: string): void {
  let rows: Array<{ integrity_check: string }>;
  try {
    rows = db.pragma('integrity_check(20)') as Array<{ integrity_check: string }>;
  } catch (err) {
    refuseFile(file, `the file is corrupt (${(err as Error).message}); nothing was changed. Restore a backup with synaptic data restore <file>`, what);
  }
  if (rows.length !== 1 || rows[0]!.integrity_check !== 'ok') {
    const first = rows.slice(0, 3).map((r) => r.integrity_check).join('; ');
    refuseFile(file, `integrity_check failed (${first}); nothing was changed. Restore a backup with synaptic data restore <file>`, what);
  }
  const fk = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
  if (fk.length > 0) {
    const f = fk[0]!;
    refuseFile(file, `foreign_key_check found ${fk.length} broken reference(s) (first: ${f.table} row ${f.rowid} -> ${f.parent}); nothing was changed. Restore a backup with synaptic data restore <file>`, what);
  }
}

/** Applies pending migrations inside one IMMEDIATE transaction (re-reading the version under the lock). */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): void {
  if ((db.pragma('user_version', { simple: true }) as number) === migrations[migrations.length - 1]!.version) return;
  db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    for (const m of migrations) {
      if (m.version <= current) continue;
      if (m.sql) db.exec(m.sql);
      m.run?.(db);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}
