import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How a config file launches synaptic: a program and the arguments before the subcommand. */
export interface LaunchCommand {
  command: string;
  args: string[];
}

export interface InstallOptions {
  /** The user's home (tests pass a temp one). */
  home: string;
  /** The repository root (project installs write here). */
  project: string;
  /** Install for the user instead of the project. */
  global: boolean;
  /** Synaptic data directory (holds the install manifest). */
  dataDir: string;
  command: LaunchCommand;
  /** Codex home (default `$CODEX_HOME` or `~/.codex`). */
  codexHome?: string;
}

export interface InstallReport {
  changed: Array<{ file: string; what: string }>;
  unchanged: Array<{ file: string; what: string }>;
}

/**
 * How config files should launch this synaptic: `SYNAPTIC_BIN` if set, `synaptic` when it is on
 * PATH, else this Node binary with this CLI's main.js (absolute paths).
 */
export function launchCommand(env: NodeJS.ProcessEnv = process.env): LaunchCommand {
  if (env.SYNAPTIC_BIN) return { command: env.SYNAPTIC_BIN, args: [] };
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'synaptic'))) return { command: 'synaptic', args: [] };
  }
  // The bundled CLI (dist/cli/, this module is one of its chunks) or the tsc layout (dist/src/memory/install/).
  const mains = ['./main.js', '../../cli/main.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const main = mains.find((path) => existsSync(path));
  return { command: process.execPath, args: [main ?? mains[1]!.replace(/\.js$/, '.ts')] };
}

function shQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A shell command line for a hook: the launch command plus `args`, quoted for sh. */
export function shellCommand(launch: LaunchCommand, args: readonly string[]): string {
  return [launch.command, ...launch.args, ...args].map(shQuote).join(' ');
}
