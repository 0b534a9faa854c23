/**
 * The resolver's indexes (see resolver.ts for the rules every lookup follows): per-file lookup
 * tables, the global by-name, package and owned-method indexes, the per-file units that record what
 * linking a file read, and the parameter-type statistics. Name and type resolution build on it
 * (resolver-names.ts, resolver.ts).
 */
import type { NodeKind } from '../../graph/model.ts';
import type { BindingFact, FileFacts, ImportFact, NamePath, SymbolFact } from '../facts.ts';
import type { LanguageId } from '../languages.ts';
import { dirOf, type ProjectContext } from '../project-context.ts';
import { ModuleResolver } from './modules.ts';


/** A resolved value: a symbol, an instance of a type symbol, a module (file), a package, or external. */
export type Value =
  | { t: 'sym'; f: number; i: number }
  | { t: 'inst'; f: number; i: number }
  | { t: 'mod'; f: number }
  | { t: 'pkg'; key: string }
  /** A JS object known only by the functions assigned to its members (`app.use = function`) in file f. */
  | { t: 'obj'; f: number; n: string }
  | { t: 'ext' };

export interface Resolved {
  v: Value;
  /** True when types or receivers were involved (INFERRED rather than EXTRACTED). */
  inf: boolean;
  /** True when a parameter's type was guessed from same-named annotated parameters. */
  guess?: boolean;
}

export const TYPE_LIKE: ReadonlySet<NodeKind> = new Set(['class', 'struct', 'interface', 'trait', 'enum']);
export const CONTAINER: ReadonlySet<NodeKind> = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'namespace', 'module', 'package', 'variable']);
export const CALLABLE: ReadonlySet<NodeKind> = new Set(['function', 'method', 'constructor']);
/** Languages where a bare name inside a method may be a member of the enclosing type. */
export const IMPLICIT_THIS: ReadonlySet<LanguageId> = new Set(['java', 'csharp', 'cpp', 'c', 'ruby']);
/** Languages resolved through a global by-name index when scopes and imports do not decide. */
export const GLOBAL_NAMES: ReadonlySet<LanguageId> = new Set(['c', 'cpp', 'ruby', 'php', 'rust']);
/**
 * Nesting bound of name/expression resolution within one unit. Memos start empty per file, so long
 * builder chains (`t.procedure.input(...).mutation(...)`) are resolved from scratch in each file:
 * 20 keeps them (12 lost a few on trpc), memos keep the work linear.
 */
export const MAX_DEPTH = 20;

export interface FileIndex {
  facts: FileFacts;
  /** name -> first symbol index, per parent (-1 = top level). */
  members: Map<number, Map<string, number>>;
  /** scope -> name -> bindings (non-field). */
  locals: Map<number, Map<string, BindingFact[]>>;
  /** type symbol -> field name -> bindings. */
  fields: Map<number, Map<string, BindingFact[]>>;
  /** scope -> local name -> import (scope -1 = file level). */
  imports: Map<number, Map<string, ImportFact>>;
  exportsByName: Map<string, string>;
  reexports: ImportFact[];
  pkgKey: string | null;
  /** JS/TS: owners of top-level methods declared outside a type (`app` of `app.use = function`). */
  owners: Set<string>;
  /**
   * A value and a type of one name in one scope (`export type OK<T>` + `export const OK = ...`,
   * zod's `interface _ZodString` + `const _ZodString`): `members` holds the value, this maps the
   * value's index to the type's (see resolveType).
   */
  typeTwins: Map<number, number>;
}

/** Declarations that name only a type: a value of the same name wins name lookups. */
export const TYPE_ONLY: ReadonlySet<NodeKind> = new Set(['interface', 'type_alias']);

/**
 * Per file (in file order): the (parameter name, type file, type symbol) each annotated parameter
 * resolved to, and the files and global index keys resolving them read.
 */
export interface GuessData {
  contrib: [string, number, number][][];
  reads: number[][];
  keys: string[][];
}

/** Language family for by-name method candidates (TS and JS share one). */
export function languageFamily(l: LanguageId): string {
  return l === 'typescript' || l === 'tsx' || l === 'javascript' ? 'js' : l;
}

export const JS_FAMILY: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);

/**
 * Where methods declared outside their type are looked up by (owner, name): a Go folder; a JS/TS
 * file (`X.prototype.y = function` / `obj.x = function` own within their file); else the language.
 */
export function ownerScopeOf(f: FileFacts): string {
  return f.language === 'go' ? `go:${dirOf(f.path)}` : JS_FAMILY.has(f.language) ? `js:${f.path}` : f.language;
}

export function pushMap<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v); else m.set(k, [v]);
}

