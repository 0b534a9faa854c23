import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ScopeFileError } from './errors.ts';
import type { Env } from './paths.ts';
import { parseScopeFile, SCOPE_FILE_NAMES, type ScopeFile } from './scope-file.ts';
import { formatRef, heldFor, VaultStore, type SecretInfo, type SecretRef } from './store.ts';
import { contentHash, TrustStore, type TrustRecord } from './trust.ts';

/** Shells `synaptic env` writes for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Longest `unavailable` list; the rest joins `elsewhere`. */
export const UNAVAILABLE_LIMIT = 20;

/** One scope file on the way down to the folder, as vaultstatus reports it. */
export interface ScopeStatus {
  path: string;
  scope: string;
  trusted: boolean;
  changed: boolean;
  env: string[];
  denied: string[];
  error: string | null;
}

/** The vaultstatus result (spec: memory-and-vault-tools.md, "vaultstatus"). Names only, never values. */
export interface VaultStatus {
  path: string;
  backend: 'encrypted';
  available: string[];
  unavailable: string[];
  elsewhere: number;
  ambient: 'ready' | 'stale' | 'off';
  shell: Shell | null;
  scopes: ScopeStatus[];
  warnings: string[];
  note: string;
}

/** A variable that resolves for the folder and the secret it comes from. */
export interface Grant {
  variable: string;
  ref: SecretRef;
}

/** Everything the vault knows about a folder: the public status plus the grants `run`/`env` use. */
export interface Resolution {
  status: VaultStatus;
  grants: Grant[];
  /** Parsed scope files with their current hash (for `scope trust`/`deny`). */
  files: Array<{ path: string; hash: string; parsed: ScopeFile | null; record: TrustRecord | undefined }>;
}

export const STATUS_NOTE =
  'Values stay in the vault and never in a response. A name under available resolves for this folder; ' +
  'one under unavailable is named by a scope file here and needs it approved first. ' +
  'elsewhere counts secrets held for other folders, which are never named.';

/** The scope files from the filesystem root down to `folder` (canonical), shallowest first. */
export function scopeFilesFor(folder: string): string[] {
  const dirs: string[] = [];
  for (let d = folder; ; d = dirname(d)) {
    dirs.unshift(d);
    if (dirname(d) === d) break;
  }
  const files: string[] = [];
  for (const d of dirs) {
    for (const name of SCOPE_FILE_NAMES) {
      const p = join(d, name);
      try {
        if (statSync(p).isFile()) files.push(p);
      } catch {
        // No scope file here.
      }
    }
  }
  return files;
}

function scopeLabel(file: string, parsed: ScopeFile | null, env: Env): string {
  if (parsed?.scope) return parsed.scope;
  const dir = dirname(file);
  if (dir === (env.HOME || homedir())) return 'home';
  return existsSync(join(dir, '.git')) ? 'project' : 'folder';
}

/**
 * Resolves the vault for a canonical folder: which variables its trusted scope files grant and the
 * vault holds for it, and the vaultstatus answer. Reads names and trust only: no key, no values.
 */
