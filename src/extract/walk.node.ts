import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Encoder, decode } from 'cbor-x';
import { languageForPath, type LanguageId } from './languages.ts';
import { isIgnored, parseIgnoreFile, type IgnoreScope } from './ignore-rules.ts';
import { marksOutput } from './out/marker.node.ts';

/**
 * File discovery with hygiene: which files of a repository extraction may read.
 *
 * Honours `.gitignore` (nested ones too) and `.synapticignore`; never descends into dependency,
 * build-output or VCS folders; never reads secrets (matched by name, before anything opens them) and
 * lists them as skipped; skips files over the size limit. Content-based checks (binary, minified,
 * generated) happen where the file is read: see {@link classifyContent}.
 */

/** Default size limit: larger source files are listed as skipped. */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/** Folders never entered: dependencies, build output, caches, VCS metadata, our own output. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules', 'bower_components', 'jspm_packages', 'vendor', 'third_party', '.yarn', '.pnpm-store',
  'dist', 'build', 'out', 'target', '.next', '.nuxt', '.svelte-kit', '.output', '.turbo', '.vercel',
  '.parcel-cache', '.cache', 'coverage', '.nyc_output', 'obj', '.gradle', 'DerivedData', 'Pods',
  '__pycache__', '.venv', 'venv', '.tox', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.eggs',
  '.dart_tool', 'elm-stuff', '.git', '.hg', '.svn', '.idea', '.vscode', 'synaptic-out',
]);

const SECRET_NAME = new RegExp(
  [
    '^\\.env(\\..*)?$', '^\\.envrc$', '\\.pem$', '\\.key$', '\\.p12$', '\\.pfx$', '\\.jks$', '\\.keystore$',
    '\\.ppk$', '\\.asc$', '\\.gpg$', '^id_(rsa|dsa|ecdsa|ed25519)', '^\\.npmrc$', '^\\.pypirc$', '^\\.netrc$',
    '^\\.htpasswd$', '^\\.pgpass$', '^credentials(\\.json)?$', '^secrets?\\.(json|ya?ml|toml)$',
    '^service-account.*\\.json$', '\\.tfstate(\\.backup)?$', '^\\.git-credentials$',
  ].join('|'),
  'i',
);

/** Whether a file name is a secret that must never be read. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

const GENERATED_NAME = /(\.min\.(js|mjs|cjs|css)$|-min\.js$|\.bundle\.js$|_pb2?(_grpc)?\.(py|pyi)$|_pb\.(js|ts|d\.ts)$|_grpc_pb\.(js|ts)$|\.pb\.(go|cc|h)$|\.generated\.\w+$|\.g\.cs$|\.designer\.cs$|\.g\.dart$)/i;

/** Whether a file name marks minified or generated code (by naming convention). */
export function generatedNameReason(name: string): string | null {
  if (!GENERATED_NAME.test(name)) return null;
  return /min\.|-min\./i.test(name) || /\.bundle\./i.test(name) ? 'minified' : 'generated';
}

export interface WalkedFile {
  /** Repo-relative, `/` separated. */
  path: string;
  abs: string;
  size: number;
  mtimeMs: number;
  language: LanguageId;
}

export interface WalkResult {
  /** Source files to extract, sorted by path. */
  files: WalkedFile[];
  /** Project configuration files (by name, e.g. tsconfig.json), repo-relative, sorted. */
  contextFiles: string[];
  /** Repo-relative path -> reason, for files deliberately not read. */
  skipped: Record<string, string>;
}

/**
 * One folder's entries as a previous walk listed them (sorted by name), with the folder's mtime
 * then. Kinds: 1 folder, 2 file, 3 symbolic link, 0 anything else.
 */
export interface DirListing {
  mtimeMs: number;
  names: string[];
  kinds: Uint8Array;
  /**
   * What the walk decided for these entries under the ignore rules and options it had (`key`, a
   * hash of both), saved with the listing: a later walk with the same listing and rules only stats
   * the candidate files, in a fresh process too.
   */
  plan?: { key: string; steps: WalkStep[] };
}