export abstract class ResolverIndex {
  /** Per-file lookup tables, built on first use (see {@link ix}). */
  protected readonly idx: (FileIndex | undefined)[];
  readonly modules: ModuleResolver;
  /** package key -> name -> [file, symbol] (top-level symbols of the package's files). */
  protected readonly packages = new Map<string, Map<string, [number, number][]>>();
  /** `<family>\0<name>` -> methods of that name (dynamic languages' receiver-less fallback). */
  protected methodIndex: Map<string, [number, number][]> | null = null;
  /** name -> [file, symbol] for the global-name languages (top-level and type members' types). */
  protected readonly globals = new Map<string, [number, number][]>();
  /** `<scope>\0<owner type>\0<member>` -> method declared outside its type (Go, Rust, C++). */
  protected readonly owned = new Map<string, [number, number]>();
  protected readonly exportMemo = new Map<string, Resolved | null>();
  protected readonly bindingMemo = new Map<BindingFact, Resolved | null>();
  protected readonly baseMemo = new Map<number, [number, number][]>();
  protected depth = 0;
  protected paramGuesses: Map<string, [number, number] | null> | null = null;
  protected guessData: GuessData | null = null;
  protected guessReuse: { data: GuessData; dirty: (fi: number) => boolean } | null = null;
  protected guessing = false;
  /** Current unit (0: none, reads are not recorded); `stamp[f] === unit` when f is in `unitReads`. */
  protected unit = 0;
  protected readonly stamp: Uint32Array;
  protected unitReads: number[] = [];
  protected unitKeys = new Set<string>();

  constructor(readonly files: readonly FileFacts[], readonly ctx: ProjectContext) {
    const byPath = new Map<string, number>();
    files.forEach((f, i) => byPath.set(f.path, i));
    this.modules = new ModuleResolver(files, byPath, ctx);
    files.forEach((f, fi) => this.indexGlobals(f, fi));
    this.idx = new Array<FileIndex | undefined>(files.length);
    this.stamp = new Uint32Array(files.length);
  }

  /**
   * Start linking one file: empty memos (results never depend on what other units resolved) and
   * empty read records. The parameter-type statistics are built first, outside any unit.
   */
  beginUnit(): void {
    this.prepare();
    this.startUnit();
  }

  protected startUnit(): void {
    this.exportMemo.clear();
    this.bindingMemo.clear();
    this.baseMemo.clear();
    this.depth = 0;
    this.unit++;
    this.unitReads = [];
    this.unitKeys = new Set();
  }

  /** What the current unit read: file indices (in first-read order) and global index keys. */
  endUnit(): { reads: number[]; keys: string[] } {
    const out = { reads: this.unitReads, keys: [...this.unitKeys] };
    this.unitReads = [];
    this.unitKeys = new Set();
    return out;
  }

  /** Record that the current unit read file f's facts. */
  touch(f: number): void {
    if (this.stamp[f] !== this.unit) {
      this.stamp[f] = this.unit;
      this.unitReads.push(f);
    }
  }

  /** Record that the current unit consulted a global index entry (see contributedKeys in incremental.ts). */
  protected key(k: string): void {
    if (this.unit) this.unitKeys.add(k);
  }

  /** File f's facts, recorded as read. */
  file(f: number): FileFacts {
    this.touch(f);
    return this.files[f]!;
  }

  protected ix(f: number): FileIndex {
    this.touch(f);
    return (this.idx[f] ??= this.indexFile(this.files[f]!));
  }

  /**
   * Build the parameter-type statistics (once, before any unit): one unit per file resolving its
   * annotated parameters. With `reuse`, files that are not `dirty` keep their previous contributions.
   */
  prepare(reuse?: { data: GuessData; dirty: (fi: number) => boolean }): void {
    if (this.paramGuesses) return;
    if (reuse && reuse.data.contrib.length === this.files.length) this.guessReuse = reuse;
    this.guessParamType('');
    this.guessReuse = null;
    this.exportMemo.clear();
    this.bindingMemo.clear();
    this.baseMemo.clear();
    this.unit++;
    this.unitReads = [];
    this.unitKeys = new Set();
  }

  /** Per file: what its annotated parameters contributed to the guesses, and what resolving them read. */
  guessInputs(): GuessData {
    this.prepare();
    return this.guessData!;
  }

  /** The parameter-type guesses (name -> `file:symbol` indices, or null): what units may read through `q` keys. */
  guessTable(): Map<string, string | null> {
    this.prepare();
    const out = new Map<string, string | null>();
    for (const [name, t] of this.paramGuesses!) out.set(name, t ? `${t[0]}:${t[1]}` : null);
    return out;
  }

