import { join } from 'node:path';
import { gitOutcomesIn, type GitOutcome, type GitOutcomeRunner } from './git.node.ts';
import { holdsOutputs, marksOutput } from './out/marker.node.ts';

/**
 * The working changes of a repository against a base, the set a pull request would carry: every
 * file that differs between merge-base(base, HEAD) and the working tree (committed on the branch,
 * staged, unstaged) plus untracked files git does not ignore. Synaptic's own output folders are left
 * out. Every git call goes through gitOutcomesIn() (no repository program runs); every way this can
 * fail comes back as a reason and a message a person can act on, never as a throw.
 */

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'untracked';

export interface ChangedPath {
  /** Relative to the root asked about, `/`-separated. */
  path: string;
  status: ChangeStatus;
}

export interface WorkingChanges {
  ok: true;
  root: string;
  /** The base as asked (or the detected default branch). */
  base: string;
  /** merge-base(base, HEAD), abbreviated: what the working tree is compared with. */
  mergeBase: string;
  /** `main`, or `HEAD (detached at 1a2b3c4)`. */
  head: string;
  detached: boolean;
  shallow: boolean;
  files: ChangedPath[];
  /** How many of the files differ from HEAD (staged, unstaged or untracked). */
  uncommitted: number;
}

export type GitProblemReason = 'git-unavailable' | 'not-a-repository' | 'no-commits' | 'bad-ref' | 'no-default-branch' | 'no-common-ancestor' | 'git-failed';

export interface GitProblem {
  ok: false;
  reason: GitProblemReason;
  message: string;
}

/** Ends every "cannot read git" message (spec: working_changes_impact). */
const OFFLINE = 'Graph audit continues offline.';

/** Diffs of a big repository read every stat-dirty file; a rev-parse is instant. */
const DIFF_TIMEOUT_MS = 30_000;

function unavailable(root: string, detail: string): GitProblem {
  const reason: GitProblemReason = /not installed|timed out/.test(detail) ? 'git-unavailable' : 'not-a-repository';
  return { ok: false, reason, message: `git unavailable or not a git repository (${root}): ${detail}. ${OFFLINE}` };
}

function failed(what: string, r: GitOutcome): GitProblem {
  const why = r.timedOut ? 'timed out' : r.missing ? 'git is not installed' : r.stderr.split('\n')[0] || `exit status ${r.status}`;
  return { ok: false, reason: 'git-failed', message: `git ${what} failed: ${why}` };
}

/**
 * The default branch: the remote's HEAD (origin/HEAD), else a local main, master or trunk, else
 * origin/main or origin/master. Undefined when none exists. (workingChanges asks for origin/HEAD in
 * its first rev-parse and comes here only without one.)
 */
export function defaultBranch(run: GitOutcomeRunner): string | undefined {
  const remoteHead = run(['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD']);
  if (remoteHead.ok && remoteHead.stdout.trim()) return remoteHead.stdout.trim();
  for (const b of ['main', 'master', 'trunk', 'origin/main', 'origin/master']) {
    if (run(['rev-parse', '--verify', '-q', `${b}^{commit}`]).ok) return b;
  }
  return undefined;
}

/** A base the caller typed: refused before git sees it when it could read as an option or is not a ref at all. */
function badRefShape(base: string): string | undefined {
  if (!base.trim()) return `base is empty: pass a branch, tag or commit`;
  if (base.startsWith('-')) return `base '${base}' is not a ref (it starts with '-')`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(base) || base.length > 256) return `base is not a ref name (control characters or over 256 characters)`;
  return undefined;
}

/**
 * The working changes of `root` against `base` (default: the detected default branch). `root` may be
 * a folder inside a repository: paths are then relative to it and changes outside it are left out.
 * `untracked: false` leaves untracked files out (what `git diff <base>` covers) and skips the scan
 * of every folder for them, the larger part of a status on a big tree. Three git runs besides the
 * helper's config read: rev-parse (work tree, shallow, prefix, the base's name, the merge base),
 * status (HEAD, branch, uncommitted and untracked files in one worktree scan), and a tree-to-tree
 * diff for what the branch committed (skipped when it committed nothing).
 */
