import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { LockBusyError } from './errors.ts';
import { LOCK_FILE } from './paths.ts';

export type LockMode = 'shared' | 'exclusive';

/**
 * The lifecycle lock: servers and CLI commands hold it shared while they use the database; a restore
 * holds it exclusive, so it refuses while anything is connected and nothing connects during it.
 * It is an SQLite file in rollback-journal mode whose OS-level locks we borrow: an open read
 * transaction holds SHARED, `BEGIN EXCLUSIVE` needs every SHARED gone. The kernel drops the locks when
 * a process dies, even under SIGKILL, so a crashed server never leaves a stale lock behind.
 */
export class LifecycleLock {
  private db: Database.Database | null;
  readonly mode: LockMode;

  private constructor(db: Database.Database, mode: LockMode) {
    this.db = db;
    this.mode = mode;
  }

  /**
   * Takes the lock in `mode`. Shared waits up to `waitMs` for a running restore; exclusive never
   * waits. Throws LockBusyError when the other mode holds it.
   */
  static acquire(dir: string, mode: LockMode, waitMs = mode === 'shared' ? 3000 : 0): LifecycleLock {
    const file = join(dir, LOCK_FILE);
    closeSync(openSync(file, 'a', 0o600));
    try {
      chmodSync(file, 0o600);
    } catch {
      // not ours to fix (e.g. read-only bind mount); the lock still works
    }
    const db = new Database(file);
    try {
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(waitMs))}`);
      db.pragma('journal_mode = DELETE');
      db.exec('CREATE TABLE IF NOT EXISTS lifecycle (x INTEGER)');
      if (mode === 'shared') {
        db.exec('BEGIN');
        db.prepare('SELECT count(*) FROM lifecycle').get(); // takes SHARED until COMMIT
      } else {
        db.exec('BEGIN EXCLUSIVE');
      }
    } catch (err) {
      db.close();
      if (isBusy(err)) {
        throw new LockBusyError(
          mode === 'shared'
            ? 'Cannot open the memory database: a restore (synaptic data restore) is running; try again when it finishes'
            : 'Cannot restore: a synaptic server or command is using the memory database; stop every connected server (close the agent sessions) and retry',
        );
      }
      throw err;
    }
    return new LifecycleLock(db, mode);
  }

  /** Releases the lock. Safe to call twice. */
  release(): void {
    if (!this.db) return;
    try {
      this.db.exec('COMMIT');
    } catch {
      // nothing to commit
    }
    this.db.close();
    this.db = null;
  }
}

export function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}
