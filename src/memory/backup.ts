import Database from 'better-sqlite3';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DatabaseRefusedError } from './errors.ts';
import { LifecycleLock } from './lock.ts';
import { checkIntegrity, ensureDataDir, openDatabase, securePermissions } from './open.ts';
import { dbPath } from './paths.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { MemoryStore } from './store.ts';

/**
 * Online backup of the memory database to `target` (a consistent snapshot while servers keep
 * writing), written to a temp file and renamed. Returns the number of memories in the copy.
 */
export async function backupDatabase(dir: string, target: string): Promise<{ file: string; memories: number }> {
  const file = resolve(target);
  if (file === resolve(dbPath(dir))) throw new RangeError('Cannot back up: the target is the live database itself; choose another file');
  const tmp = join(dirname(file), `.${Date.now()}-${process.pid}.synaptic-backup.tmp`);
  const store = MemoryStore.open({ dir });
  try {
    await store.backup(tmp);
    securePermissions(tmp);
    const copy = new Database(tmp, { readonly: true });
    let memories: number;
    try {
      checkIntegrity(copy, tmp);
      memories = (copy.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
    } finally {
      copy.close();
    }
    renameSync(tmp, file);
    return { file, memories };
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    store.close();
  }
}

/**
 * Replaces the memory database with the backup `source`. Takes the exclusive lifecycle lock (so it
 * refuses while any server or command is connected), checks the backup (integrity, foreign keys,
 * schema not newer than ours) before touching anything, keeps the replaced database as
 * `memory.db.before-restore`, and migrates the restored copy if it is older.
 */
export function restoreDatabase(dir: string, source: string): { memories: number; previous: string | null } {
  const from = resolve(source);
  if (!existsSync(from)) throw new RangeError(`Cannot restore: "${from}" does not exist`);
  ensureDataDir(dir);
  const lock = LifecycleLock.acquire(dir, 'exclusive');
  const live = dbPath(dir);
  const tmp = `${live}.restore-${process.pid}.tmp`;
  try {
    // Check the backup read-only first: a bad file must leave the current database untouched.
    let check: Database.Database;
    try {
      check = new Database(from, { readonly: true, fileMustExist: true });
    } catch (err) {
      throw new DatabaseRefusedError(`Cannot restore from "${from}": ${(err as Error).message}`);
    }
    try {
      let version: number;
      try {
        version = check.pragma('user_version', { simple: true }) as number;
      } catch (err) {
        throw new DatabaseRefusedError(`Cannot restore from "${from}": it is not a readable SQLite database (${(err as Error).message})`);
      }
      if (version > SCHEMA_VERSION) throw new DatabaseRefusedError(`Cannot restore from "${from}": its schema version ${version} is newer than this synaptic supports (${SCHEMA_VERSION}); upgrade synaptic`);
      if (version === 0 || !check.prepare("SELECT 1 FROM sqlite_master WHERE name = 'memories'").get()) {
        throw new DatabaseRefusedError(`Cannot restore from "${from}": it is not a synaptic memory backup (no memories table)`);
      }
      checkIntegrity(check, from);
      // A consistent single-file copy (folds in any WAL the backup carries).
      check.exec(`VACUUM INTO '${tmp.replaceAll("'", "''")}'`);
    } finally {
      check.close();
    }
    securePermissions(tmp);
    let previous: string | null = null;
    if (existsSync(live)) {
      // Fold the live WAL into the file so the kept copy is complete, then drop WAL/SHM so no stale
      // frame can ever be replayed onto the restored file.
      const old = new Database(live);
      try {
        old.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        old.close();
      }
      previous = `${live}.before-restore`;
      copyFileSync(live, previous);
      securePermissions(previous);
    }
    rmSync(`${live}-wal`, { force: true });
    rmSync(`${live}-shm`, { force: true });
    renameSync(tmp, live);
    const db = openDatabase(live); // migrates an older backup; checks again
    const memories = (db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
    db.close();
    return { memories, previous };
  } finally {
    rmSync(tmp, { force: true });
    lock.release();
  }
}
