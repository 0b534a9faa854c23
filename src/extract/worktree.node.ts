import { copyFileSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gitOutcomesIn, type GitOutcomeRunner } from './git.node.ts';
import { alive } from './out/lock.node.ts';

/**
 * A repository as the change-aware tools see it: its top folder and a hardened git runner (every
 * call goes through git.node.ts), plus throwaway worktrees that are removed on every exit path.
 */

/** Why a git question cannot be answered, in words a user can act on. */
export class RepoError extends Error {
  override name = 'RepoError';
}

export const NOT_A_REPO = 'git unavailable or not a git repository';

export interface Repo {
  root: string;
  git: GitOutcomeRunner;
}

/** The repository holding `dir` (its top folder), or a RepoError saying why there is none. */
export function openRepo(dir: string): Repo {
  const git = gitOutcomesIn(dir, { timeoutMs: 10_000 });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.missing) throw new RepoError(`${NOT_A_REPO} (git is not installed or not on PATH). Graph audit continues offline.`);
  if (!top.ok) throw new RepoError(`${NOT_A_REPO} (${dir}). Graph audit continues offline.`);
  const root = top.stdout.trim();
  return { root, git: gitOutcomesIn(root, { timeoutMs: 10_000 }) };
}

/** True when the repository has at least one commit. */
export function hasCommits(repo: Repo): boolean {
  return repo.git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).ok;
}

/**
 * The commit a revision names, or a RepoError that tells an empty repository, a shallow clone
 * whose history stops short of it and a name that is not a revision apart.
 */
export function resolveCommit(repo: Repo, rev: string): string {
  if (!rev.trim() || rev.startsWith('-') || /[\0\n]/.test(rev)) throw new RepoError(`'${rev}' is not a revision (a branch, tag, SHA or an expression like HEAD~3)`);
  const r = repo.git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  if (r.ok) return r.stdout.trim();
  if (!hasCommits(repo)) throw new RepoError(`the repository ${repo.root} has no commits yet, so '${rev}' names nothing: commit first`);
  if (repo.git(['rev-parse', '--is-shallow-repository']).stdout.trim() === 'true') {
    const depth = repo.git(['rev-list', '--count', 'HEAD']).stdout.trim();
    throw new RepoError(`unknown revision '${rev}' in a shallow clone (its history stops after ${depth} commit(s)): run \`git fetch --unshallow\` or name a revision within it`);
  }
  throw new RepoError(`unknown revision '${rev}': not a branch, tag or commit of ${repo.root}`);
}

/** Prefix of every worktree folder we make; the pid in the name lets a later run sweep a dead run's leftovers. */
const PREFIX = 'synaptic-wt-';

/** Worktrees this process has open, removed by the exit hook if a finally block never runs. */
const open = new Map<string, Repo>();
/** Process groups of commands running in those worktrees (speculate), killed by the same hooks. */
const groups = new Set<number>();
let exitHooked = false;

/** Registers a command's process group so an exit or a signal kills it with the worktrees. */
export function trackGroup(pid: number): () => void {
  groups.add(pid);
  return () => groups.delete(pid);
}

/** Folders of worktrees already unregistered whose files are still being deleted in the background. */
const discarding = new Map<string, Promise<void>>();

function cleanUpAll(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  groups.clear();
  for (const [dir, r] of [...open]) removeWorktree(r, dir);
  for (const dir of discarding.keys()) rmSync(dir, { recursive: true, force: true });
  discarding.clear();
  for (const p of parked) dropParked(p);
  for (const dir of alsoRemove) rmSync(dir, { recursive: true, force: true });
  alsoRemove.clear();
}

/** Guards on while we hold anything to clean up. */
function guardNow(): void {
  guardSignals(open.size + parked.size + alsoRemove.size > 0);
}

/** Other folders deleted with the worktrees at exit or on a signal (time_travel_diff's kept outputs); returns the undo. */
const alsoRemove = new Set<string>();
export function removeAtExit(dir: string): () => void {
  alsoRemove.add(dir);
  guardNow();
  return () => {
    alsoRemove.delete(dir);
    guardNow();
  };
}

