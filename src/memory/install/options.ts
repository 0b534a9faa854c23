import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join, relative, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How portable a launch command is, which decides what the installer says about the files it writes:
 * `path` a bare `synaptic` found on PATH (works on any machine that installed synaptic), `project`
 * `npx --no-install synaptic` (the repository's own devDependency, works on every clone after
 * `npm install`), `machine` absolute paths of this machine, `given` SYNAPTIC_BIN as the user set it.
 */
export type Portability = 'path' | 'project' | 'machine' | 'given';

/** How a config file launches synaptic: a program and the arguments before the subcommand. */
export interface LaunchCommand {
  command: string;
  args: string[];
  portability: Portability;
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
  /** Steps left to the user and facts about what was written (printed after the file lines). */
  notes: string[];
}

export function emptyReport(): InstallReport {
  return { changed: [], unchanged: [], notes: [] };
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `path` is `dir` or below it (both compared after resolving symbolic links). */
function inside(path: string, dir: string): boolean {
  const rel = relative(real(dir), real(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The project runs its own synaptic: a devDependency's bin, or the synaptic checkout itself. */
function projectHasSynaptic(project: string): boolean {
  if (existsSync(join(project, 'node_modules', '.bin', 'synaptic'))) return true;
  try {
    return (JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { name?: unknown }).name === 'synaptic';
  } catch {
    return false;
  }
}

const NPX: LaunchCommand = { command: 'npx', args: ['--no-install', 'synaptic'], portability: 'project' };

/**
 * How config files should launch this synaptic, for `project` (the repository root) and a user-wide
 * (`global`) or project install: `SYNAPTIC_BIN` if set; `synaptic` when it is on PATH outside the
 * project; `npx --no-install synaptic` for a project install whose repository has synaptic itself
 * (a bin under node_modules, found from any subfolder, unlike a relative path, which the clients
 * resolve against the folder they were started in); else this Node binary with this CLI's main.js.
 */
export function launchCommand(project: string, global: boolean, env: NodeJS.ProcessEnv = process.env): LaunchCommand {
  if (env.SYNAPTIC_BIN) return { command: env.SYNAPTIC_BIN, args: [], portability: 'given' };
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !existsSync(join(dir, 'synaptic'))) continue;
    // npx and npm scripts put the project's node_modules/.bin on PATH; the client's PATH will not have it.
    if (inside(dir, project)) {
      if (!global) return NPX;
      return { command: real(join(dir, 'synaptic')), args: [], portability: 'machine' };
    }
    return { command: 'synaptic', args: [], portability: 'path' };
  }
  // The bundled CLI (dist/cli/, this module is one of its chunks) or the tsc layout (dist/src/memory/install/).
  const mains = ['./main.js', '../../cli/main.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const main = mains.find((path) => existsSync(path)) ?? mains[1]!.replace(/\.js$/, '.ts');
  if (!global && projectHasSynaptic(project)) return NPX;
  return { command: process.execPath, args: [main], portability: 'machine' };
}

function shQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A shell command line for a hook: the launch command plus `args`, quoted for sh. */
export function shellCommand(launch: LaunchCommand, args: readonly string[]): string {
  return [launch.command, ...launch.args, ...args].map(shQuote).join(' ');
}

/** The launch command as a person would type it (for notes). */
export function displayCommand(launch: LaunchCommand): string {
  return shellCommand(launch, []);
}

/**
 * The note for a project install whose files name this machine's paths (a shared `.mcp.json` or
 * `.codex/` then fails on every other clone), or null when the command is portable.
 */
export function portabilityNote(launch: LaunchCommand, files: string[], verb: string): string | null {
  if (launch.portability === 'project') {
    return `${files.join(' and ')} run synaptic as \`${displayCommand(launch)}\`: the repository's own synaptic, found from any subfolder of every clone after npm install.`;
  }
  if (launch.portability !== 'machine') return null;
  return (
    `${files.join(' and ')} run synaptic as \`${displayCommand(launch)}\`, paths that exist only on this machine. ` +
    'Before committing them for your team, put synaptic on PATH (npm install -g synaptic, or npm link in a synaptic checkout) ' +
    `or add it to the repository (npm install -D synaptic), then run \`synaptic uninstall ${verb}\` and \`synaptic install ${verb}\` again.`
  );
}
