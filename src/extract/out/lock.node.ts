import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One writer per output folder: `synaptic update --watch`, a one-shot `update`, and the server's
 * source catch-up may all update the same synaptic-out/. Each output file is replaced atomically,
 * but two runs interleaving their writes could leave graph.json from one and graph.cbor from the
 * other. A run holds synaptic-out/.lock (its pid) while it writes; another waits for it. A lock whose
 * process is gone (a crash, a kill -9) is taken over.
 */
export const LOCK_FILE = '.lock';

export interface OutLock {
  release(): void;
}

/** Whether process `pid` is running (EPERM: it is, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Take the lock of `outDir`, waiting up to `timeoutMs` while another live process holds it. Throws
 * "Cannot write <outDir>: ..." when it stays held. Runs within one process take turns.
 */
export async function lockOutDir(outDir: string, timeoutMs = 120_000): Promise<OutLock> {
  const file = join(outDir, LOCK_FILE);
  // Runs of this process on the same folder queue here; the lock file orders processes.
  while (heldHere.has(file)) await heldHere.get(file);
  let done!: () => void;
  heldHere.set(file, new Promise<void>((resolve) => (done = resolve)));
  try {
    const lock = await lockFile(outDir, file, timeoutMs);
    return {
      release: () => {
        lock.release();
        if (heldHere.get(file)) {
          heldHere.delete(file);
          done();
        }
      },
    };
  } catch (err) {
    heldHere.delete(file);
    done();
    throw err;
  }
}

const heldHere = new Map<string, Promise<void>>();

async function lockFile(outDir: string, file: string, timeoutMs: number): Promise<OutLock> {
  mkdirSync(outDir, { recursive: true });
  const started = Date.now();
  let wait = 10;
  for (;;) {
    let fd: number | undefined;
    try {
      fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          if (holder(file) === process.pid) rmSync(file, { force: true });
        },
      };
    } catch (err) {
      if (fd !== undefined) closeSync(fd);
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = holder(file);
    // Gone, or left by this very process (whose runs on this folder take turns): take it over.
    if (pid === null ? Date.now() - started > 1000 : pid === process.pid || !alive(pid)) {
      rmSync(file, { force: true });
      continue;
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`Cannot write ${outDir}: another synaptic process (pid ${pid ?? 'unknown'}) has been updating it for over ${Math.round(timeoutMs / 1000)} s (remove ${file} if that process is gone)`);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 200);
  }
}