/** While worktrees are open, SIGINT/SIGTERM/SIGHUP clean up first and then end the process as the signal would. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
function onSignal(signal: NodeJS.Signals): void {
  cleanUpAll();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  process.kill(process.pid, signal);
}
function guardSignals(on: boolean): void {
  if (on && !exitHooked) {
    exitHooked = true;
    process.on('exit', cleanUpAll);
  }
  for (const s of SIGNALS) {
    process.removeListener(s, onSignal);
    if (on) process.on(s, onSignal);
  }
}

function removeWorktree(repo: Repo, dir: string): void {
  repo.git(['worktree', 'remove', '--force', '--force', dir], { timeoutMs: 60_000 });
  rmSync(dir, { recursive: true, force: true });
  repo.git(['worktree', 'prune']);
  open.delete(dir);
}

/**
 * Unregisters a worktree at once and deletes its files in the background: the folder is renamed
 * (it keeps our prefix and pid, so a killed run's leftovers are swept), its .git link removed and
 * git's registration pruned; the answer does not wait for thousands of files to be unlinked. The
 * exit hook deletes what is still pending; {@link settleWorktrees} waits for it.
 */
function discardWorktree(repo: Repo, dir: string): void {
  const trash = `${dir}-done`;
  try {
    renameSync(dir, trash);
  } catch {
    removeWorktree(repo, dir);
    return;
  }
  open.delete(dir);
  try {
    unlinkSync(join(trash, '.git'));
  } catch {
    // a checkout that failed early has no link
  }
  repo.git(['worktree', 'prune']);
  const done = rm(trash, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined).finally(() => discarding.delete(trash));
  discarding.set(trash, done);
}

/** Waits until the files of discarded worktrees are deleted (benchmarks and tests). */
export async function settleWorktrees(): Promise<void> {
  await Promise.all([...discarding.values()]);
}

