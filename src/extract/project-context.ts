/**
 * Project-level configuration that module resolution needs: tsconfig/jsconfig `baseUrl` + `paths`,
 * workspace packages (package.json name -> folder and entry files), Go modules (go.mod), Rust
 * crates (Cargo.toml), PHP PSR-4 roots (composer.json). Built from the raw text of those files,
 * so it is a pure function (the pipeline reads the files). Browser-safe.
 */

/** File names the pipeline should read (anywhere in the repo) and pass to `buildProjectContext`. */
export const CONTEXT_FILE_NAMES: string[] = [
  'tsconfig.json', 'tsconfig.base.json', 'jsconfig.json', 'package.json', 'go.mod', 'Cargo.toml', 'composer.json',
];

export interface TsConfigPaths {
  /** Folder of the config file ('' at the repo root). */
  dir: string;
  /** Resolved baseUrl folder (repo-relative), if any. */
  baseUrl?: string;
  /** `paths` patterns in declaration order, targets resolved against baseUrl (or dir). */
  paths: { pattern: string; targets: string[] }[];
}

export interface WorkspacePackage {
  name: string;
  dir: string;
  /** Candidate entry files (repo-relative, without guaranteed existence), best first. */
  entries: string[];
  /**
   * `exports` subpaths (`"./v4": ...`, `"./*": ...`): the specifier's part after the package name
   * (`v4`, one `*` at most) -> candidate files like `entries`, best first.
   */
  subpaths?: { pattern: string; targets: string[] }[];
}

export interface ProjectContext {
  tsconfigs: TsConfigPaths[];
  packages: WorkspacePackage[];
  goModules: { dir: string; module: string }[];
  rustCrates: { dir: string; name: string }[];
  psr4: { prefix: string; dir: string }[];
}

/** Parses JSON with comments and trailing commas (tsconfig style); returns undefined on failure. */
export function parseJsonc(text: string): unknown {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    return undefined;
  }
}

/** Normalises `a/./b/../c` -> `a/c`; '' for the root. Leading `..` past the root is dropped. */
export function normalizePath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function join(dir: string, rel: string): string {
  return normalizePath(dir ? `${dir}/${rel}` : rel);
}

type Json = Record<string, unknown>;

function tsconfigOf(path: string, files: Record<string, string>, seen: Set<string>): { baseUrl?: string; paths?: Record<string, string[]>; pathsBase?: string } {
  if (seen.has(path) || seen.size > 10) return {};
  seen.add(path);
  const json = parseJsonc(files[path] ?? '') as Json | undefined;
  if (!json || typeof json !== 'object') return {};
  const dir = dirOf(path);
  let inherited: { baseUrl?: string; paths?: Record<string, string[]>; pathsBase?: string } = {};
  const ext = json['extends'];
  for (const e of Array.isArray(ext) ? ext : typeof ext === 'string' ? [ext] : []) {
    if (typeof e !== 'string' || !e.startsWith('.')) continue;
    let p = join(dir, e);
    if (!p.endsWith('.json')) p += '.json';
    if (files[p] !== undefined) inherited = { ...inherited, ...tsconfigOf(p, files, seen) };
  }
  const co = (json['compilerOptions'] ?? {}) as Json;
  const result = { ...inherited };
  if (typeof co['baseUrl'] === 'string') result.baseUrl = join(dir, co['baseUrl']);
  if (co['paths'] && typeof co['paths'] === 'object') {
    result.paths = co['paths'] as Record<string, string[]>;
    result.pathsBase = result.baseUrl ?? dir;
  }
  return result;
}

/** Export conditions read in this order; any other condition (`@zod/source`, `development`) after `source`. */
const CONDITIONS = ['source', 'types', 'import', 'module', 'require', 'node', 'default'];

/** The targets of an `exports` value (a path, a condition object, an array of them), best first. */
function exportTargets(v: unknown, raw: string[]): void {
  if (typeof v === 'string') raw.push(v);
  else if (Array.isArray(v)) for (const x of v) exportTargets(x, raw);
  else if (v && typeof v === 'object') {
    const o = v as Json;
    exportTargets(o['source'], raw);
    for (const k of Object.keys(o)) if (!CONDITIONS.includes(k)) exportTargets(o[k], raw);
    for (const k of CONDITIONS.slice(1)) exportTargets(o[k], raw);
  }
}

