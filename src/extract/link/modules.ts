/**
 * Module specifier -> repo file, per language family: relative and extension-less TS/JS paths,
 * tsconfig `baseUrl`/`paths`, workspace packages; Python dotted modules (relative and absolute,
 * any source root); Go import paths (go.mod); Rust `crate::`/`super::` paths; C/C++ includes;
 * Ruby `require_relative`. Results are memoised per (from-folder, specifier).
 */
import type { FileFacts } from '../facts.ts';
import { dirOf, normalizePath, type ProjectContext } from '../project-context.ts';

const TS_EXTS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const JS_TO_TS: Record<string, string[]> = {
  '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'], '.jsx': ['.tsx', '.jsx'], '.mjs': ['.mts', '.mjs'], '.cjs': ['.cts', '.cjs'],
};

export class ModuleResolver {
  private readonly memo = new Map<string, number | null>();
  /** dotted python module name -> files (every suffix of every python file path). */
  private pyIndex: Map<string, number[]> | null = null;
  private suffixIndex: Map<string, number[]> | null = null;

  constructor(
    private readonly files: readonly FileFacts[],
    private readonly byPath: ReadonlyMap<string, number>,
    private readonly ctx: ProjectContext,
  ) {}

  /** The file a specifier imported from `from` names, or null (external or unknown). */
  resolve(fromIdx: number, spec: string): number | null {
    const from = this.files[fromIdx]!;
    const key = `${from.language}\0${dirOf(from.path)}\0${spec}`;
    const hit = this.memo.get(key);
    if (hit !== undefined) return hit;
    let r: number | null = null;
    switch (from.language) {
      case 'typescript': case 'tsx': case 'javascript': r = this.resolveTs(from.path, spec); break;
      case 'python': r = this.resolvePython(from.path, spec); break;
      case 'c': case 'cpp': r = this.resolveInclude(from.path, spec); break;
      case 'ruby': r = this.resolveRuby(from.path, spec); break;
      case 'rust': r = this.resolveRust(from.path, spec); break;
      default: r = this.resolveRelative(from.path, spec); break;
    }
    this.memo.set(key, r);
    return r;
  }

  private tryTs(base: string): number | null {
    const direct = this.byPath.get(base);
    if (direct !== undefined && /\.[cm]?[jt]sx?$/.test(base)) return direct;
    const dot = base.lastIndexOf('.');
    const ext = dot > base.lastIndexOf('/') ? base.slice(dot) : '';
    const swaps = JS_TO_TS[ext];
    if (swaps) {
      const stem = base.slice(0, dot);
      for (const e of swaps) {
        const i = this.byPath.get(stem + e);
        if (i !== undefined) return i;
      }
    }
    for (const e of TS_EXTS) {
      const i = this.byPath.get(base + e);
      if (i !== undefined) return i;
    }
    for (const e of TS_EXTS) {
      const i = this.byPath.get(`${base}/index${e}`);
      if (i !== undefined) return i;
    }
    return null;
  }

  private resolveTs(from: string, spec: string): number | null {
    if (spec.startsWith('.')) return this.tryTs(normalizePath(`${dirOf(from)}/${spec}`));
    if (spec.startsWith('/')) return this.tryTs(normalizePath(spec));
    for (const cfg of this.ctx.tsconfigs) {
      if (cfg.dir && !(from.startsWith(cfg.dir + '/'))) continue;
      for (const { pattern, targets } of cfg.paths) {
        const star = pattern.indexOf('*');
        let rest: string | null = null;
        if (star < 0) rest = pattern === spec ? '' : null;
        else {
          const pre = pattern.slice(0, star);
          const post = pattern.slice(star + 1);
          if (spec.startsWith(pre) && spec.endsWith(post) && spec.length >= pre.length + post.length) rest = spec.slice(pre.length, spec.length - post.length);
        }
        if (rest === null) continue;
        for (const t of targets) {
          const r = this.tryTs(normalizePath(t.replace('*', rest)));
          if (r !== null) return r;
        }
      }
      if (cfg.baseUrl !== undefined) {
        const r = this.tryTs(normalizePath(`${cfg.baseUrl}/${spec}`));
        if (r !== null) return r;
      }
      break; // only the nearest config applies
    }
    for (const pkg of this.ctx.packages) {
      if (spec === pkg.name) {
        for (const e of pkg.entries) {
          const r = this.tryTs(e);
          if (r !== null) return r;
        }
        return null;
      }
      if (spec.startsWith(pkg.name + '/')) {
        const sub = spec.slice(pkg.name.length + 1);
        const mapped = this.subpath(pkg.subpaths, sub);
        if (mapped !== null) return mapped;
        for (const base of [`${pkg.dir}/src/${sub}`, `${pkg.dir}/${sub}`, `${pkg.dir}/${sub.replace(/^(dist|lib|build)\//, 'src/')}`]) {
          const r = this.tryTs(normalizePath(base));
          if (r !== null) return r;
        }
        return null;
      }
    }
    return null;
  }

