import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, relative, isAbsolute } from 'node:path';
import { PACKAGE_NAME } from '../../graph/package.node.ts';

/**
 * Where a launch command comes from, which decides what the installer says about the files it
 * writes: `npx` the published package through npx (any machine with Node and npm), `path` a bare
 * `synaptic` found on PATH (`--local-bin`: every machine needs its own), `given` SYNAPTIC_BIN as the user set it.
 */
export type Portability = 'npx' | 'path' | 'given';

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

/**
 * `npx -y synaptic-mcp`: runs on every machine with Node and npm, from any folder of the repository.
 * npx takes the repository's own synaptic-mcp when it is a dependency there (the version the team
 * pinned), else installs the package into its cache on the first start and reuses it after.
 */
export const NPX_COMMAND: LaunchCommand = { command: 'npx', args: ['-y', PACKAGE_NAME], portability: 'npx' };

/**
 * How config files should launch synaptic for `project` (the repository root): `SYNAPTIC_BIN` if
 * set; with `localBin`, the bare `synaptic` found on PATH; else `npx -y synaptic-mcp`. Never an
 * absolute path into a checkout, which a teammate's clone does not have. A `synaptic` on PATH only
 * through a folder inside the project is npx's or an npm script's node_modules/.bin, which the
 * client's PATH will not have, so `localBin` refuses it.
 */
export function launchCommand(project: string, localBin: boolean, env: NodeJS.ProcessEnv = process.env): LaunchCommand {
  if (env.SYNAPTIC_BIN) return { command: env.SYNAPTIC_BIN, args: [], portability: 'given' };
  if (!localBin) return NPX_COMMAND;
  let onlyInside: string | undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !existsSync(join(dir, 'synaptic'))) continue;
    if (!inside(dir, project)) return { command: 'synaptic', args: [], portability: 'path' };
    onlyInside ??= dir;
  }
  const where = onlyInside ? `the only synaptic on PATH is ${join(onlyInside, 'synaptic')}, inside this repository (npx's or an npm script's PATH, not the client's)` : 'synaptic is not on PATH';
  throw new Error(
    `Cannot install with --local-bin: ${where}; put it on PATH (npm install -g ${PACKAGE_NAME}) or leave out --local-bin to register \`npx -y ${PACKAGE_NAME}\`, nothing was changed`,
  );
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
 * The note for a project install about who else can run the command its files name (the files are
 * meant to be committed), or null when there is nothing to say.
 */
export function portabilityNote(launch: LaunchCommand, files: string[], verb: string, project?: string): string | null {
  const names = files.join(' and ');
  if (launch.portability === 'npx') {
    const own = project !== undefined && existsSync(join(project, 'node_modules', PACKAGE_NAME, 'package.json'));
    return (
      `${names} run synaptic as \`${displayCommand(launch)}\`, which works on every machine with Node and npm: ` +
      `npx uses the repository's own ${PACKAGE_NAME} when it is a dependency (npm install -D ${PACKAGE_NAME} pins the version for the team), ` +
      'else it installs the package on the first start and reuses it after.' +
      // Until the package is on the registry, npx can only run a copy the repository holds.
      (own
        ? ''
        : ` This repository has no ${PACKAGE_NAME} in node_modules: if the registry has no ${PACKAGE_NAME} for npx to fetch, the client cannot start the server; ` +
          `then add it (npm install -D <a ${PACKAGE_NAME} tarball or checkout>) or put synaptic on PATH (npm link in a checkout) and install again with --local-bin.`)
    );
  }
  if (launch.portability === 'path') {
    return `${names} run \`synaptic\` from PATH (--local-bin): every teammate needs it on PATH too (npm install -g ${PACKAGE_NAME}); without --local-bin they run \`npx -y ${PACKAGE_NAME}\`.`;
  }
  if (!isAbsolute(launch.command)) return null;
  return `${names} run synaptic as \`${displayCommand(launch)}\` (SYNAPTIC_BIN), a path other machines may not have; unset it and run \`synaptic uninstall ${verb}\` and \`synaptic install ${verb}\` again for \`npx -y ${PACKAGE_NAME}\`.`;
}
