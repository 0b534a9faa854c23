import { execFile } from 'node:child_process';
import { safeGitConfigEnv } from '../../extract/git.node.ts';

/**
 * The one way Synaptic runs the GitHub CLI: no shell, stdin closed, a timeout, prompts and the update
 * notifier off, and the git that gh runs for the repository's remotes hardened like ours
 * (git.node.ts). Failures come back as a GhProblem whose message the PR tools print as is.
 */

/** The spec's words when gh cannot be used (list_prs and the other PR tools). */
export const GH_UNAVAILABLE = 'gh CLI not found or not authenticated (run: gh auth login). PR data is skipped; graph audit continues offline.';

export class GhProblem extends Error {
  override name = 'GhProblem';
}

export interface GhOptions {
  /** Folder gh runs in (it finds the repository from there). */
  cwd: string;
  /** owner/name (or host/owner/name): `-R`. */
  repo?: string;
  timeoutMs?: number;
}

/** `owner/name` or `host/owner/name`, nothing gh could read as an option. */
export function checkRepoName(repo: string): string {
  if (!/^[A-Za-z0-9][\w.-]*(\/[\w.-]+){1,2}$/.test(repo)) throw new GhProblem(`repo '${repo}' is not owner/name (e.g. honojs/hono)`);
  return repo;
}

function ghEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^GIT_/i.test(k)) env[k] = v;
  return { ...env, ...safeGitConfigEnv(), GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1', GH_PAGER: 'cat', NO_COLOR: '1', CLICOLOR: '0' };
}

/** Runs `gh <args> [-R repo]` and parses its JSON output. */
export function ghJson<T>(args: readonly string[], options: GhOptions): Promise<T> {
  const argv = [...args, ...(options.repo ? ['-R', checkRepoName(options.repo)] : [])];
  return new Promise((resolvePromise, reject) => {
    const child = execFile('gh', argv, { cwd: options.cwd, env: ghEnv(), timeout: options.timeoutMs ?? 30_000, killSignal: 'SIGKILL', maxBuffer: 32 * 1024 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      if (err) {
        const e = err as Error & { code?: unknown; killed?: boolean };
        if (e.code === 'ENOENT') return reject(new GhProblem(GH_UNAVAILABLE));
        const text = String(stderr ?? '').trim();
        // gh exits 4 when it has no credentials; older versions only say so.
        if ((e.code as unknown) === 4 || /gh auth login|not logged in|authentication|GH_TOKEN/i.test(text)) return reject(new GhProblem(GH_UNAVAILABLE));
        if (e.killed) return reject(new GhProblem(`gh ${args[0] ?? ''} ${args[1] ?? ''} timed out. PR data is skipped; graph audit continues offline.`));
        const first = text.split('\n').find((l) => l.trim()) ?? `exit status ${String(e.code)}`;
        return reject(new GhProblem(`gh ${args.slice(0, 2).join(' ')} failed: ${first}. PR data is skipped; graph audit continues offline.`));
      }
      try {
        resolvePromise(JSON.parse(stdout) as T);
      } catch {
        reject(new GhProblem(`gh ${args.slice(0, 2).join(' ')} printed something that is not JSON (is 'gh' the GitHub CLI?)`));
      }
    });
    child.stdin?.end();
  });
}
