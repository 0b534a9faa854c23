import { lstatSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Outputs are written only into a real folder: a repository that ships `synaptic-out` (or its
 * `.facts`) as a symbolic link would otherwise have a victim's extract write wherever it points.
 * Throws a message saying what to do; a folder that does not exist yet is fine.
 */
export function checkOutputFolder(dir: string): void {
  for (const path of [dir, join(dir, '.facts')]) {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue; // not there yet: created as a real folder
    }
    if (st.isSymbolicLink()) {
      let target = '?';
      try {
        target = realpathSync(path);
      } catch {
        // dangling
      }
      throw new Error(`Cannot write ${path}: it is a symbolic link (to ${target}); outputs go only into a real folder (remove the link, or pass --out <folder>)`);
    }
    if (!st.isDirectory()) throw new Error(`Cannot write ${path}: it is not a folder`);
  }
}
