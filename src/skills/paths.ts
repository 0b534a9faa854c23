import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { writeFileAtomic as writeFileAtomicIn } from '../vault/files.ts';

/** Environment variables as the skill library reads them (process.env by default). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The per-user data directory (same rule as the vault and memory: SYNAPTIC_DATA_DIR, XDG, ~/.local/share). */
export function dataDir(env: Env = process.env): string {
  if (env.SYNAPTIC_DATA_DIR) return resolve(env.SYNAPTIC_DATA_DIR);
  if (env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)) return join(env.XDG_DATA_HOME, 'synaptic');
  return join(env.HOME || homedir(), '.local', 'share', 'synaptic');
}

/** Creates the data directory with mode 0700 when missing; returns it. */
export function ensureDataDir(env: Env = process.env): string {
  const dir = dataDir(env);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  else if (statSync(dir).mode & 0o077) chmodSync(dir, 0o700);
  return dir;
}

/** Claude Code's user folder: CLAUDE_CONFIG_DIR, else ~/.claude. */
export function claudeDir(env: Env = process.env): string {
  if (env.CLAUDE_CONFIG_DIR) return resolve(env.CLAUDE_CONFIG_DIR);
  return join(env.HOME || homedir(), '.claude');
}

/** The repository root containing `folder` (nearest ancestor with `.git`), else the folder. */
export function projectRoot(folder: string): string {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return folder;
  }
}

/** Writes through a temp file in the same folder (fsync, rename), creating the folder if needed. */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomicIn(file, text, mode);
}