/** One entry's fate, before its stat: enter a folder, list a secret as skipped, or check a candidate file. */
type WalkStep =
  | { kind: 'dir'; name: string }
  | { kind: 'secret'; name: string }
  | { kind: 'file'; name: string; language: LanguageId | null; isContext: boolean; link: boolean };

/**
 * Folder listings kept between walks (synaptic-out/.walk.cbor): a folder whose mtime is what it was
 * when listed (and old enough that a change within the same timestamp tick is ruled out) has the
 * same entries, so it is not read again; its files are still stat'ed. The walk fills `next`.
 */
export interface ListingCache {
  previous: ReadonlyMap<string, DirListing> | null;
  /** Listings of folders with an mtime at or after this (ms since epoch) are read again. */
  trustBefore: number;
  next: Map<string, DirListing>;
  /** Set by the walk when some folder was read (the cache file is then worth rewriting). */
  changed: boolean;
}

export interface WalkOptions {
  /** Reuse and record folder listings (see {@link ListingCache}). */
  listings?: ListingCache;
  maxFileSize?: number;
  /** Base names of project configuration files to collect (CONTEXT_FILE_NAMES). */
  contextFileNames?: Iterable<string>;
  /** Absolute folders never entered (e.g. a custom output folder inside the repo). */
  excludeAbs?: Iterable<string>;
  /** Names the rules a walk's decisions follow beyond the ignore files and options (the extractor version): saved plans are reused only under the same one. */
  rulesKey?: string;
}

/** Files whose rules decide what a walk reads (in every folder). */
export const IGNORE_FILES: readonly string[] = ['.gitignore', '.synapticignore'];