  protected indexFile(f: FileFacts): FileIndex {
    const members = new Map<number, Map<string, number>>();
    const js = JS_FAMILY.has(f.language);
    const owners = new Set<string>();
    const typeTwins = new Map<number, number>();
    const go = f.language === 'go';
    f.symbols.forEach((s, i) => {
      if (js && s.owner) { if (s.parent === -1) owners.add(s.owner); return; } // `app.use = function`: a member of app, not a name `use` of the scope
      if (f.language === 'rust' && s.owner) return; // a method of an `impl` is reached through its type (`owned`), never by a bare name
      if (go && s.owner) return; // a Go method is reached through its receiver's type (`owned`), never by a bare name
      let m = members.get(s.parent);
      if (!m) members.set(s.parent, (m = new Map()));
      const prev = m.get(s.name);
      if (prev === undefined) m.set(s.name, i);
      else if (js && TYPE_ONLY.has(f.symbols[prev]!.kind) && !TYPE_ONLY.has(s.kind)) {
        m.set(s.name, i); // the type came first: the value takes the name, the type is its twin
        typeTwins.set(i, prev);
      } else if (js && !TYPE_ONLY.has(f.symbols[prev]!.kind) && TYPE_ONLY.has(s.kind) && !typeTwins.has(prev)) typeTwins.set(prev, i);
    });
    const locals = new Map<number, Map<string, BindingFact[]>>();
    const fields = new Map<number, Map<string, BindingFact[]>>();
    for (const b of f.bindings) {
      const target = b.field ? fields : locals;
      let m = target.get(b.scope);
      if (!m) target.set(b.scope, (m = new Map()));
      pushMap(m, b.name, b);
    }
    const imports = new Map<number, Map<string, ImportFact>>();
    const reexports: ImportFact[] = [];
    for (const imp of f.imports) {
      if (imp.reexport) { reexports.push(imp); continue; }
      if (!imp.local) continue;
      let m = imports.get(imp.scope);
      if (!m) imports.set(imp.scope, (m = new Map()));
      if (!m.has(imp.local)) m.set(imp.local, imp);
    }
    const exportsByName = new Map<string, string>();
    for (const e of f.exports) if (!exportsByName.has(e.exported)) exportsByName.set(e.exported, e.local);
    return { facts: f, members, locals, fields, imports, exportsByName, reexports, pkgKey: this.packageKey(f), owners, typeTwins };
  }

  /** Add a file's entries to the global indexes: package members, methods declared outside their type, global names. */
  protected indexGlobals(f: FileFacts, fi: number): void {
    const pkgKey = this.packageKey(f);
    if (pkgKey) {
      let m = this.packages.get(pkgKey);
      if (!m) this.packages.set(pkgKey, (m = new Map()));
      f.symbols.forEach((s, i) => {
        const p = s.parent;
        if (f.language === 'go' && s.owner) return; // (Go methods are not package-scope names)
        if (p === -1 || (p >= 0 && (f.symbols[p]!.kind === 'namespace' || f.symbols[p]!.kind === 'package'))) pushMap(m!, s.name, [fi, i]);
      });
    }
    f.symbols.forEach((s, i) => {
      if (!s.owner) return;
      const key = `${this.ownerScope(f)}\0${s.owner}\0${s.name}`;
      if (!this.owned.has(key)) this.owned.set(key, [fi, i]);
    });
    if (GLOBAL_NAMES.has(f.language)) {
      f.symbols.forEach((s, i) => {
        const p = s.parent;
        if (f.language === 'rust' && s.owner) return; // (an impl's methods are no global names)
        if (p === -1 || (p >= 0 && !CALLABLE.has(f.symbols[p]!.kind) && (TYPE_LIKE.has(s.kind) || !TYPE_LIKE.has(f.symbols[p]!.kind)))) pushMap(this.globals, s.name, [fi, i]);
      });
    }
  }

  protected ownerScope(f: FileFacts): string {
    return ownerScopeOf(f);
  }

  /** The method `owner.name` declared outside its type in file f's owner scope (recorded as read). */
  protected ownedMember(f: number, owner: string, name: string): Resolved | null {
    const scope = this.ownerScope(this.file(f));
    this.key(`o\0${scope}`);
    const hit = this.owned.get(`${scope}\0${owner}\0${name}`);
    return hit ? { v: { t: 'sym', f: hit[0], i: hit[1] }, inf: true } : null;
  }

  protected packageKey(f: FileFacts): string | null {
    switch (f.language) {
      case 'go': return `go:${dirOf(f.path)}`;
      case 'java': case 'csharp': case 'php': return f.packageName ? `${f.language === 'csharp' ? 'cs' : f.language}:${f.packageName}` : null;
      default: return null;
    }
  }

  sym(f: number, i: number): SymbolFact {
    this.touch(f);
    return this.files[f]!.symbols[i]!;
  }

  /** Symbols of a package key (Go folder, Java package, ...) with a name. */
  packageMembers(key: string, name: string): [number, number][] {
    this.key(`p\0${key}\0${name}`);
    return this.packages.get(key)?.get(name) ?? [];
  }