/** Candidate source files for a built or source path: dist/x.js -> src/x, x, the path itself. */
function sourceCandidates(dir: string, raw: string[]): string[] {
  const out: string[] = [];
  for (const r of raw) {
    const p = join(dir, r);
    // Built output usually mirrors the sources: dist/x.js -> src/x.ts.
    const src = p.replace(/(^|\/)(dist|lib|build|out|esm|cjs)\//, '$1src/').replace(/\.d\.ts$|\.m?js$|\.cjs$/, '');
    out.push(src, p.replace(/\.d\.ts$|\.m?js$|\.cjs$/, ''), p);
  }
  return out;
}

function packageSubpaths(dir: string, json: Json): { pattern: string; targets: string[] }[] {
  const exp = json['exports'];
  if (!exp || typeof exp !== 'object' || Array.isArray(exp)) return [];
  const out: { pattern: string; targets: string[] }[] = [];
  for (const [key, value] of Object.entries(exp as Json)) {
    if (!key.startsWith('./') || key.endsWith('/') || key.split('*').length > 2 || key === './package.json') continue;
    const raw: string[] = [];
    exportTargets(value, raw);
    const targets = [...new Set(sourceCandidates(dir, raw.filter((t) => t.split('*').length === key.split('*').length)))];
    if (targets.length) out.push({ pattern: key.slice(2), targets });
  }
  return out;
}

function packageEntries(dir: string, json: Json): string[] {
  const raw: string[] = [];
  const add = (v: unknown): void => exportTargets(v, raw);
  add(json['source']);
  const exp = json['exports'];
  if (typeof exp === 'string') add(exp);
  else if (exp && typeof exp === 'object') add((exp as Json)['.'] ?? ((Object.keys(exp).some((k) => k.startsWith('.')) ? undefined : exp)));
  add(json['types']);
  add(json['typings']);
  add(json['module']);
  add(json['main']);
  const out = sourceCandidates(dir, raw);
  out.push(join(dir, 'src/index'), join(dir, 'index'), join(dir, 'lib/index'), join(dir, 'mod'));
  return [...new Set(out)];
}

/** Builds the resolution context from config files (repo-relative path -> content). Never throws. */
export function buildProjectContext(configFiles: Record<string, string>): ProjectContext {
  const ctx: ProjectContext = { tsconfigs: [], packages: [], goModules: [], rustCrates: [], psr4: [] };
  for (const path of Object.keys(configFiles).sort()) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const dir = dirOf(path);
    const text = configFiles[path]!;
    if (base === 'tsconfig.json' || base === 'jsconfig.json' || base === 'tsconfig.base.json') {
      if (base === 'tsconfig.base.json' && configFiles[join(dir, 'tsconfig.json')] !== undefined) continue;
      const c = tsconfigOf(path, configFiles, new Set());
      const entry: TsConfigPaths = { dir, paths: [] };
      if (c.baseUrl !== undefined) entry.baseUrl = c.baseUrl;
      for (const [pattern, targets] of Object.entries(c.paths ?? {})) {
        if (Array.isArray(targets)) entry.paths.push({ pattern, targets: targets.filter((t) => typeof t === 'string').map((t) => join(c.pathsBase ?? dir, t)) });
      }
      if (entry.baseUrl !== undefined || entry.paths.length) ctx.tsconfigs.push(entry);
    } else if (base === 'package.json') {
      const json = parseJsonc(text) as Json | undefined;
      if (json && typeof json['name'] === 'string') {
        const pkg: WorkspacePackage = { name: json['name'], dir, entries: packageEntries(dir, json) };
        const subpaths = packageSubpaths(dir, json);
        if (subpaths.length) pkg.subpaths = subpaths;
        ctx.packages.push(pkg);
      }
    } else if (base === 'go.mod') {
      const m = /^\s*module\s+(\S+)/m.exec(text);
      if (m) ctx.goModules.push({ dir, module: m[1]!.replace(/"/g, '') });
    } else if (base === 'Cargo.toml') {
      const m = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/s.exec(text);
      if (m) ctx.rustCrates.push({ dir, name: m[1]!.replace(/-/g, '_') });
    } else if (base === 'composer.json') {
      const json = parseJsonc(text) as Json | undefined;
      for (const key of ['autoload', 'autoload-dev']) {
        const psr = ((json?.[key] as Json | undefined)?.['psr-4'] ?? {}) as Record<string, unknown>;
        for (const [prefix, d] of Object.entries(psr)) {
          for (const one of Array.isArray(d) ? d : [d]) if (typeof one === 'string') ctx.psr4.push({ prefix: prefix.replace(/\\+$/, ''), dir: join(dir, one) });
        }
      }
    }
  }
  // Deepest config first: the nearest tsconfig of a file wins.
  ctx.tsconfigs.sort((a, b) => b.dir.length - a.dir.length || (a.dir < b.dir ? -1 : 1));
  ctx.packages.sort((a, b) => b.name.length - a.name.length || (a.name < b.name ? -1 : 1));
  return ctx;
}
