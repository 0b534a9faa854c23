import { spawnSync } from 'node:child_process';

/**
 * The one way Synaptic runs `git`. The repository being read is untrusted: its .git/config and
 * .gitattributes can name programs (fsmonitor, hooks, external diff, textconv, clean/smudge filters,
 * pagers, credential helpers, ssh, gpg) that an ordinary `git diff` would execute. Every such key is
 * overridden on the command line (command-line config beats every config file), drivers named in
 * any config are blanked one by one, and GIT_* variables are dropped so the environment cannot
 * point git at another repository or config. System and global config still load: the repository
 * cannot write them, and `safe.directory` lives there.
 */

/** Fixed overrides, in `-c key=value` form. Empty values reset a key (or a list, for credential.helper). */
const SAFE_CONFIG = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.askPass=', // empty, so git does not fall back to SSH_ASKPASS either
  'core.sshCommand=false',
  'credential.helper=',
  'diff.external=',
  'diff.ignoreSubmodules=all', // a dirty-submodule check runs git in the submodule's own repository
  'submodule.recurse=false',
  'log.showSignature=false', // signature checks run gpg.program, which the repository can set
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'safe.bareRepository=explicit', // an embedded bare repository in the tree is not picked up
  'core.quotePath=false',
];

/** Subcommands that run external diff drivers and textconv filters unless told not to. */
const DIFFING = new Set(['diff', 'log', 'show', 'whatchanged', 'diff-tree', 'diff-index', 'diff-files']);
/** Subcommands that run textconv but have no external-diff switch. */
const TEXTCONV_ONLY = new Set(['blame', 'annotate', 'grep']);

/** Per-driver keys whose value is a program git runs for paths the attributes assign to that driver. */
const DRIVER_KEY = /^(filter|diff|merge)\.(.+)\.(clean|smudge|process|textconv|command|driver)$/i;

export interface GitOptions {
  /** Kill git after this long (default 5 s). */
  timeoutMs?: number;
}

/** The environment git runs with: the caller's, minus every GIT_* variable, with prompts and optional locks off. */
function gitEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^GIT_/i.test(key)) env[key] = value;
  // Read-only callers must not rewrite the user's index (which would also fire post-index-change).
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', ...extra };
}

/** What one git command did: its output, exit status and whether the timeout killed it. */
export interface GitOutcome {
  ok: boolean;
  stdout: string;
  /** git's own message (trimmed), for telling a bad ref from a missing repository. */
  stderr: string;
  /** Exit status; null when git could not start or was killed. */
  status: number | null;
  timedOut: boolean;
  /** git is not installed (or not on PATH). */
  missing: boolean;
}

function spawnGit(root: string, args: readonly string[], extraEnv: Record<string, string>, timeoutMs: number): GitOutcome {
  const [sub, ...rest] = args;
  if (!sub) throw new Error('git(): no subcommand given');
  const guard = DIFFING.has(sub) ? ['--no-ext-diff', '--no-textconv'] : TEXTCONV_ONLY.has(sub) ? ['--no-textconv'] : [];
  const argv = ['--no-pager', '--no-optional-locks', ...SAFE_CONFIG.flatMap((c) => ['-c', c]), '-C', root, sub, ...guard, ...rest];
  const r = spawnSync('git', argv, {
    encoding: 'utf8',
    env: gitEnv(extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    shell: false,
    windowsHide: true,
  });
  const error = r.error as NodeJS.ErrnoException | undefined;
  return {
    ok: r.status === 0,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '').trim(),
    status: r.status,
    timedOut: error?.code === 'ETIMEDOUT' || (r.signal === 'SIGKILL' && r.status === null),
    missing: error?.code === 'ENOENT',
  };
}

/**
 * Overrides for the filter/diff/merge drivers any loaded config defines, passed through
 * GIT_CONFIG_COUNT so driver names never need quoting on a command line.
 */
function driverOverrides(root: string, timeoutMs: number): Record<string, string> | undefined {
  const out = spawnGit(root, ['config', '--null', '--name-only', '--get-regexp', '^(filter|diff|merge)\\.'], {}, timeoutMs).stdout;
  // Exit 1 means no driver is configured; any other failure surfaces on the real command.
  const keys = new Set(out.split('\0').filter((k) => DRIVER_KEY.test(k)));
  const values = new Map<string, string>();
  for (const key of keys) {
    values.set(key, '');
    // A required filter with no program makes git die instead of reading the file as is.
    if (/^filter\./i.test(key)) values.set(key.replace(/\.[^.]+$/, '.required'), 'false');
  }
  const env: Record<string, string> = {};
  let n = 0;
  for (const [key, value] of values) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n++}`] = value;
  }
  if (n === 0) return undefined;
  env.GIT_CONFIG_COUNT = String(n);
  return env;
}

/** Runs git commands in one repository; driver overrides are looked up once, on the first call. */
export type GitRunner = (args: readonly string[]) => string | undefined;

/** Like {@link GitRunner}, with git's exit status and message (for precise errors). */
export type GitOutcomeRunner = (args: readonly string[], options?: GitOptions) => GitOutcome;

/**
 * A runner for `git -C root <args>` with every repository-controlled program disabled (see the
 * module comment) that reports the whole outcome. No shell, stdin closed. A per-call timeout
 * overrides the runner's (a worktree checkout takes longer than a rev-parse).
 */
export function gitOutcomesIn(root: string, options: GitOptions = {}): GitOutcomeRunner {
  const timeoutMs = options.timeoutMs ?? 5000;
  let drivers: Record<string, string> | undefined | null = null;
  return (args, call) => {
    if (drivers === null) drivers = driverOverrides(root, timeoutMs);
    return spawnGit(root, args, drivers ?? {}, call?.timeoutMs ?? timeoutMs);
  };
}

/**
 * A runner for `git -C root <args>` with every repository-controlled program disabled (see the
 * module comment). Each call returns git's stdout, or undefined when git is missing, fails or
 * times out. No shell, stdin closed.
 */
export function gitIn(root: string, options: GitOptions = {}): GitRunner {
  const run = gitOutcomesIn(root, options);
  return (args) => {
    const r = run(args);
    return r.ok ? r.stdout : undefined;
  };
}

/** One git command in `root`, hardened as gitIn() describes. */
export function git(root: string, args: readonly string[], options?: GitOptions): string | undefined {
  return gitIn(root, options)(args);
}

/**
 * The fixed overrides as GIT_CONFIG_* variables, for a program that runs git itself (gh asks git for
 * the repository's remotes): its git calls then start no fsmonitor, hook, pager or credential helper.
 */
export function safeGitConfigEnv(): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(SAFE_CONFIG.length), GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
  SAFE_CONFIG.forEach((c, i) => {
    const eq = c.indexOf('=');
    env[`GIT_CONFIG_KEY_${i}`] = c.slice(0, eq);
    env[`GIT_CONFIG_VALUE_${i}`] = c.slice(eq + 1);
  });
  return env;
}
