import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { workingChanges, type WorkingChanges } from '../../extract/git-changes.node.ts';
import { languageForPath } from '../../extract/languages.ts';
import type { QueryEngine } from '../../query/engine.ts';
import type { ChangedFileInput } from '../../query/change-impact/impact.ts';
import { sanitize } from '../../query/sanitize.ts';

/**
 * The changed files a change-aware tool (working_changes_impact, predict_impact, affected_tests)
 * and its CLI form works on: the files the caller names, or git's working changes against a base.
 * One place for both, so the tools and the CLI refuse the same bad input with the same message.
 */

export type ChangeSet =
  | { ok: true; files: ChangedFileInput[]; git?: WorkingChanges }
  | {
      ok: false;
      message: string;
      /** git is missing or the root is not a repository: an outcome (the spec's message), not a bad argument. */
      offline: boolean;
    };

/** Where git runs and named files resolve: the source root (the repository the graph describes), else the working directory. */
export function changeRoot(sourceRoot: string | undefined): string {
  return sourceRoot ?? process.cwd();
}

/** A repo-relative path for a path the caller typed, or why it is refused. */
export function repoPath(root: string, typed: string): { path: string } | { error: string } {
  const raw = typed.trim();
  if (!raw) return { error: `an empty path in files: pass repo-relative paths such as src/app.ts` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(raw)) return { error: `a path in files has control characters: ${sanitize(raw)}` };
  let rel: string;
  if (isAbsolute(raw)) {
    rel = relative(root, resolve(raw)).split(sep).join('/');
    if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return { error: `path outside the repository root ${sanitize(root, 400)}: ${sanitize(raw, 400)}` };
  } else {
    rel = posix.normalize(raw.replace(/\\/g, '/'));
  }
  if (rel === '..' || rel.startsWith('../')) return { error: `path outside the repository root ${sanitize(root, 400)}: ${sanitize(raw, 400)} (files are repo-relative)` };
  rel = rel.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (!rel || rel === '.') return { error: `'${sanitize(raw)}' is the repository root, not a file: name the changed files, or omit files to use the git diff` };
  return { path: rel };
}

/**
 * Named paths as changed files; a folder the graph holds files under stands for those files
 * (src/util -> every graph file in src/util/).
 */
function namedFiles(engine: QueryEngine, root: string, typed: readonly string[]): ChangeSet {
  if (!typed.length) return { ok: false, offline: false, message: 'files is empty: name the changed files (repo-relative), or omit files to use the git diff against base' };
  const byFile = engine.ix.byFile;
  const out = new Map<string, ChangedFileInput>();
  for (const t of typed) {
    const r = repoPath(root, t);
    if ('error' in r) return { ok: false, offline: false, message: r.error };
    if (byFile.has(r.path)) {
      out.set(r.path, { path: r.path, status: 'listed' });
      continue;
    }
    const prefix = `${r.path}/`;
    const inside = [...byFile.keys()].filter((f) => f.startsWith(prefix)).sort();
    if (inside.length) for (const f of inside) out.set(f, { path: f, status: 'listed' });
    else out.set(r.path, { path: r.path, status: 'listed', code: languageForPath(r.path) !== null });
  }
  return { ok: true, files: [...out.values()] };
}

/**
 * The change set for a call: `files` when given, else git's working changes against `base`. With
 * `untracked: false` (predict_impact, affected_tests: the spec's `git diff <base>`) files git does not
 * track are left out: nothing in the graph depends on a file nobody has added yet, and leaving them
 * out spares a walk of every folder.
 */
export function changeSet(engine: QueryEngine, sourceRoot: string | undefined, args: { files?: readonly string[]; base?: string; untracked?: boolean }): ChangeSet {
  const root = changeRoot(sourceRoot);
  if (args.files !== undefined) return namedFiles(engine, root, args.files);
  const git = workingChanges(root, args.base, { untracked: args.untracked });
  if (!git.ok) return { ok: false, offline: git.reason === 'git-unavailable' || git.reason === 'not-a-repository', message: sanitize(git.message, 800) };
  return { ok: true, git, files: git.files.map((f) => ({ path: f.path, status: f.status, code: languageForPath(f.path) !== null })) };
}

/** `main`, `HEAD~3` ... as shown in texts. */
export function baseName(set: Extract<ChangeSet, { ok: true }>): string {
  return set.git ? sanitize(set.git.base) : 'the named files';
}

/** One line on where the diff came from: the head, the merge base, the uncommitted part, a detached or shallow checkout. */
export function gitContext(git: WorkingChanges): string {
  const parts = [`HEAD ${sanitize(git.head)}`, `merge-base ${git.mergeBase}`];
  if (git.uncommitted) parts.push(`${git.uncommitted} file(s) with uncommitted changes`);
  if (git.shallow) parts.push('shallow clone');
  return `(${parts.join('; ')})`;
}