  /** A package `exports` subpath (`zod/v4` -> `./v4`, `pkg/x` -> `./*`), first existing target. */
  private subpath(subpaths: { pattern: string; targets: string[] }[] | undefined, sub: string): number | null {
    for (const { pattern, targets } of subpaths ?? []) {
      const star = pattern.indexOf('*');
      let rest: string | null = null;
      if (star < 0) rest = pattern === sub ? '' : null;
      else if (sub.startsWith(pattern.slice(0, star)) && sub.endsWith(pattern.slice(star + 1)) && sub.length >= pattern.length - 1) rest = sub.slice(star, sub.length - (pattern.length - star - 1));
      if (rest === null) continue;
      for (const t of targets) {
        const r = this.tryTs(normalizePath(t.replace('*', rest)));
        if (r !== null) return r;
      }
    }
    return null;
  }

  private buildPyIndex(): Map<string, number[]> {
    const idx = new Map<string, number[]>();
    this.files.forEach((f, i) => {
      if (f.language !== 'python') return;
      let p = f.path.replace(/\.pyi?$/, '');
      if (p.endsWith('/__init__')) p = p.slice(0, -9);
      const parts = p.split('/');
      for (let s = 0; s < parts.length; s++) {
        const name = parts.slice(s).join('.');
        const list = idx.get(name);
        if (list) list.push(i); else idx.set(name, [i]);
      }
    });
    return idx;
  }

  private resolvePython(from: string, spec: string): number | null {
    if (spec.startsWith('.')) {
      let dots = 0;
      while (spec[dots] === '.') dots++;
      let dir = dirOf(from);
      for (let k = 1; k < dots; k++) dir = dirOf(dir);
      const rest = spec.slice(dots).replace(/\./g, '/');
      const base = normalizePath(rest ? `${dir}/${rest}` : dir);
      return this.byPath.get(`${base}.py`) ?? this.byPath.get(`${base}/__init__.py`) ?? this.byPath.get(`${base}.pyi`) ?? null;
    }
    this.pyIndex ??= this.buildPyIndex();
    const list = this.pyIndex.get(spec);
    if (!list || list.length === 0) return null;
    if (list.length === 1) return list[0]!;
    // Several roots: prefer the shortest path (the most likely source root).
    let best = list[0]!;
    for (const i of list) if (this.files[i]!.path.length < this.files[best]!.path.length) best = i;
    return best;
  }

  private resolveRelative(from: string, spec: string): number | null {
    return this.byPath.get(normalizePath(`${dirOf(from)}/${spec}`)) ?? this.byPath.get(normalizePath(spec)) ?? null;
  }

  private resolveInclude(from: string, spec: string): number | null {
    const rel = this.byPath.get(normalizePath(`${dirOf(from)}/${spec}`));
    if (rel !== undefined) return rel;
    if (!this.suffixIndex) {
      this.suffixIndex = new Map();
      this.files.forEach((f, i) => {
        if (f.language !== 'c' && f.language !== 'cpp') return;
        const parts = f.path.split('/');
        for (let s = 0; s < parts.length; s++) {
          const k = parts.slice(s).join('/');
          const l = this.suffixIndex!.get(k);
          if (l) l.push(i); else this.suffixIndex!.set(k, [i]);
        }
      });
    }
    const list = this.suffixIndex.get(normalizePath(spec));
    return list && list.length === 1 ? list[0]! : null;
  }