export function workingChanges(root: string, base?: string, options: { untracked?: boolean } = {}): WorkingChanges | GitProblem {
  const withUntracked = options.untracked !== false;
  if (base !== undefined) {
    const shape = badRefShape(base);
    if (shape) return { ok: false, reason: 'bad-ref', message: shape };
  }
  const run = gitOutcomesIn(root);
  let where = locate(run, base ?? 'origin/HEAD');
  if (where.outcome.missing) return unavailable(root, 'git is not installed (or not on PATH)');
  if (where.outcome.timedOut) return unavailable(root, 'git timed out');
  if (!where.inside) {
    const why = where.outcome.stderr;
    return unavailable(root, /not a git repository/i.test(why) || !why ? 'not inside a git work tree' : why.split('\n')[0]!);
  }
  const shallow = where.shallow;
  const status = run(['status', '--porcelain=v2', '--branch', '-z', '--no-renames', `--untracked-files=${withUntracked ? 'normal' : 'no'}`, '--ignore-submodules=all', '--', '.'], { timeoutMs: DIFF_TIMEOUT_MS });
  if (!status.ok) return failed('status', status);
  const local = parseStatus(status.stdout, where.prefix);
  if (!local.oid) {
    return { ok: false, reason: 'no-commits', message: `${root} is a git repository with no commits yet, so there is no base to diff against: commit once, then ask again` };
  }
  const shallowHint = shallow ? '; this is a shallow clone, so older commits and other branches may be missing (git fetch --unshallow, or git fetch origin BRANCH)' : '';
  let ref = base;
  if (ref === undefined) {
    if (where.outcome.ok) ref = where.name;
    else {
      // No origin/HEAD: a local main, master or trunk, or origin/main, origin/master.
      ref = defaultBranch(run);
      if (!ref) {
        return { ok: false, reason: 'no-default-branch', message: `no base given and no default branch found (no origin/HEAD, main, master or trunk): pass base (a branch, tag or commit)${shallowHint}` };
      }
      where = locate(run, ref);
    }
  }
  if (!where.outcome.ok || !ref) {
    if (where.outcome.timedOut) return failed(`rev-parse ${ref}`, where.outcome);
    return { ok: false, reason: 'bad-ref', message: `base '${ref}' does not name a commit in ${root}: no branch, tag or commit of that name (git branch -a lists the branches)${shallowHint}` };
  }
  if (!where.mergeBase) {
    const message = shallow
      ? `'${ref}' and HEAD have no common ancestor in this shallow clone (its history is cut off): git fetch --unshallow (or --deepen=N), or pass a base inside the fetched history`
      : `'${ref}' and HEAD share no history (unrelated histories): pass a base this branch grew from`;
    return { ok: false, reason: 'no-common-ancestor', message };
  }
  const mergeBase = where.mergeBase;
  const files = new Map<string, ChangeStatus>();
  if (mergeBase !== local.oid) {
    // What the branch committed: two trees, no worktree scan. --relative: paths relative to root.
    const diff = run(['diff', '--name-status', '-z', '--no-renames', '--relative', mergeBase, 'HEAD'], { timeoutMs: DIFF_TIMEOUT_MS });
    if (!diff.ok) return failed(`diff ${mergeBase.slice(0, 12)} HEAD`, diff);
    const fields = diff.stdout.split('\0');
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const code = fields[i]!.charAt(0);
      if (fields[i + 1]) files.set(fields[i + 1]!, code === 'A' ? 'added' : code === 'D' ? 'deleted' : 'modified');
    }
  }
  // On top, what is not committed yet (HEAD -> index -> worktree).
  for (const [path, change] of local.changes) {
    const committed = files.get(path);
    if (change === 'deleted') {
      if (committed === 'added') files.delete(path); // added on the branch, gone again: no change vs base
      else files.set(path, 'deleted');
    } else if (committed === 'deleted') files.set(path, 'modified'); // deleted on the branch, back again
    else if (committed === undefined) files.set(path, change);
  }
  const untracked = untrackedFiles(run, root, local.untrackedDirs);
  if (!untracked.ok) return failed('ls-files --others', untracked.outcome);
  for (const path of untracked.paths) if (!files.has(path)) files.set(path, 'untracked');
  for (const path of outputPaths(root, files.keys())) files.delete(path);
  const uncommitted = [...local.changes.keys(), ...untracked.paths].filter((p) => files.has(p)).length;
  const detached = local.branch === undefined;
  const head = detached ? `HEAD (detached at ${local.oid.slice(0, 12)})` : local.branch!;
  const sorted = [...files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([path, status]) => ({ path, status }));
  return { ok: true, root, base: ref, mergeBase: mergeBase.slice(0, 12), head, detached, shallow, files: sorted, uncommitted };
}

interface Located {
  outcome: GitOutcome;
  inside: boolean;
  shallow: boolean;
  /** root's place in the repository (`src/`), '' at the top. */
  prefix: string;
  /** The base's short name (origin/HEAD -> origin/main). */
  name: string | undefined;
  /** merge-base(base, HEAD); undefined when they share no history (or the base did not resolve). */
  mergeBase: string | undefined;
}

/**
 * One rev-parse for where we are and what the base is: work tree?, shallow?, root's prefix, HEAD,
 * the base's name, and `base...HEAD`, whose `^<sha>` line is the merge base (none for unrelated
 * histories). A base that does not resolve (or is no commit) fails it after the first lines.
 */
