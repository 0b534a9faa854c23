import { isBusy } from './lock.ts';

const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (the store is synchronous, like better-sqlite3 itself). */
function sleepSync(ms: number): void {
  Atomics.wait(SLEEP, 0, 0, ms);
}

/**
 * Runs `fn`, retrying when SQLite still reports BUSY/LOCKED after its own busy timeout (a WAL
 * snapshot conflict or a checkpoint racing us), so a transient lock never reaches a user.
 */
export function withRetry<T>(fn: () => T, attempts = 8): T {
  for (let i = 1; ; i++) {
    try {
      return fn();
    } catch (err) {
      if (i >= attempts || !isBusy(err)) throw err;
      sleepSync(Math.min(200, 5 * 2 ** i) + Math.random() * 10);
    }
  }
}