  /** `crate::a::b` (from the crate's src/), `super::x`, `self::x`; a path may end in an item. */
  private resolveRust(from: string, spec: string): number | null {
    const parts = spec.split('::').filter(Boolean);
    const srcAt = from.lastIndexOf('src/');
    const crateRoot = srcAt >= 0 ? from.slice(0, srcAt + 3) : dirOf(from);
    const stem = from.replace(/\.rs$/, '');
    const modDir = /(^|\/)(mod|lib|main)$/.test(stem) ? dirOf(from) : stem;
    let dir: string;
    if (parts[0] === 'crate') { dir = crateRoot; parts.shift(); }
    else if (parts[0] === 'self') { dir = modDir; parts.shift(); }
    else if (parts[0] === 'super') {
      dir = modDir;
      while (parts[0] === 'super') { dir = dirOf(dir); parts.shift(); }
    } else dir = modDir;
    for (let n = parts.length; n >= 0; n--) {
      const base = normalizePath([dir, ...parts.slice(0, n)].join('/'));
      if (n === 0) {
        const root = this.byPath.get(`${base}/lib.rs`) ?? this.byPath.get(`${base}/main.rs`) ?? this.byPath.get(`${base}/mod.rs`) ?? this.byPath.get(`${base}.rs`);
        return root ?? null;
      }
      const hit = this.byPath.get(`${base}.rs`) ?? this.byPath.get(`${base}/mod.rs`);
      if (hit !== undefined) return hit;
    }
    return null;
  }

  /** A Rust file's module folder: `src/a/b.rs` and `src/a/b/mod.rs` -> `src/a/b`; a crate root -> its folder. */
  private rustModDir(from: string): string {
    const stem = from.replace(/\.rs$/, '');
    return /(^|\/)(mod|lib|main)$/.test(stem) ? dirOf(from) : stem;
  }

  /** The file of the Rust module at folder `dir` (`dir.rs`, `dir/mod.rs`; the crate root at `src`), exactly. */
  private rustModuleAt(dir: string, crateDir: string): number | null {
    if (dir === crateDir) return this.byPath.get(`${dir}/lib.rs`) ?? this.byPath.get(`${dir}/main.rs`) ?? null;
    return this.byPath.get(`${dir}.rs`) ?? this.byPath.get(`${dir}/mod.rs`) ?? null;
  }

  /**
   * The file a Rust module path root names from file `fromIdx`, exactly (never an enclosing
   * folder's file): `crate` the crate root (`src/lib.rs`, else `src/main.rs`; a root itself),
   * `self` the file, each `super` one module up.
   */
  rustRoot(fromIdx: number, root: string): number | null {
    const from = this.files[fromIdx]!.path;
    const srcAt = from.lastIndexOf('src/');
    const crateDir = srcAt >= 0 ? from.slice(0, srcAt + 3) : dirOf(from);
    if (root === 'self') return fromIdx;
    if (root === 'crate') {
      if (from === `${crateDir}/lib.rs` || from === `${crateDir}/main.rs`) return fromIdx;
      return this.rustModuleAt(crateDir, crateDir);
    }
    let dir = this.rustModDir(from);
    for (const part of root.split('::')) {
      if (part !== 'super' || dir === crateDir || !dir.includes('/')) return null;
      dir = dirOf(dir);
    }
    return this.rustModuleAt(dir, crateDir);
  }

  /** The root file (`src/lib.rs`, else `src/main.rs`) of the repository's crate named `name` (Cargo.toml, `-` read as `_`), or null. */
  rustCrateRoot(name: string): number | null {
    for (const c of this.ctx.rustCrates) {
      if (c.name !== name) continue;
      const dir = c.dir && c.dir !== '.' ? `${c.dir}/src` : 'src';
      const root = this.byPath.get(`${dir}/lib.rs`) ?? this.byPath.get(`${dir}/main.rs`);
      if (root !== undefined) return root;
    }
    return null;
  }

  /** The file of the Rust module `mod a;` (`segments` [a], or [outer, a] inside `mod outer { .. }`) declares in file `fromIdx`. */
  rustChild(fromIdx: number, segments: readonly string[]): number | null {
    const from = this.files[fromIdx]!.path;
    const dir = normalizePath([this.rustModDir(from), ...segments].join('/'));
    return this.byPath.get(`${dir}.rs`) ?? this.byPath.get(`${dir}/mod.rs`) ?? null;
  }

  private resolveRuby(from: string, spec: string): number | null {
    const withExt = spec.endsWith('.rb') ? spec : `${spec}.rb`;
    const rel = this.byPath.get(normalizePath(`${dirOf(from)}/${withExt}`));
    if (rel !== undefined) return rel;
    for (const root of ['lib', 'app', '']) {
      const r = this.byPath.get(normalizePath(root ? `${root}/${withExt}` : withExt));
      if (r !== undefined) return r;
    }
    return null;
  }
}
