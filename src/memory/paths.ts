import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** File name of the memory database inside the data directory. */
export const DB_FILE = 'memory.db';
/** File name of the lifecycle lock (an SQLite file whose locks are taken, never its rows). */
export const LOCK_FILE = 'lifecycle.lock';

/**
 * The Synaptic data directory: `SYNAPTIC_DATA_DIR`, else `$XDG_DATA_HOME/synaptic`, else
 * `~/.local/share/synaptic`. A relative XDG_DATA_HOME is ignored, as the XDG spec requires.
 */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.SYNAPTIC_DATA_DIR;
  if (override) return resolve(override);
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'synaptic');
  return join(env.HOME || homedir(), '.local', 'share', 'synaptic');
}

/** Absolute path of the memory database for `dir`. */
export function dbPath(dir: string): string {
  return join(dir, DB_FILE);
}
