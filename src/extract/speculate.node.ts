import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gitOutcomesIn } from './git.node.ts';
import { RepoError, trackGroup, withWorktree, type Repo } from './worktree.node.ts';

/**
 * speculate's engine: run the project's test or build command in a throwaway worktree of HEAD with
 * the working changes applied (tracked edits as a patch, untracked files copied), under a time
 * limit and an output cap, and remove the worktree (and kill the command's process group) on
 * every exit path. Runs only when the server was started with --allow-exec.
 */

export interface Detected {
  /** What is run: argv for a detected command, or a shell line the caller gave. */
  argv: string[];
  /** How it was chosen, for the report (e.g. `package.json scripts.test`). */
  source: string;
}

/** The project's test (else build) command, from the files that name one; undefined when none does. */
export function detectCommand(root: string): Detected | undefined {
  const pkg = join(root, 'package.json');
  if (existsSync(pkg)) {
    try {
      const scripts = (JSON.parse(readFileSync(pkg, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      if (scripts.test && !/no test specified/.test(scripts.test)) return { argv: ['npm', 'test', '--silent'], source: 'package.json scripts.test' };
      if (scripts.build) return { argv: ['npm', 'run', 'build', '--silent'], source: 'package.json scripts.build' };
    } catch {
      // not JSON: try the next convention
    }
  }
  const makefile = ['Makefile', 'makefile', 'GNUmakefile'].find((f) => existsSync(join(root, f)));
  if (makefile) {
    const text = readFileSync(join(root, makefile), 'utf8');
    return /^test\s*:/m.test(text) ? { argv: ['make', 'test'], source: `${makefile} target test` } : { argv: ['make'], source: `${makefile} default target` };
  }
  if (['pyproject.toml', 'pytest.ini', 'setup.cfg', 'tox.ini'].some((f) => existsSync(join(root, f)))) return { argv: ['python3', '-m', 'pytest', '-rA', '-q'], source: 'Python project (pytest)' };
  if (existsSync(join(root, 'go.mod'))) return { argv: ['go', 'test', '-v', './...'], source: 'go.mod' };
  if (existsSync(join(root, 'Cargo.toml'))) return { argv: ['cargo', 'test'], source: 'Cargo.toml' };
  return undefined;
}

/** Keeps the first and the last part of a long output (where a runner prints its setup and its verdict). */
export class CappedOutput {
  private head = '';
  private tail = '';
  dropped = 0;
  constructor(private readonly headMax: number, private readonly tailMax: number) {}
  push(chunk: string): void {
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (!chunk) return;
    this.tail += chunk;
    if (this.tail.length > this.tailMax) {
      this.dropped += this.tail.length - this.tailMax;
      this.tail = this.tail.slice(this.tail.length - this.tailMax);
    }
  }
  text(): string {
    return this.dropped ? `${this.head}\n[... ${this.dropped} characters cut ...]\n${this.tail}` : this.head + this.tail;
  }
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  ms: number;
  output: string;
  truncated: boolean;
}

/** Runs argv in its own process group; on timeout the whole group is killed. */
export function runCapped(argv: string[], cwd: string, timeoutMs: number, cap: { head: number; tail: number }): Promise<RunResult> {
  const started = performance.now();
  const out = new CappedOutput(cap.head, cap.tail);
  return new Promise((resolvePromise) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' } });
    let timedOut = false;
    const untrack = child.pid ? trackGroup(child.pid) : () => false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => out.push(d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => out.push(d));
    child.on('error', (err) => {
      clearTimeout(timer);
      untrack();
      resolvePromise({ exitCode: null, signal: null, timedOut: false, ms: performance.now() - started, output: `cannot start ${argv[0]}: ${err.message}`, truncated: false });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // children the command left running
      untrack();
      resolvePromise({ exitCode: code, signal, timedOut, ms: performance.now() - started, output: out.text(), truncated: out.dropped > 0 });
    });
  });
}

/** Dependency folders a fresh worktree lacks but the command needs (ignored, so not checked out): linked from the repository. */
const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv'];

/**
 * Applies the working tree's changes against HEAD to a worktree: tracked edits (staged or not) as a
 * binary patch that git applies inside the worktree, untracked files copied. The user's tree is only read.
 */
function applyWorkingChanges(repo: Repo, worktree: string): number {
  const diff = repo.git(['diff', '--binary', '--no-color', '--no-renames', 'HEAD', '--'], { timeoutMs: 60_000 });
  if (!diff.ok) throw new RepoError(`cannot read the working changes: ${diff.stderr.split('\n')[0] || 'git diff failed'}`);
  let changed = 0;
  if (diff.stdout.trim()) {
    const dir = mkdtempSync(join(tmpdir(), 'synaptic-patch-'));
    try {
      const patch = join(dir, 'changes.patch');
      writeFileSync(patch, diff.stdout);
      const applied = gitOutcomesIn(worktree, { timeoutMs: 60_000 })(['apply', '--binary', '--whitespace=nowarn', patch]);
      if (!applied.ok) throw new RepoError(`cannot apply the working changes to a worktree of HEAD: ${applied.stderr.split('\n')[0] || 'git apply failed'}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    changed += diff.stdout.split('\n').filter((l) => l.startsWith('diff --git ')).length;
  }
  const untracked = repo.git(['ls-files', '-z', '--others', '--exclude-standard'], { timeoutMs: 30_000 });
  for (const rel of untracked.stdout.split('\0').filter(Boolean)) {
    const from = join(repo.root, rel);
    if (!lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(worktree, rel)), { recursive: true });
    copyFileSync(from, join(worktree, rel));
    changed++;
  }
  return changed;
}

export interface SpeculateOptions {
  repo: Repo;
  /** A shell line to run instead of the detected command. */
  command?: string;
  timeoutMs: number;
  cap?: { head: number; tail: number };
}

export interface SpeculateResult extends RunResult {
  head: string;
  command: string;
  source: string;
  changedFiles: number;
}

export async function speculate(options: SpeculateOptions): Promise<SpeculateResult> {
  const { repo } = options;
  const head = repo.git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (!head.ok) throw new RepoError(`the repository ${repo.root} has no commits yet: there is no HEAD to build the working changes on`);
  const detected: Detected | undefined = options.command !== undefined ? { argv: ['/bin/sh', '-c', options.command], source: 'given' } : detectCommand(repo.root);
  if (!detected) throw new RepoError(`no test or build command found in ${repo.root} (no package.json test/build script, Makefile, pyproject.toml, go.mod or Cargo.toml): pass command`);
  return withWorktree(repo, head.stdout.trim(), async (dir) => {
    const changedFiles = applyWorkingChanges(repo, dir);
    for (const d of DEPENDENCY_DIRS) if (existsSync(join(repo.root, d)) && !existsSync(join(dir, d))) symlinkSync(join(repo.root, d), join(dir, d));
    const run = await runCapped(detected.argv, dir, options.timeoutMs, options.cap ?? { head: 16_000, tail: 48_000 });
    return { ...run, head: head.stdout.trim(), command: options.command ?? detected.argv.join(' '), source: detected.source, changedFiles };
  });
}