export function resolveFolder(folder: string, env: Env = process.env): Resolution {
  const store = new VaultStore(env);
  const trust = new TrustStore(env);
  const secrets = store.list();
  const byRef = new Map<string, SecretInfo>(secrets.map((s) => [s.ref, s]));
  const scopes: ScopeStatus[] = [];
  const files: Resolution['files'] = [];
  const warnings: string[] = [];
  // Deeper files override shallower ones for the same variable.
  const requests = new Map<string, { ref: SecretRef; usable: boolean; denied: boolean }>();

  for (const path of scopeFilesFor(folder)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (err) {
      scopes.push({ path, scope: 'folder', trusted: false, changed: false, env: [], denied: [], error: `Cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}` });
      continue;
    }
    const hash = contentHash(bytes);
    const record = trust.get(path);
    let parsed: ScopeFile | null = null;
    let error: string | null = null;
    try {
      parsed = parseScopeFile(bytes.toString('utf8'), path);
    } catch (err) {
      if (!(err instanceof ScopeFileError)) throw err;
      error = err.message;
      warnings.push(`${err.message}: fix it, then a person runs \`synaptic scope trust ${dirname(path)}\` in a terminal`);
    }
    files.push({ path, hash, parsed, record });
    const changed = record !== undefined && record.hash !== hash;
    const trusted = record !== undefined && record.trusted && !changed && !record.denyAll && error === null;
    const variables = parsed?.env.map((e) => e.variable) ?? [];
    const denied = record?.denyAll ? variables : variables.filter((v) => record?.denied.includes(v));
    scopes.push({ path, scope: scopeLabel(path, parsed, env), trusted, changed, env: variables, denied, error });
    if (changed) {
      warnings.push(`${path} changed since it was ${record!.trusted ? 'trusted' : 'reviewed'}: review it, then a person runs \`synaptic scope trust ${dirname(path)}\` in a terminal`);
    }
    for (const e of parsed?.env ?? []) {
      const isDenied = denied.includes(e.variable);
      requests.set(e.variable, { ref: e.ref, usable: trusted && !isDenied, denied: isDenied });
    }
  }

  const grants: Grant[] = [];
  const unavailableAll: string[] = [];
  for (const [variable, req] of [...requests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const info = byRef.get(formatRef(req.ref));
    if (req.usable && info && heldFor(info.folders, folder)) grants.push({ variable, ref: req.ref });
    else if (!req.denied) unavailableAll.push(formatRef(req.ref));
  }
  const unavailableSorted = [...new Set(unavailableAll)].sort();
  const unavailable = unavailableSorted.slice(0, UNAVAILABLE_LIMIT);
  const truncated = unavailableSorted.slice(UNAVAILABLE_LIMIT);
  const shown = new Set([...grants.map((g) => formatRef(g.ref)), ...unavailable]);
  const elsewhere = secrets.filter((s) => !shown.has(s.ref)).length + truncated.filter((r) => !byRef.has(r)).length;
  if (truncated.length > 0) warnings.push(`${truncated.length} more unavailable names are counted under elsewhere`);

  const available = grants.map((g) => g.variable);
  if (available.length === 0 && secrets.length > 0) warnings.push(nothingResolves(folder, secrets.length, scopes, requests, byRef));

  const hook = env.SYNAPTIC_ENV_HOOK;
  const hookShell = (SHELLS as readonly string[]).includes(hook ?? '') ? (hook as Shell) : null;
  const loginShell = basename(env.SHELL ?? '');
  const shell = hookShell ?? ((SHELLS as readonly string[]).includes(loginShell) ? (loginShell as Shell) : null);
  let ambient: VaultStatus['ambient'] = 'off';
  if (hookShell) {
    const exported = (env.SYNAPTIC_ENV_NAMES ?? '').split(',').filter(Boolean).sort();
    ambient = exported.join(',') === [...available].sort().join(',') ? 'ready' : 'stale';
    if (ambient === 'stale') warnings.push('The shell hook exported a different set of names than this folder resolves now: run a new prompt (or `synaptic env`) to refresh it');
  }

  const status: VaultStatus = {
    path: folder,
    backend: 'encrypted',
    available,
    unavailable,
    elsewhere,
    ambient,
    shell,
    scopes,
    warnings,
    note: STATUS_NOTE,
  };
  return { status, grants, files };
}

function nothingResolves(
  folder: string,
  count: number,
  scopes: ScopeStatus[],
  requests: Map<string, { ref: SecretRef; usable: boolean; denied: boolean }>,
  byRef: Map<string, SecretInfo>,
): string {
  const head = `No secret resolves for ${folder} and the vault holds ${count}`;
  if (scopes.length === 0) {
    return `${head}: run \`synaptic scope init\` here, name the secret in the env: block of .synaptic.yaml, then a person runs \`synaptic scope trust\` in a terminal`;
  }
  if (requests.size === 0) return `${head}: name the secret in the env: block of ${scopes[scopes.length - 1]!.path}, then a person runs \`synaptic scope trust\` in a terminal`;
  if ([...requests.values()].some((r) => !r.usable && !r.denied)) {
    return `${head}: review the scope files listed under scopes, then a person runs \`synaptic scope trust\` in their folder, in a terminal`;
  }
  if ([...requests.values()].some((r) => !byRef.has(formatRef(r.ref)))) {
    return `${head}: a person stores the named secrets with \`synaptic vault set NAME --for ${folder}\` in a terminal`;
  }
  return `${head}: the named secrets are held for other folders; a person adds this one with \`synaptic vault hold NAME --for ${folder}\` in a terminal`;
}
