import { existsSync, mkdirSync, statSync, chmodSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Environment variables as the vault reads them (process.env by default; tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The per-user data directory: `SYNAPTIC_DATA_DIR`, else `$XDG_DATA_HOME/synaptic` (only an absolute
 * XDG_DATA_HOME counts, as the XDG spec says), else `~/.local/share/synaptic`.
 */
export function dataDir(env: Env = process.env): string {
  const override = env.SYNAPTIC_DATA_DIR;
  if (override) return resolve(override);
  const xdg = env.XDG_DATA_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'synaptic');
  return join(env.HOME || homedir(), '.local', 'share', 'synaptic');
}

/** Creates the data directory (mode 0700) if missing and tightens an existing one; returns it. */
export function ensureDataDir(env: Env = process.env): string {
  const dir = dataDir(env);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = statSync(dir).mode & 0o777;
  if (mode & 0o077) chmodSync(dir, 0o700);
  return dir;
}

/** Absolute, symlink-free form of a folder, or a TypeError naming it when it does not exist. */
export function canonicalFolder(folder: string, cwd: string = process.cwd()): string {
  const abs = resolve(cwd, folder);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new TypeError(`Cannot use folder "${abs}": it does not exist`);
  }
  if (!statSync(real).isDirectory()) throw new TypeError(`Cannot use folder "${abs}": it is not a directory`);
  return real;
}

/** The repository root containing `folder` (nearest ancestor with `.git`), else the folder itself. */
export function projectRoot(folder: string): string {
  let dir = folder;
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return folder;
    dir = up;
  }
}

/** True when `child` is `parent` or lies under it (both absolute, canonical). */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith('/') ? parent : parent + '/';
  return child.startsWith(prefix);
}
