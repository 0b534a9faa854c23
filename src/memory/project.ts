import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Where a resolved project came from (reported by `synaptic session` and in errors). */
export type ProjectOrigin = 'argument' | 'SYNAPTIC_PROJECT_DIR' | 'cwd';

export interface ResolvedProject {
  /** Absolute, symlink-resolved path of the repository root (or of the folder, outside a repo). */
  path: string;
  origin: ProjectOrigin;
}

/**
 * Resolves the project a memory call is about: the explicit argument, then `SYNAPTIC_PROJECT_DIR`,
 * then the process's working directory; normalized to the enclosing repository root (the nearest
 * ancestor holding `.git`). Deterministic: the same inputs always give the same path.
 * Throws TypeError for a relative argument (a server's cwd is not the caller's).
 */
export function resolveProject(
  argument: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): ResolvedProject {
  if (argument !== undefined && argument.trim() !== '') {
    if (!isAbsolute(argument)) {
      throw new TypeError(`Cannot resolve project: "${argument}" is not an absolute path; pass the project root, e.g. "/home/me/repo"`);
    }
    return { path: normalizeProjectPath(argument), origin: 'argument' };
  }
  const fromEnv = env.SYNAPTIC_PROJECT_DIR;
  if (fromEnv && fromEnv.trim() !== '') return { path: normalizeProjectPath(resolve(cwd, fromEnv)), origin: 'SYNAPTIC_PROJECT_DIR' };
  return { path: normalizeProjectPath(cwd), origin: 'cwd' };
}

/** Normalizes a folder to its repository root; a path that does not exist is only made canonical. */
export function normalizeProjectPath(p: string): string {
  let abs = resolve(p);
  if (abs.length > 1 && abs.endsWith('/')) abs = abs.slice(0, -1);
  // Resolve symlinks on the longest existing prefix so /tmp and /private/tmp agree.
  let existing = abs;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length + (parent.endsWith('/') ? 0 : 1)));
    existing = parent;
  }
  let real = existing;
  try {
    real = realpathSync(existing);
  } catch {
    // unreadable: keep the lexical path
  }
  if (rest.length > 0) return join(real, ...rest);
  let dir = real;
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    return real;
  }
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) break;
  }
  return dir;
}
