import { close, closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync, write, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** File-system helpers of the extraction pipeline: atomic writes and the HEAD commit. */

/** Commit of HEAD read from `.git` files (no git process), or null. */
export function readHeadCommit(root: string): string | null {
  try {
    let gitDir = join(root, '.git');
    const st = statSync(gitDir);
    if (st.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, 'utf8'));
      if (!m) return null;
      gitDir = resolve(root, m[1]!.trim());
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1]?.trim();
    if (!ref) return null;
    const commonDir = existsSync(join(gitDir, 'commondir')) ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, commonDir]) {
      const loose = join(dir, ref);
      if (existsSync(loose)) {
        const sha = readFileSync(loose, 'utf8').trim();
        if (/^[0-9a-f]{40}$/.test(sha)) return sha;
      }
      const packed = join(dir, 'packed-refs');
      if (existsSync(packed)) {
        for (const line of readFileSync(packed, 'utf8').split('\n')) {
          const [sha, name] = line.trim().split(' ');
          if (name === ref && sha && /^[0-9a-f]{40}$/.test(sha)) return sha;
        }
      }
    }
  } catch {
    // no repository
  }
  return null;
}

/** Write a file atomically: a temp file in the same folder, then rename. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}


/** A file being written to its temp name in the background (see {@link stageAtomic}). */
export interface StagedWrite {
  /** Wait for the temp file, then rename it into place (the temp file is removed on failure). */
  commit(): Promise<void>;
  /** Drop the temp file (when the run fails before committing). */
  abort(): Promise<void>;
}

/**
 * Start writing `data` to a temp file next to `path` on the I/O thread pool, to be renamed into place
 * by `commit()`: big outputs (graph.json, graph.cbor) are written while this thread goes on, and
 * the rename that frees the old file's pages runs off this thread too.
 */
export function stageAtomic(path: string, data: Uint8Array): StagedWrite {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  return stagedRename(tmp, path, writeInBackground(tmp, data));
}

/** The {@link StagedWrite} of a temp file that is (being) written: `written` settles when it is. */
export function stagedRename(tmp: string, path: string, written: Promise<void> = Promise.resolve()): StagedWrite {
  written.catch(() => {}); // reported by commit()
  let settled = false;
  return {
    commit: async () => {
      settled = true;
      try {
        await written;
        await replaceFile(tmp, path);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    abort: async () => {
      if (settled) return;
      settled = true;
      await written.catch(() => {});
      await rm(tmp, { force: true });
    },
  };
}

/**
 * Write all of `data` to a new file: one write request for the whole buffer, so it proceeds on the
 * thread pool even while this thread stays busy (fs.promises.writeFile writes in chunks, each
 * issued from this thread's event loop).
 */
async function writeInBackground(file: string, data: Uint8Array): Promise<void> {
  const fd = openSync(file, 'w');
  try {
    for (let at = 0; at < data.length;) {
      at += await new Promise<number>((resolve, reject) => write(fd, data, at, data.length - at, null, (err, n) => (err ? reject(err) : resolve(n))));
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Rename `tmp` over `path`. The replaced file stays open across the rename and is closed in the
 * background: dropping the last reference to a 50 MB file frees its cached pages, which the rename
 * would otherwise do while this thread waits.
 */
export async function replaceFile(tmp: string, path: string): Promise<void> {
  let old: number | undefined;
  try {
    // (Windows does not rename over an open file.)
    if (process.platform !== 'win32') old = openSync(path, 'r');
  } catch {
    // nothing to replace
  }
  try {
    await rename(tmp, path);
  } finally {
    if (old !== undefined) close(old, () => {});
  }
}
