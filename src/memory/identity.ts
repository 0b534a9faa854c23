import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The key project memory is stored under: the normalized URL of the repository's `origin` remote
 * (else its first remote), e.g. `github.com/acme/app`, so two machines' clones of one repository share
 * project memory; a folder without a remote keeps its path. Read from the git config files directly
 * (no `git` process per call); cached per path for the life of the process.
 */
export function projectKey(path: string): string {
  if (!isAbsolute(path)) return path; // already a key (an import of another machine's export)
  let key = cache.get(path);
  if (key === undefined) {
    key = remoteOf(path) ?? path;
    if (cache.size > 1000) cache.clear();
    cache.set(path, key);
  }
  return key;
}

const cache = new Map<string, string>();

/** Forgets cached keys (tests that add a remote to a repository they already used). */
export function clearProjectKeys(): void {
  cache.clear();
}

/** The git directory holding `config` for a repository root (worktrees and submodules point elsewhere). */
function configDir(root: string): string | null {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m) return null;
    const gitDir = resolve(root, m[1]!.trim());
    const common = join(gitDir, 'commondir');
    return existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
  } catch {
    return null;
  }
}

function remoteOf(root: string): string | null {
  const dir = configDir(root);
  if (!dir) return null;
  let text: string;
  try {
    text = readFileSync(join(dir, 'config'), 'utf8');
  } catch {
    return null;
  }
  const urls = new Map<string, string>();
  let remote: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*remote\s+"([^"]*)"\s*\]/.exec(line);
    if (section) remote = section[1]!;
    else if (/^\s*\[/.test(line)) remote = null;
    else if (remote !== null && !urls.has(remote)) {
      const url = /^\s*url\s*=\s*(.+?)\s*$/.exec(line);
      if (url) urls.set(remote, url[1]!.replace(/^"(.*)"$/, '$1'));
    }
  }
  const url = urls.get('origin') ?? urls.values().next().value;
  return url === undefined ? null : normalizeRemote(url);
}

/**
 * `git@github.com:Acme/App.git`, `https://user:token@github.com/acme/app`, `ssh://git@github.com:22/acme/app.git/`
 * all become `github.com/acme/app` (host and path lower-cased, credentials, port, scheme and `.git`
 * dropped). A local path remote (no host) is not portable: null, so the project keeps its path.
 */
export function normalizeRemote(url: string): string | null {
  let host: string;
  let path: string;
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.+)$/.exec(url);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.protocol === 'file:' || parsed.hostname === '') return null;
    host = parsed.hostname;
    path = decodeURIComponent(parsed.pathname);
  } else if (scp && !isAbsolute(url) && !/^[a-zA-Z]:[\\/]/.test(url)) {
    host = scp[1]!;
    path = scp[2]!;
  } else {
    return null;
  }
  path = path.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/^\/+/, '');
  if (path === '') return null;
  return `${host}/${path}`.toLowerCase();
}