  /** Methods named `name` declared in files of a language family (`js`, `python`, `ruby`, `php`). */
  methodsNamed(family: string, name: string): [number, number][] {
    this.key(`m\0${family}\0${name}`);
    if (!this.methodIndex) {
      this.methodIndex = new Map();
      this.files.forEach((file, fi) => {
        const fam = languageFamily(file.language);
        file.symbols.forEach((s, i) => {
          if (s.kind === 'method') pushMap(this.methodIndex!, `${fam}\0${s.name}`, [fi, i]);
        });
      });
    }
    return this.methodIndex.get(`${family}\0${name}`) ?? [];
  }

  globalsNamed(name: string): [number, number][] {
    this.key(`g\0${name}`);
    return this.globals.get(name) ?? [];
  }

  /** The innermost type symbol enclosing a scope, or -1. */
  enclosingType(f: number, scope: number): number {
    const syms = this.file(f).symbols;
    for (let s = scope; s >= 0; s = syms[s]!.parent) if (TYPE_LIKE.has(syms[s]!.kind)) return s;
    return -1;
  }

  /** The type a method declared outside its type belongs to (Go receiver, Rust impl, C++ `T::m`). */
  ownerType(f: number, scope: number): [number, number] | null {
    const syms = this.file(f).symbols;
    for (let s = scope; s >= 0; s = syms[s]!.parent) {
      const o = syms[s]!.owner;
      if (o) {
        const pkg = this.ix(f).pkgKey;
        const local = this.resolveType(f, -1, [o]);
        if (local) return local;
        const list = pkg ? this.packageMembers(pkg, o) : this.globalsNamed(o);
        return list.length ? list[0]! : null;
      }
    }
    return null;
  }

  /** A type name path -> type (or alias) symbol (resolver-names.ts). */
  abstract resolveType(f: number, scope: number, path: NamePath): [number, number] | null;

  /**
   * The type most untyped parameters named `name` probably have: the type that same-named annotated
   * parameters across the repo use, when one type holds >= 80% of at least 3 annotations
   * (`(c) => c.json()` where handlers elsewhere say `(c: Context)`).
   */
  guessParamType(name: string): [number, number] | null {
    if (this.guessing) return null; // re-entered while the statistics are being built
    this.key(`q\0${name}`);
    if (!this.paramGuesses) {
      this.guessing = true;
      // Each file's annotated parameters are resolved as one unit (empty memos, reads recorded),
      // so a file's contributions can be reused while nothing they read changed.
      const data: GuessData = { contrib: [], reads: [], keys: [] };
      const reuse = this.guessReuse;
      for (let fi = 0; fi < this.files.length; fi++) {
        if (reuse && !reuse.dirty(fi)) {
          data.contrib.push(reuse.data.contrib[fi]!);
          data.reads.push(reuse.data.reads[fi]!);
          data.keys.push(reuse.data.keys[fi]!);
          continue;
        }
        this.startUnit();
        const contrib: [string, number, number][] = [];
        for (const b of this.files[fi]!.bindings) {
          if (!b.param || !b.type) continue;
          const t = this.resolveType(fi, b.scope, b.type);
          if (t) contrib.push([b.name, t[0], t[1]]);
        }
        const read = this.endUnit();
        data.contrib.push(contrib);
        data.reads.push(read.reads);
        data.keys.push(read.keys);
      }
      this.guessData = data;
      const counts = new Map<string, Map<number, number>>();
      const where = new Map<number, [number, number]>();
      for (const contrib of data.contrib) {
        for (const [bname, tf, ti] of contrib) {
          const key = tf * 1048576 + ti;
          where.set(key, [tf, ti]);
          let m = counts.get(bname);
          if (!m) counts.set(bname, (m = new Map()));
          m.set(key, (m.get(key) ?? 0) + 1);
        }
      }
      this.paramGuesses = new Map();
      for (const [n, m] of counts) {
        let total = 0;
        let best = -1;
        let bestCount = 0;
        for (const [k, c] of m) {
          total += c;
          if (c > bestCount || (c === bestCount && k < best)) { best = k; bestCount = c; }
        }
        this.paramGuesses.set(n, bestCount >= 3 && bestCount >= 0.8 * total ? where.get(best)! : null);
      }
      this.guessing = false;
    }
    return this.paramGuesses.get(name) ?? null;
  }

  isCallable(f: number, i: number): boolean {
    const s = this.sym(f, i);
    return CALLABLE.has(s.kind) && s.extra?.macro !== true; // (a macro is invoked, never called)
  }

  isTypeLike(f: number, i: number): boolean {
    return TYPE_LIKE.has(this.sym(f, i).kind);
  }
}