/** Walk a repository: the files extraction reads, the config files, and what was skipped and why. */
export function walkRepository(root: string, options: WalkOptions = {}): WalkResult {
  const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  const contextNames = new Set(options.contextFileNames ?? []);
  const excluded = new Set(options.excludeAbs ?? []);
  const files: WalkedFile[] = [];
  const contextFiles: string[] = [];
  const skipped: Record<string, string> = {};
  let realRoot: string | null = null;
  const insideRoot = (abs: string): boolean => {
    try {
      realRoot ??= realpathSync(root);
      const target = realpathSync(abs);
      return target === realRoot || target.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
    } catch {
      return false; // dangling: nothing to read
    }
  };

  const cache = options.listings;
  const list = (absDir: string, relDir: string): DirListing | null => {
    let mtimeMs = -1;
    if (cache) {
      try {
        mtimeMs = statSync(absDir).mtimeMs; // before reading: a later change shows as a new mtime
      } catch {
        return null;
      }
      const prev = cache.previous?.get(relDir);
      if (prev && prev.mtimeMs === mtimeMs && mtimeMs < cache.trustBefore) {
        cache.next.set(relDir, prev);
        return prev;
      }
    }
    let entries;
    try {
      entries = readdirSync(absDir, { withFileTypes: true });
    } catch {
      return null; // unreadable folder: nothing to extract there
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const listing: DirListing = {
      mtimeMs,
      names: entries.map((e) => e.name),
      kinds: Uint8Array.from(entries, (e) => (e.isDirectory() ? 1 : e.isFile() ? 2 : e.isSymbolicLink() ? 3 : 0)),
    };
    if (cache) {
      cache.next.set(relDir, listing);
      cache.changed = true;
    }
    return listing;
  };

  // Decisions depend on the ignore rules in scope and these options: a plan is reused under the same key.
  const optionsKey = planKey(`${options.rulesKey ?? ''}\0${maxFileSize}\0${[...contextNames].join('\0')}\0${[...excluded].join('\0')}`);
  const planSteps = (absDir: string, relDir: string, listing: DirListing, here: IgnoreScope[]): WalkStep[] => {
    const steps: WalkStep[] = [];
    const { names, kinds } = listing;
    for (let e = 0; e < names.length; e++) {
      const name = names[e]!;
      const kind = kinds[e]!;
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      if (kind === 1) {
        if (SKIPPED_DIRS.has(name) || excluded.has(join(absDir, name)) || isIgnored(here, rel, true)) continue;
        steps.push({ kind: 'dir', name });
        continue;
      }
      // Secrets first, by name only: they are listed even when a rule would hide them.
      if (isSecretName(name)) {
        steps.push({ kind: 'secret', name });
        continue;
      }
      if (kind !== 2 && kind !== 3) continue;
      const isContext = contextNames.has(name);
      // Project configuration is read even where a rule names it (never as a source): git keeps
      // tracking a file added before or forced past its rule, as zod's own package.json under
      // `**/package.json` (meant for generated subpath stubs); import resolution needs it.
      const ignored = isIgnored(here, rel, false);
      if (ignored && !isContext) continue;
      const language = ignored ? null : languageForPath(rel);
      if (!language && !isContext) continue;
      steps.push({ kind: 'file', name, language, isContext, link: kind === 3 });
    }
    return steps;
  };

  const visit = (absDir: string, relDir: string, scopes: IgnoreScope[], scopeKey: string): void => {
    const listing = list(absDir, relDir);
    if (!listing) return;
    const { names, kinds } = listing;
    // Another Synaptic output folder (custom --out): graph.json next to .manifest.json.
    if (relDir !== '' && marksOutput((name) => names.includes(name))) return;
    const texts: string[] = [];
    for (const name of IGNORE_FILES) {
      const at = names.indexOf(name);
      if (at < 0 || kinds[at] !== 2) continue;
      try {
        texts.push(readFileSync(join(absDir, name), 'utf8'));
      } catch {
        // unreadable: no rules from it
      }
    }
    const localRules = texts.flatMap((text) => parseIgnoreFile(text));
    const here = localRules.length ? [...scopes, { base: relDir, rules: localRules }] : scopes;
    const key = texts.length ? planKey(`${scopeKey}\u0001${relDir}\u0002${texts.join('\u0002')}`) : scopeKey;
    if (listing.plan?.key !== key) {
      listing.plan = { key, steps: planSteps(absDir, relDir, listing, here) };
      if (cache) cache.changed = true;
    }
    for (const step of listing.plan.steps) {
      const rel = relDir === '' ? step.name : `${relDir}/${step.name}`;
      if (step.kind === 'dir') {
        visit(join(absDir, step.name), rel, here, key);
        continue;
      }
      if (step.kind === 'secret') {
        skipped[rel] = 'secret';
        continue;
      }
      const { language } = step;
      const abs = join(absDir, step.name);
      // A link is followed only while its target stays inside the repository (no /etc/passwd, no
      // other checkout, reaches the graph through a planted link).
      if (step.link && !insideRoot(abs)) {
        if (language || step.isContext) skipped[rel] = 'symbolic link out of the repository';
        continue;
      }
      let size: number;
      let mtimeMs: number;
      try {
        const st = statSync(abs);
        if (!st.isFile()) continue;
        size = st.size;
        mtimeMs = st.mtimeMs;
      } catch {
        continue; // dangling link or raced deletion
      }
      if (step.isContext && size <= maxFileSize) contextFiles.push(rel);
      if (!language) continue;
      const generated = generatedNameReason(step.name);
      if (generated) {
        skipped[rel] = generated;
        continue;
      }
      if (size > maxFileSize) {
        skipped[rel] = `too large (${size} bytes > ${maxFileSize})`;
        continue;
      }
      files.push({ path: rel, abs, size, mtimeMs, language });
    }
  };

  visit(root, '', [], optionsKey);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  contextFiles.sort();
  return { files, contextFiles, skipped };
}

const LISTINGS_VERSION = 4;

/** A short stable name for the rules a plan was made under. */
function planKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** Step kinds on disk: 0 folder, 1 secret, 2 file, 3 context file (+4: a symbolic link); plus the file's language ('' none). */
type WirePlan = [key: string, kinds: Uint8Array, names: string[], languages: string[]];

function planToWire(plan: NonNullable<DirListing['plan']>): WirePlan {
  const kinds = new Uint8Array(plan.steps.length);
  const names: string[] = [];
  const languages: string[] = [];
  plan.steps.forEach((step, i) => {
    kinds[i] = step.kind === 'dir' ? 0 : step.kind === 'secret' ? 1 : (step.isContext ? 3 : 2) + (step.link ? 4 : 0);
    names.push(step.name);
    languages.push(step.kind === 'file' ? step.language ?? '' : '');
  });
  return [plan.key, kinds, names, languages];
}

function planFromWire(w: unknown): DirListing['plan'] | undefined {
  if (!Array.isArray(w) || w.length !== 4) return undefined;
  const [key, kinds, names, languages] = w as WirePlan;
  if (typeof key !== 'string' || !(kinds instanceof Uint8Array) || !Array.isArray(names) || !Array.isArray(languages) || names.length !== kinds.length || languages.length !== kinds.length) return undefined;
  const steps: WalkStep[] = [];
  for (let i = 0; i < kinds.length; i++) {
    const kind = kinds[i]!;
    const name = names[i]!;
    if (kind === 0) steps.push({ kind: 'dir', name });
    else if (kind === 1) steps.push({ kind: 'secret', name });
    else steps.push({ kind: 'file', name, language: (languages[i] || null) as LanguageId | null, isContext: (kind & 3) === 3, link: kind >= 4 });
  }
  return { key, steps };
}

/** Folder listings saved by {@link saveListings}; null when absent or unreadable. */
export function loadListings(file: string): { scannedAtMs: number; listings: Map<string, DirListing> } | null {
  try {
    const w = decode(readFileSync(file)) as { version?: number; scanned_at_ms?: number; dirs?: [string, number, string[], Uint8Array, unknown][] };
    if (!w || w.version !== LISTINGS_VERSION || typeof w.scanned_at_ms !== 'number' || !Array.isArray(w.dirs)) return null;
    const listings = new Map<string, DirListing>();
    for (const [rel, mtimeMs, names, kinds, plan] of w.dirs) {
      if (typeof rel !== 'string' || typeof mtimeMs !== 'number' || !Array.isArray(names) || !(kinds instanceof Uint8Array) || kinds.length !== names.length) return null;
      const planned = planFromWire(plan);
      listings.set(rel, { mtimeMs, names, kinds, ...(planned ? { plan: planned } : {}) });
    }
    return { scannedAtMs: w.scanned_at_ms, listings };
  } catch {
    return null;
  }
}

/** The bytes of a listings file: what a walk that started at `scannedAtMs` listed, and its plans. */
export function encodeListings(scannedAtMs: number, listings: ReadonlyMap<string, DirListing>): Uint8Array {
  const dirs = [...listings].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([rel, l]) => [rel, l.mtimeMs, l.names, l.kinds, l.plan ? planToWire(l.plan) : null]);
  return new Encoder({ useRecords: false }).encode({ version: LISTINGS_VERSION, scanned_at_ms: scannedAtMs, dirs });
}

const GENERATED_MARKER = /@generated\b|\bDO NOT EDIT\b|<auto-generated|[Tt]his file (is|was|has been) (automatically |auto-)?generated/;

/**
 * Content checks on a file that was read: binary (NUL byte early on), generated (a marker in the
 * header) or minified (very long lines). Returns the skip reason or null.
 */
export function classifyContent(bytes: Uint8Array): string | null {
  const head = Math.min(bytes.length, 8000);
  for (let i = 0; i < head; i++) if (bytes[i] === 0) return 'binary';
  const headText = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1200)).toString('latin1');
  if (GENERATED_MARKER.test(headText)) return 'generated';
  // Minified: a line past 2000 characters that makes up most of a file with few lines.
  const sample = Math.min(bytes.length, 64 * 1024);
  let lines = 1;
  let longest = 0;
  let run = 0;
  for (let i = 0; i < sample; i++) {
    if (bytes[i] === 10) {
      lines++;
      if (run > longest) longest = run;
      run = 0;
    } else run++;
  }
  if (run > longest) longest = run;
  if (longest > 2000 && sample / lines > 300) return 'minified';
  return null;
}