/** Removes worktrees a killed run of ours left registered (their pid is gone). */
export function sweepWorktrees(repo: Repo): number {
  const list = repo.git(['worktree', 'list', '--porcelain']);
  let swept = 0;
  for (const line of list.stdout.split('\n')) {
    if (!line.startsWith('worktree ')) continue;
    const dir = line.slice('worktree '.length);
    const m = new RegExp(`^${PREFIX}(\\d+)-`).exec(basename(dir));
    if (!m || open.has(dir) || alive(Number(m[1]))) continue;
    removeWorktree(repo, dir);
    swept++;
  }
  // Folders whose registration is already gone (a crash between add and the first write).
  for (const name of safeList(tmpdir())) {
    const m = new RegExp(`^${PREFIX}(\\d+)-`).exec(name);
    if (m && !alive(Number(m[1])) && !discarding.has(join(tmpdir(), name))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
  return swept;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Runs `fn` in a detached worktree of `sha` and removes the worktree afterwards, whatever happens:
 * a throw or rejection (finally), a normal exit of the process (exit hook) and, for a kill, the next
 * run's sweep. Hooks, filters and fsmonitor stay off (git.node.ts).
 */
export async function withWorktree<T>(repo: Repo, sha: string, fn: (dir: string) => Promise<T>): Promise<T> {
  return withSharedWorktree(repo, (tree) => fn(tree.at(sha)));
}

/** One worktree that moves from commit to commit (see {@link withSharedWorktree}). */
export interface SharedWorktree {
  /** The worktree's folder with `sha` checked out: added on first use, a checkout of the files that differ after. */
  at(sha: string): string;
  /** The commit checked out now (undefined before the first at() and after a failed checkout). */
  current(): string | undefined;
}

/**
 * A worktree kept between calls (time_travel_diff's neighbour): its files stay in the temp dir,
 * unregistered (`git worktree list` shows nothing, no .git link), with a copy of its index (so git
 * still knows their stat); {@link withSharedWorktree} registers it again and checks out only the
 * files that differ. Deleted at exit, by {@link dropParked}, or by a later run's sweep (our pid in the name).
 */
export interface ParkedTree {
  root: string;
  dir: string;
  index: string;
  sha: string;
}

const parked = new Set<ParkedTree>();

/** Deletes a parked worktree's files (in the background unless `sync`). */
export function dropParked(p: ParkedTree, sync = true): void {
  if (!parked.delete(p)) return;
  guardNow();
  rmSync(p.index, { force: true });
  if (sync) rmSync(p.dir, { recursive: true, force: true });
  else {
    const done = rm(p.dir, { recursive: true, force: true, maxRetries: 2 }).catch(() => undefined).finally(() => discarding.delete(p.dir));
    discarding.set(p.dir, done);
  }
}

/** The worktree's own git folder (.git/worktrees/<name>), from its .git link. */
function gitdirOf(dir: string): string {
  const link = /^gitdir: (.+)$/m.exec(readFileSync(join(dir, '.git'), 'utf8'));
  if (!link) throw new RepoError(`${dir}/.git is not a worktree link`);
  return resolve(dir, link[1]!.trim());
}

/** Unregisters a worktree but keeps its files and a copy of its index (see {@link ParkedTree}). */
function parkWorktree(repo: Repo, dir: string, sha: string): ParkedTree {
  const into = `${dir}-parked`;
  const index = `${into}.index`;
  copyFileSync(join(gitdirOf(dir), 'index'), index);
  renameSync(dir, into);
  open.delete(dir);
  const p: ParkedTree = { root: repo.root, dir: into, index, sha };
  parked.add(p);
  try {
    unlinkSync(join(into, '.git'));
  } finally {
    repo.git(['worktree', 'prune']);
  }
  return p;
}

/**
 * Registers a parked worktree again at a fresh folder name: a worktree of its commit is added
 * without a checkout, its .git link and the kept index move to the parked files, which are then
 * renamed to that folder. Returns the folder; throws (the parked files dropped) when git refuses.
 */
function unparkWorktree(repo: Repo, p: ParkedTree, dir: string): void {
  parked.delete(p);
  try {
    const added = repo.git(['worktree', 'add', '--no-checkout', '--detach', '--force', dir, p.sha], { timeoutMs: 60_000 });
    if (!added.ok) throw failed('into a worktree', p.sha, added);
    copyFileSync(p.index, join(gitdirOf(dir), 'index'));
    renameSync(join(dir, '.git'), join(p.dir, '.git'));
    rmdirSync(dir);
    renameSync(p.dir, dir);
  } catch (err) {
    parked.add(p);
    dropParked(p);
    throw err;
  } finally {
    rmSync(p.index, { force: true });
  }
}

export interface ShareOptions {
  /** A worktree a previous call parked: used (if of this repository) instead of a fresh checkout. */
  parked?: ParkedTree;
  /** Asked after `fn`: the commit to park the worktree at (it is kept for a later call), or undefined to discard it. */
  park?: (current: string | undefined) => string | undefined;
  /** Gets the parked worktree (the one passed in, when this call never needed a checkout). */
  onParked?: (p: ParkedTree) => void;
}

function failed(what: string, sha: string, r: { timedOut: boolean; stderr: string; status: number | null }): RepoError {
  return new RepoError(`cannot check out ${sha.slice(0, 12)} ${what}: ${r.timedOut ? 'timed out' : r.stderr.split('\n').pop() || `git exited ${r.status}`}`);
}

/**
 * Like {@link withWorktree}, for several commits in turn: the worktree is added on the first
 * `at()` and later ones check the next commit out in place (git rewrites only the files that
 * differ, and the others keep their stat, so an update there reuses them). Removed afterwards on
 * every exit path; nothing is added when `fn` never asks for a commit.
 */
export async function withSharedWorktree<T>(repo: Repo, fn: (tree: SharedWorktree) => Promise<T>, options: ShareOptions = {}): Promise<T> {
  let dir: string | undefined;
  let current: string | undefined;
  let reuse = options.parked && options.parked.root === repo.root && parked.has(options.parked) ? options.parked : undefined;
  const tree: SharedWorktree = {
    current: () => current,
    at(sha) {
      if (dir === undefined && reuse) {
        const p = reuse;
        reuse = undefined;
        dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
        open.set(dir, repo);
        guardNow();
        try {
          unparkWorktree(repo, p, dir);
          current = p.sha;
        } catch {
          // the parked files are gone: a fresh checkout below
          removeWorktree(repo, dir);
          dir = undefined;
        }
      }
      if (dir === undefined) {
        sweepWorktrees(repo);
        dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
        open.set(dir, repo);
        guardNow();
        const added = repo.git(['worktree', 'add', '--detach', '--force', dir, sha], { timeoutMs: 300_000 });
        if (!added.ok) throw failed('into a worktree', sha, added);
      } else if (current !== sha) {
        current = undefined;
        const moved = gitOutcomesIn(dir, { timeoutMs: 300_000 })(['checkout', '--quiet', '--detach', '--force', sha]);
        if (!moved.ok) throw failed('in the worktree', sha, moved);
      }
      current = sha;
      return dir;
    },
  };
  try {
    return await fn(tree);
  } finally {
    if (dir !== undefined) {
      const at = options.park?.(current);
      let kept: ParkedTree | undefined;
      if (at !== undefined && at === current) {
        try {
          kept = parkWorktree(repo, dir, at);
        } catch {
          // not parkable (index missing): discarded as usual (a half-parked folder goes at exit)
        }
      }
      if (kept) options.onParked?.(kept);
      else if (open.has(dir)) discardWorktree(repo, dir);
      guardNow();
    } else if (reuse) options.onParked?.(reuse);
  }
}
