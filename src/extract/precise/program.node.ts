/**
 * The TypeScript program precise mode asks: every TypeScript/JavaScript file of the graph in one
 * program (no emit, no type-check pass of its own: the checker resolves lazily what each call asks),
 * with a monorepo's workspace packages mapped to their sources so cross-package imports resolve
 * without node_modules. `typescript` is loaded only here, only when `--precise` is given.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type * as TS from 'typescript';

export type TypeScript = typeof TS;

/** The compiler, loaded on first use (a dependency that default mode never pays for). */
export async function loadTypeScript(): Promise<TypeScript> {
  try {
    const mod = (await import('typescript')) as unknown as { default?: TypeScript } & TypeScript;
    return mod.default ?? mod;
  } catch (err) {
    throw new Error(`--precise needs the TypeScript compiler, which did not load: ${(err as Error).message}`);
  }
}

interface PackageJson { name?: unknown; types?: unknown; typings?: unknown; main?: unknown; source?: unknown }

/**
 * `paths` for the workspace packages whose folders hold graph files: `name` -> the package's source
 * entry (`src/index`, its `source`/`types`/`main` with dist mapped back to src), `name/*` -> `src/*`.
 * The repository's root tsconfig `paths` come after (they win for the same key).
 */
function workspacePaths(ts: TypeScript, root: string, files: readonly string[]): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const file of files) {
    for (let dir = posix.dirname(file); dir !== '.' && dir !== '' && !seen.has(dir); dir = posix.dirname(dir)) {
      seen.add(dir);
      const pj = join(root, dir, 'package.json');
      if (!existsSync(pj)) continue;
      let pkg: PackageJson;
      try { pkg = JSON.parse(readFileSync(pj, 'utf8')) as PackageJson; } catch { continue; }
      if (typeof pkg.name !== 'string' || paths[pkg.name]) continue;
      const entries = [pkg.source, pkg.types, pkg.typings, pkg.main]
        .filter((e): e is string => typeof e === 'string')
        .map((e) => posix.join(dir, e.replace(/^\.\//, '').replace(/^(dist|lib|build|out)\//, 'src/').replace(/\.(d\.ts|js|cjs|mjs)$/, '')));
      paths[pkg.name] = [...entries, `${dir}/src/index`, `${dir}/src`, `${dir}/index`];
      paths[`${pkg.name}/*`] = [`${dir}/src/*`, `${dir}/*`];
    }
  }
  const cfgFile = join(root, 'tsconfig.json');
  if (existsSync(cfgFile)) {
    const cfg = ts.readConfigFile(cfgFile, ts.sys.readFile).config as { compilerOptions?: { baseUrl?: string; paths?: Record<string, string[]> } } | undefined;
    const base = cfg?.compilerOptions?.baseUrl ?? '.';
    for (const [k, v] of Object.entries(cfg?.compilerOptions?.paths ?? {})) paths[k] = v.map((p) => posix.join(base, p));
  }
  return paths;
}

/** The compiler options of every precise program of a repository whose graph holds `files`. */
export function preciseOptions(ts: TypeScript, root: string, files: readonly string[]): TS.CompilerOptions {
  return {
    noEmit: true, allowJs: true, checkJs: false, skipLibCheck: true, skipDefaultLibCheck: true,
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true, resolveJsonModule: false, jsx: ts.JsxEmit.Preserve, types: [],
    baseUrl: root, paths: workspacePaths(ts, root, files),
  };
}

/** One program with `rootFiles` (repository-relative) as roots; what they import is loaded too. */
export function createPreciseProgram(ts: TypeScript, root: string, rootFiles: readonly string[], options: TS.CompilerOptions): TS.Program {
  const host = ts.createCompilerHost(options, true);
  // JSDoc only where it gives types (JavaScript files); a TypeScript file's doc comments change no
  // call's resolution, and the libraries' are most of their text (zod: 0.5 of 4.7 CPU-s to build).
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  return ts.createProgram({ rootNames: rootFiles.map((f) => join(root, f)), options, host });
}

/** Repository-relative `/` path of a program file, or null outside the root. */
export function relativeTo(root: string, fileName: string): string | null {
  const r = posix.relative(root.split('\\').join('/'), fileName.split('\\').join('/'));
  return r.startsWith('..') || posix.isAbsolute(r) ? null : r;
}