function locate(run: GitOutcomeRunner, ref: string): Located {
  const outcome = run(['rev-parse', '--is-inside-work-tree', '--is-shallow-repository', '--show-prefix', 'HEAD', '--abbrev-ref', ref, `${ref}...HEAD`]);
  const lines = outcome.stdout.split('\n');
  const mergeBase = lines.find((l) => /^\^[0-9a-f]{40,64}$/.test(l))?.slice(1);
  return { outcome, inside: lines[0] === 'true', shallow: lines[1] === 'true', prefix: lines[2] ?? '', name: outcome.ok ? lines[4] : undefined, mergeBase };
}

interface LocalStatus {
  /** HEAD's commit; undefined before the first commit. */
  oid: string | undefined;
  /** The branch checked out; undefined when HEAD is detached. */
  branch: string | undefined;
  /** Tracked files that differ from HEAD (index or worktree), relative to root. */
  changes: Map<string, ChangeStatus>;
  /** Untracked files and, for a wholly untracked folder, the folder (`dir/`), relative to root. */
  untrackedDirs: string[];
}

/**
 * `git status --porcelain=v2 --branch -z` (paths relative to the repository top, whatever the
 * working directory): headers `# branch.oid`, `# branch.head`; `1 XY ... path` for a changed entry,
 * `u XY ... path` for a conflict, `? path` for an untracked one. Paths outside `prefix` (root's place
 * in the repository) are dropped, the others made relative to it.
 */
function parseStatus(out: string, prefix: string): LocalStatus {
  const status: LocalStatus = { oid: undefined, branch: undefined, changes: new Map(), untrackedDirs: [] };
  const local = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : undefined);
  for (const record of out.split('\0')) {
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length);
      status.oid = oid === '(initial)' ? undefined : oid;
    } else if (record.startsWith('# branch.head ')) {
      const head = record.slice('# branch.head '.length);
      status.branch = head === '(detached)' ? undefined : head;
    } else if (record.startsWith('1 ') || record.startsWith('u ')) {
      const xy = record.slice(2, 4);
      // `1 XY sub mH mI mW hH hI path` (8 fields before the path); `u` has 10.
      const skip = record.startsWith('1 ') ? 8 : 10;
      let at = 0;
      for (let k = 0; k < skip && at >= 0; k++) at = record.indexOf(' ', at + 1);
      const path = at >= 0 ? local(record.slice(at + 1)) : undefined;
      if (!path) continue;
      status.changes.set(path, xy.includes('D') ? 'deleted' : xy[0] === 'A' ? 'added' : 'modified');
    } else if (record.startsWith('? ')) {
      const path = local(record.slice(2));
      if (path) status.untrackedDirs.push(path);
    }
  }
  return status;
}

/**
 * Untracked, not ignored files under root, from status's list. A wholly untracked folder comes as
 * one entry (`dir/`), so an untracked synaptic-out/ (thousands of cache files) costs nothing: an
 * output folder is dropped, any other folder is listed file by file.
 */
function untrackedFiles(run: GitOutcomeRunner, root: string, entries: readonly string[]): { ok: true; paths: string[] } | { ok: false; outcome: GitOutcome } {
  const paths: string[] = [];
  for (const entry of entries) {
    if (!entry.endsWith('/')) {
      paths.push(entry);
      continue;
    }
    const dir = entry.slice(0, -1);
    if (holdsOutputs(join(root, dir))) continue;
    const inner = run(['ls-files', '-z', '--others', '--exclude-standard', '--', `:(literal)${dir}`], { timeoutMs: DIFF_TIMEOUT_MS });
    if (!inner.ok) return { ok: false, outcome: inner };
    for (const f of inner.stdout.split('\0')) if (f) paths.push(f);
  }
  return { ok: true, paths };
}

/**
 * The changed paths inside an output folder of Synaptic (synaptic-out/ or any --out folder): one
 * that holds graph.json next to .manifest.json now, or whose pair is among the changes (deleted
 * since). The root itself is never one (its files are source). Each folder is looked at once.
 */
export function outputPaths(root: string, changed: Iterable<string>): string[] {
  const all = new Set(changed);
  const verdicts = new Map<string, boolean>();
  const isOutput = (dir: string): boolean => {
    let verdict = verdicts.get(dir);
    if (verdict === undefined) {
      verdict = marksOutput((name) => all.has(`${dir}/${name}`)) || holdsOutputs(join(root, dir));
      verdicts.set(dir, verdict);
    }
    return verdict;
  };
  const out: string[] = [];
  for (const path of all) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (isOutput(path.slice(0, slash))) {
        out.push(path);
        break;
      }
    }
  }
  return out;
}
