import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Reads a text file, or null when it does not exist. */
export function readText(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/** Writes through a temp file and a rename, keeping an existing file's mode (new files: `mode`). */
export function writeTextAtomic(file: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(file), { recursive: true });
  const keep = existsSync(file) ? statSync(file).mode & 0o777 : mode;
  const tmp = join(dirname(file), `.${process.pid}-${Date.now()}.synaptic.tmp`);
  try {
    writeFileSync(tmp, text, { mode: keep });
    chmodSync(tmp, keep);
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Creates `dir` (and parents); returns the top-most folder it had to create, or null. */
export function mkdirTracked(dir: string): string | null {
  let top: string | null = null;
  for (let d = dir; !existsSync(d); d = dirname(d)) top = d;
  if (top) mkdirSync(dir, { recursive: true });
  return top;
}

/** Removes `dir` and its parents up to and including `top` while they are empty. */
export function rmdirEmpty(dir: string, top: string): void {
  for (let d = dir; d.startsWith(top); d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return; // not empty (the user put something there) or already gone
    }
    if (d === top) return;
  }
}
