import { existsSync, lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseWorkspaceYaml, WorkspaceFileError } from './yaml-subset.ts';

/** The workspace definition file, in the workspace root. */
export const WORKSPACE_FILE = 'synaptic-workspace.yaml';

/** One member repository of a workspace. */
export interface WorkspaceMember {
  /** Repo tag: node ids and paths of this member are known by it in a federated graph. */
  tag: string;
  /** Absolute, symlink-free source root. */
  root: string;
  /** Relative to the workspace root, `/` separated. */
  path: string;
}

export interface Workspace {
  /** Absolute, symlink-free workspace root (members live under it). */
  root: string;
  members: WorkspaceMember[];
  /** The definition file, when the members came from one. */
  file?: string;
}

/** A workspace definition that cannot be used: the message names the member and the fix. */
export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
}

const TAG = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The workspace: members named on the command line (`dirs`, relative to the current folder), else
 * those of `<root>/synaptic-workspace.yaml`. Each member must be a folder inside the workspace root
 * (after resolving symlinks), not the root itself, not inside another member; tags are unique.
 */
export function loadWorkspace(rootArg: string, dirs: readonly string[], cwd = process.cwd()): Workspace {
  const root = realDir(resolve(cwd, rootArg), 'workspace root');
  if (dirs.length) return checked(root, dirs.map((d, i) => ({ path: d, line: i, from: resolve(cwd, d) })));
  const file = join(root, WORKSPACE_FILE);
  if (!existsSync(file)) throw new WorkspaceError(`no members: name member folders (synaptic workspace build <dir>...) or write ${file}`);
  let parsed;
  try {
    parsed = parseWorkspaceYaml(readFileSync(file, 'utf8'), file);
  } catch (err) {
    if (err instanceof WorkspaceFileError) throw new WorkspaceError(err.message);
    throw err;
  }
  if (parsed.version !== undefined && parsed.version !== 1) throw new WorkspaceError(`${file}: version ${parsed.version} is not supported (this synaptic reads version 1)`);
  if (!parsed.members.length) throw new WorkspaceError(`${file}: 'members' is empty`);
  return { ...checked(root, parsed.members.map((m) => ({ ...m, from: resolve(root, m.path) })), file), file };
}

/** The workspace of a previous build (its global manifest's members), checked again as a definition file's would be. */
export function workspaceFromEntries(rootArg: string, entries: ReadonlyArray<{ path: string; tag: string }>, cwd = process.cwd()): Workspace {
  const root = realDir(resolve(cwd, rootArg), 'workspace root');
  return checked(root, entries.map((e, i) => ({ ...e, line: i + 1, from: resolve(root, e.path) })));
}

function checked(root: string, entries: Array<{ path: string; tag?: string; line: number; from: string }>, file?: string): Workspace {
  const where = (e: { path: string; line: number }): string => (file ? `${file}:${e.line}: member '${e.path}'` : `member '${e.path}'`);
  const members: WorkspaceMember[] = [];
  const tags = new Map<string, string>();
  for (const e of entries) {
    if (isAbsolute(e.path) && file) throw new WorkspaceError(`${where(e)}: paths in ${WORKSPACE_FILE} are relative to the workspace root`);
    if (!inside(root, e.from)) throw new WorkspaceError(`${where(e)} is outside the workspace root ${root} (use --root <dir> to choose a root that contains every member)`);
    let link = false;
    try {
      link = lstatSync(e.from).isSymbolicLink();
    } catch {
      throw new WorkspaceError(`${where(e)} does not exist (${e.from})`);
    }
    const real = realDir(e.from, where(e));
    if (!inside(root, real)) throw new WorkspaceError(`${where(e)} is a symlink${link ? '' : ' (through a linked folder)'} to ${real}, outside the workspace root ${root}`);
    if (real === root) throw new WorkspaceError(`${where(e)} is the workspace root itself: members are folders under it`);
    const tag = e.tag ?? basename(real);
    if (!TAG.test(tag)) throw new WorkspaceError(`${where(e)}: tag '${tag}' must be letters, digits, '.', '_' or '-' (at most 64, not starting with a punctuation mark)`);
    const previous = tags.get(tag);
    if (previous !== undefined) throw new WorkspaceError(`${file ? `${file}:${e.line}: ` : ''}duplicate tag '${tag}': members '${previous}' and '${e.path}' (give one a distinct tag${file ? '' : ` in ${WORKSPACE_FILE}`})`);
    tags.set(tag, e.path);
    members.push({ tag, root: real, path: relative(root, real).split(sep).join('/') });
  }
  for (const a of members) {
    for (const b of members) {
      if (a !== b && a.root === b.root) throw new WorkspaceError(`members '${a.tag}' and '${b.tag}' are the same folder ${a.root}`);
      if (a !== b && inside(a.root, b.root)) throw new WorkspaceError(`member '${b.tag}' (${b.path}) is inside member '${a.tag}' (${a.path}): its files would be extracted twice`);
    }
  }
  return { root, members };
}

function realDir(path: string, what: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new WorkspaceError(`${what} does not exist (${path})`);
  }
  if (!statSync(real).isDirectory()) throw new WorkspaceError(`${what} is not a folder (${path})`);
  return real;
}

/** `child` is `parent` or under it. */
function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
