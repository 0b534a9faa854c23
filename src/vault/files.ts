import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { VaultError } from './errors.ts';

/** Writes `text` to `file` through a 0600 temp file in the same folder, fsync, then rename. */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  const tmp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, file);
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const LOCK_WAIT_MS = 10_000;
const LOCK_STALE_MS = 30_000;

/**
 * Runs `fn` holding an exclusive lock file (`O_EXCL`), so two processes editing the same JSON file
 * cannot lose each other's change. A lock older than 30 s is taken to be left by a killed process.
 */
export function withFileLock<T>(lockFile: string, fn: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(lockFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lockFile).mtimeMs > LOCK_STALE_MS) unlinkSync(lockFile);
      } catch {
        // It went away between the open and the stat: retry at once.
      }
      if (Date.now() > deadline) throw new VaultError(`Cannot lock ${lockFile}: another synaptic process holds it`);
      Atomics.wait(sleeper, 0, 0, 15);
    }
  }
  try {
    writeSync(fd, String(process.pid));
    return fn();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(lockFile);
    } catch {
      // Already removed as stale by another process; nothing to undo.
    }
  }
}
