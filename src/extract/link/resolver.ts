/**
 * Name and type resolution over all files' facts: scopes, imports/re-exports, receivers typed by
 * annotations, constructors, return types and fields, `this`/`super` with inheritance, package
 * scopes (Go folders, Java/C#/PHP namespaces) and, for languages without import-level precision,
 * a global by-name index. Every lookup is memoised or depth-bounded: linking stays O(total facts).
 *
 * Linking is done file by file ("units", see {@link Resolver.beginUnit}): memos start empty for each
 * file, so a file's links are a function of the facts it reads, never of the order files are linked
 * in (depth cut-offs and cycle guards would otherwise leak between files through the memos). Each
 * unit records which files' facts it read and which global by-name index entries it consulted, so
 * an incremental update can relink only the files whose inputs changed (see link/incremental.ts).
 * Rule for changes here: read another file's facts only through `file()`, `ix()` or `sym()` (they
 * record the read), and a global index only through a method that records its key (`packageMembers`,
 * `globalsNamed`, `methodsNamed`, the `owned` lookup, `guessParamType`), with the key prefix added
 * to contributedKeys (incremental.ts) when it is new. An unrecorded read makes `update` inexact.
 */
import type { NodeKind } from '../../graph/model.ts';
import type { BindingFact, Expr, FileFacts, ImportFact, NamePath, SymbolFact } from '../facts.ts';
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

const TYPE_LIKE: ReadonlySet<NodeKind> = new Set(['class', 'struct', 'interface', 'trait', 'enum']);
const CONTAINER: ReadonlySet<NodeKind> = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'namespace', 'module', 'package', 'variable']);
const CALLABLE: ReadonlySet<NodeKind> = new Set(['function', 'method', 'constructor']);
/** Languages where a bare name inside a method may be a member of the enclosing type. */
const IMPLICIT_THIS: ReadonlySet<LanguageId> = new Set(['java', 'csharp', 'cpp', 'c', 'ruby']);
/** Languages resolved through a global by-name index when scopes and imports do not decide. */
const GLOBAL_NAMES: ReadonlySet<LanguageId> = new Set(['c', 'cpp', 'ruby', 'php', 'rust']);
/**
 * Nesting bound of name/expression resolution within one unit. Memos start empty per file, so long
 * builder chains (`t.procedure.input(...).mutation(...)`) are resolved from scratch in each file:
 * 20 keeps them (12 lost a few on trpc), memos keep the work linear.
 */
const MAX_DEPTH = 20;

interface FileIndex {
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
}

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

const JS_FAMILY: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);

/**
 * Where methods declared outside their type are looked up by (owner, name): a Go folder; a JS/TS
 * file (`X.prototype.y = function` / `obj.x = function` own within their file); else the language.
 */
export function ownerScopeOf(f: FileFacts): string {
  return f.language === 'go' ? `go:${dirOf(f.path)}` : JS_FAMILY.has(f.language) ? `js:${f.path}` : f.language;
}

function pushMap<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v); else m.set(k, [v]);
}

export class Resolver {
  /** Per-file lookup tables, built on first use (see {@link ix}). */
  private readonly idx: (FileIndex | undefined)[];
  readonly modules: ModuleResolver;
  /** package key -> name -> [file, symbol] (top-level symbols of the package's files). */
  private readonly packages = new Map<string, Map<string, [number, number][]>>();
  /** `<family>\0<name>` -> methods of that name (dynamic languages' receiver-less fallback). */
  private methodIndex: Map<string, [number, number][]> | null = null;
  /** name -> [file, symbol] for the global-name languages (top-level and type members' types). */
  private readonly globals = new Map<string, [number, number][]>();
  /** `<scope>\0<owner type>\0<member>` -> method declared outside its type (Go, Rust, C++). */
  private readonly owned = new Map<string, [number, number]>();
  private readonly exportMemo = new Map<string, Resolved | null>();
  private readonly bindingMemo = new Map<BindingFact, Resolved | null>();
  private readonly baseMemo = new Map<number, [number, number][]>();
  private depth = 0;
  private paramGuesses: Map<string, [number, number] | null> | null = null;
  private guessData: GuessData | null = null;
  private guessReuse: { data: GuessData; dirty: (fi: number) => boolean } | null = null;
  private guessing = false;
  /** Current unit (0: none, reads are not recorded); `stamp[f] === unit` when f is in `unitReads`. */
  private unit = 0;
  private readonly stamp: Uint32Array;
  private unitReads: number[] = [];
  private unitKeys = new Set<string>();

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

  private startUnit(): void {
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
  private key(k: string): void {
    if (this.unit) this.unitKeys.add(k);
  }

  /** File f's facts, recorded as read. */
  file(f: number): FileFacts {
    this.touch(f);
    return this.files[f]!;
  }

  private ix(f: number): FileIndex {
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

  private indexFile(f: FileFacts): FileIndex {
    const members = new Map<number, Map<string, number>>();
    const js = JS_FAMILY.has(f.language);
    const owners = new Set<string>();
    f.symbols.forEach((s, i) => {
      if (js && s.owner) { if (s.parent === -1) owners.add(s.owner); return; } // `app.use = function`: a member of app, not a name `use` of the scope
      let m = members.get(s.parent);
      if (!m) members.set(s.parent, (m = new Map()));
      if (!m.has(s.name)) m.set(s.name, i);
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
    return { facts: f, members, locals, fields, imports, exportsByName, reexports, pkgKey: this.packageKey(f), owners };
  }

  /** Add a file's entries to the global indexes: package members, methods declared outside their type, global names. */
  private indexGlobals(f: FileFacts, fi: number): void {
    const pkgKey = this.packageKey(f);
    if (pkgKey) {
      let m = this.packages.get(pkgKey);
      if (!m) this.packages.set(pkgKey, (m = new Map()));
      f.symbols.forEach((s, i) => {
        const p = s.parent;
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
        if (p === -1 || (p >= 0 && !CALLABLE.has(f.symbols[p]!.kind) && (TYPE_LIKE.has(s.kind) || !TYPE_LIKE.has(f.symbols[p]!.kind)))) pushMap(this.globals, s.name, [fi, i]);
      });
    }
  }

  private ownerScope(f: FileFacts): string {
    return ownerScopeOf(f);
  }

  /** The method `owner.name` declared outside its type in file f's owner scope (recorded as read). */
  private ownedMember(f: number, owner: string, name: string): Resolved | null {
    const scope = this.ownerScope(this.file(f));
    this.key(`o\0${scope}`);
    const hit = this.owned.get(`${scope}\0${owner}\0${name}`);
    return hit ? { v: { t: 'sym', f: hit[0], i: hit[1] }, inf: true } : null;
  }

  private packageKey(f: FileFacts): string | null {
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

  // ---------------------------------------------------------------- names

  /** Resolves a bare name as seen from `scope` in file `f`. */
  resolveName(f: number, scope: number, name: string): Resolved | null {
    if (this.depth > MAX_DEPTH) return null;
    this.depth++;
    try {
      return this.resolveNameInner(f, scope, name);
    } finally {
      this.depth--;
    }
  }

  private resolveNameInner(f: number, scope: number, name: string): Resolved | null {
    const fx = this.ix(f);
    const syms = fx.facts.symbols;
    const lang = fx.facts.language;
    for (let s = scope; s >= 0; s = syms[s]!.parent) {
      const kind = syms[s]!.kind;
      const typeScope = TYPE_LIKE.has(kind);
      if (!typeScope) {
        const b = fx.locals.get(s)?.get(name);
        const child = fx.members.get(s)?.get(name);
        // A local shadows outer names, typed or not; `const f = () => ...` is both a local (of no
        // known value) and the nested function it names.
        if (b && (child === undefined || b[b.length - 1]!.type || b[b.length - 1]!.value)) return this.bindingValue(f, b[b.length - 1]!);
        const imp = fx.imports.get(s)?.get(name);
        if (imp) return this.importValue(f, imp);
        if (child !== undefined) return { v: { t: 'sym', f, i: child }, inf: false };
      } else if (IMPLICIT_THIS.has(lang)) {
        const m = this.member(f, s, name, false, new Set());
        if (m) return { v: m.v, inf: true };
      }
      const parent = syms[s]!.parent;
      const member = parent >= 0 && TYPE_LIKE.has(syms[parent]!.kind);
      // (`res.vary = function (field) { vary(this, field) }`: `vary` is not bound by the assignment)
      if (!member && syms[s]!.name === name && (CONTAINER.has(kind) || CALLABLE.has(kind)) && !(syms[s]!.owner && JS_FAMILY.has(lang))) return { v: { t: 'sym', f, i: s }, inf: false };
    }
    const top = fx.members.get(-1)?.get(name);
    if (top !== undefined) return { v: { t: 'sym', f, i: top }, inf: false };
    const b = fx.locals.get(-1)?.get(name);
    if (b) {
      const r = this.bindingValue(f, b[b.length - 1]!);
      if (r) return r;
    }
    const imp = fx.imports.get(-1)?.get(name);
    if (imp) return this.importValue(f, imp);
    if (fx.pkgKey) {
      const list = this.packageMembers(fx.pkgKey, name);
      if (list.length) return { v: { t: 'sym', f: list[0]![0], i: list[0]![1] }, inf: false };
    }
    if (lang === 'java' || lang === 'csharp') {
      // `import a.b.*;` / `using A.B;`: every type of that package/namespace is in scope.
      const prefix = lang === 'csharp' ? 'cs' : 'java';
      for (const re of fx.reexports) {
        if (re.imported !== '*') continue;
        const list = this.packageMembers(`${prefix}:${re.module}`, name);
        if (list.length) return { v: { t: 'sym', f: list[0]![0], i: list[0]![1] }, inf: false };
      }
    }
    if (lang === 'python') {
      for (const re of fx.reexports) {
        if (re.imported !== '*' || re.local !== '') continue;
        const t = this.modules.resolve(f, re.module);
        const r = t === null ? null : this.resolveExport(t, name, 0);
        if (r) return r;
      }
    }
    if (GLOBAL_NAMES.has(lang)) {
      const list = this.globalsNamed(name);
      if (list.length === 1) return { v: { t: 'sym', f: list[0]![0], i: list[0]![1] }, inf: true };
    }
    // `var app = {}; app.use = function`: app is the object its assigned methods make.
    if (fx.owners.has(name)) return { v: { t: 'obj', f, n: name }, inf: true };
    return null;
  }

  /** What a binding (local, parameter, field) holds: its annotated type, else its value's type. */
  bindingValue(f: number, b: BindingFact): Resolved | null {
    if (this.bindingMemo.has(b)) return this.bindingMemo.get(b)!;
    this.bindingMemo.set(b, null); // cycle guard
    let r: Resolved | null = null;
    if (b.type) {
      const t = this.resolveType(f, b.at ?? b.scope, b.type);
      if (t) r = { v: { t: 'inst', f: t[0], i: t[1] }, inf: true };
    }
    if (!r && b.value) {
      const v = this.typeOf(f, b.at ?? b.scope, b.value);
      if (v) r = { v: v.v, inf: v.inf || b.value.k !== 'id' };
    }
    if (!r && b.param && !b.type) {
      const g = this.guessParamType(b.name);
      if (g) r = { v: { t: 'inst', f: g[0], i: g[1] }, inf: true, guess: true };
    }
    this.bindingMemo.set(b, r);
    return r;
  }

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

  /** A type name path -> type (or alias) symbol. */
  resolveType(f: number, scope: number, path: NamePath): [number, number] | null {
    let r = this.resolveName(f, scope, path[0]!);
    for (let k = 1; r && k < path.length; k++) r = this.memberOf(r.v, path[k]!);
    if (!r || (r.v.t !== 'sym')) return null;
    const s = this.sym(r.v.f, r.v.i);
    if (s.kind === 'type_alias' || TYPE_LIKE.has(s.kind) || s.kind === 'namespace' || s.kind === 'module') return [r.v.f, r.v.i];
    return null;
  }

  importValue(f: number, imp: ImportFact): Resolved | null {
    const target = this.modules.resolve(f, imp.module);
    if (target === null) return this.foreignImport(f, imp);
    if (imp.imported === '*' || imp.imported === '') return { v: { t: 'mod', f: target }, inf: false };
    return this.resolveExport(target, imp.imported, 0) ?? this.submodule(target, imp.imported);
  }

  /** Imports whose module is not a file: Go packages, Java/C# namespaces and classes, Rust paths. */
  private foreignImport(f: number, imp: ImportFact): Resolved | null {
    const lang = this.file(f).language;
    if (lang === 'go') {
      for (const m of this.ctx.goModules) {
        if (imp.module === m.module || imp.module.startsWith(m.module + '/')) {
          const dir = (m.dir ? m.dir + '/' : '') + imp.module.slice(m.module.length + 1);
          return { v: { t: 'pkg', key: `go:${dir.replace(/\/$/, '')}` }, inf: false };
        }
      }
      return { v: { t: 'ext' }, inf: false };
    }
    if (lang === 'java' || lang === 'csharp' || lang === 'php') {
      const prefix = lang === 'csharp' ? 'cs' : lang;
      if (imp.imported === '*') this.key(`P\0${prefix}:${imp.module}`);
      if (imp.imported === '*') return this.packages.has(`${prefix}:${imp.module}`) ? { v: { t: 'pkg', key: `${prefix}:${imp.module}` }, inf: false } : { v: { t: 'ext' }, inf: false };
      const list = this.packageMembers(`${prefix}:${imp.module}`, imp.imported);
      if (list.length) return { v: { t: 'sym', f: list[0]![0], i: list[0]![1] }, inf: false };
      return { v: { t: 'ext' }, inf: false };
    }
    return { v: { t: 'ext' }, inf: false };
  }

  /** Python `from pkg import mod`: a submodule file of a package. */
  private submodule(pkgFile: number, name: string): Resolved | null {
    const f = this.file(pkgFile);
    if (f.language !== 'python' || !f.path.endsWith('__init__.py')) return null;
    const t = this.modules.resolve(pkgFile, `.${name}`);
    return t === null ? null : { v: { t: 'mod', f: t }, inf: false };
  }

  /** An exported name of a module, following export lists, re-exports and `export *`. */
  resolveExport(f: number, name: string, depth: number): Resolved | null {
    const key = `${f}\0${name}`;
    if (this.exportMemo.has(key)) return this.exportMemo.get(key)!;
    if (depth > 16) return null;
    this.exportMemo.set(key, null);
    const r = this.resolveExportInner(f, name, depth);
    this.exportMemo.set(key, r);
    return r;
  }

  private resolveExportInner(f: number, name: string, depth: number): Resolved | null {
    const fx = this.ix(f);
    const lang = fx.facts.language;
    const local = fx.exportsByName.get(name);
    if (local !== undefined) {
      const r = this.resolveName(f, -1, local);
      if (r) return r;
    }
    const syms = fx.facts.symbols;
    if (name === 'default') {
      for (let i = 0; i < syms.length; i++) if (syms[i]!.isDefault) return { v: { t: 'sym', f, i }, inf: false };
    }
    const top = fx.members.get(-1)?.get(name);
    if (top !== undefined && (syms[top]!.exported || !(lang === 'typescript' || lang === 'tsx' || lang === 'javascript'))) {
      return { v: { t: 'sym', f, i: top }, inf: false };
    }
    for (const re of fx.reexports) {
      if (re.local === name) {
        const r = this.importValue(f, { ...re, reexport: false });
        if (r) return r;
      }
    }
    for (const re of fx.reexports) {
      if (re.imported === '*' && re.local === '') {
        const t = this.modules.resolve(f, re.module);
        if (t === null) continue;
        const r = this.resolveExport(t, name, depth + 1);
        if (r) return r;
      }
    }
    if (lang === 'python') {
      // `from .x import y` in a package __init__ re-exports y; module-level bindings too.
      const imp = fx.imports.get(-1)?.get(name);
      if (imp) return this.importValue(f, imp);
      const b = fx.locals.get(-1)?.get(name);
      if (b) return this.bindingValue(f, b[b.length - 1]!);
    }
    if ((lang === 'typescript' || lang === 'tsx' || lang === 'javascript') && top === undefined) {
      // `export const x = new Foo()`: an exported module-level binding.
      const b = fx.locals.get(-1)?.get(name);
      if (b && b[b.length - 1]!.exported) return this.bindingValue(f, b[b.length - 1]!);
    }
    if ((lang === 'typescript' || lang === 'tsx' || lang === 'javascript') && top !== undefined && fx.exportsByName.size === 0 && !syms.some((s) => s.exported)) {
      // A script without ES exports (CommonJS / ambient declarations): its top level is the module.
      return { v: { t: 'sym', f, i: top }, inf: true };
    }
    return null;
  }

  // ---------------------------------------------------------------- members and types

  /** Base type symbols of a type (resolved once). */
  bases(f: number, i: number): [number, number][] {
    const key = f * 1048576 + i;
    const hit = this.baseMemo.get(key);
    if (hit) return hit;
    this.baseMemo.set(key, []);
    const out: [number, number][] = [];
    const s = this.sym(f, i);
    for (const b of s.bases ?? []) {
      const t = this.resolveType(f, s.parent, b.name);
      if (t) out.push(t);
    }
    this.baseMemo.set(key, out);
    return out;
  }

  /**
   * Member `name` of type symbol (f, i), searching bases; `instance` picks the instance view (fields
   * typed by their annotation) over the static view. Returns the member symbol or a field's value.
   */
  member(f: number, i: number, name: string, instance: boolean, seen: Set<number>): Resolved | null {
    const key = f * 1048576 + i;
    if (seen.has(key) || seen.size > 32) return null;
    seen.add(key);
    const fx = this.ix(f);
    // (a function's nested functions are not its members; `F.prototype.m` is, through `owned`)
    const child = CALLABLE.has(fx.facts.symbols[i]!.kind) ? undefined : fx.members.get(i)?.get(name);
    if (child !== undefined) return { v: { t: 'sym', f, i: child }, inf: seen.size > 1 };
    this.key(`o\0${this.ownerScope(fx.facts)}`);
    const owned = this.owned.get(`${this.ownerScope(fx.facts)}\0${this.sym(f, i).name}\0${name}`);
    if (owned) return { v: { t: 'sym', f: owned[0], i: owned[1] }, inf: seen.size > 1 };
    const fields = fx.fields.get(i)?.get(name);
    if (fields && instance) {
      for (const b of fields) {
        const r = this.bindingValue(f, b);
        if (r) return { v: r.v, inf: true };
      }
    }
    const s = this.sym(f, i);
    if (s.kind === 'type_alias') return null;
    for (const [bf, bi] of this.bases(f, i)) {
      const r = this.member(bf, bi, name, instance, seen);
      if (r) return { v: r.v, inf: true };
    }
    return null;
  }

  /** `v.name` for any value. */
  memberOf(v: Value, name: string): Resolved | null {
    switch (v.t) {
      case 'mod': {
        const r = this.resolveExport(v.f, name, 0) ?? this.submodule(v.f, name);
        if (r || !JS_FAMILY.has(this.file(v.f).language)) return r;
        // `module.exports = View`: `require('./view').create` is View's member.
        const d = this.resolveExport(v.f, 'default', 0);
        return d && d.v.t !== 'mod' ? this.memberOf(d.v, name) : null;
      }
      case 'pkg': {
        const list = this.packageMembers(v.key, name);
        return list.length ? { v: { t: 'sym', f: list[0]![0], i: list[0]![1] }, inf: false } : null;
      }
      case 'inst': {
        const target = this.aliasTarget(v.f, v.i);
        if (!target) return null;
        const r = this.member(target[0], target[1], name, true, new Set());
        if (r && r.v.t === 'sym' && this.sym(r.v.f, r.v.i).isGetter) return this.returnValue(r.v.f, r.v.i);
        return r ? { v: r.v, inf: true } : null;
      }
      case 'sym': {
        const s = this.sym(v.f, v.i);
        if (CONTAINER.has(s.kind)) {
          const r = this.member(v.f, v.i, name, false, new Set());
          return r ? { v: r.v, inf: r.inf } : null;
        }
        if (CALLABLE.has(s.kind) && (name === 'call' || name === 'apply')) return { v, inf: true };
        // `function View() {}; View.create = function`: static members of a constructor function.
        if (CALLABLE.has(s.kind) && JS_FAMILY.has(this.file(v.f).language)) return this.ownedMember(v.f, s.name, name);
        return null;
      }
      case 'obj':
        return this.ownedMember(v.f, v.n, name);
      default:
        return null;
    }
  }

  /** A type alias `type A = B` resolves to B (one level per step, bounded). */
  private aliasTarget(f: number, i: number): [number, number] | null {
    let cur: [number, number] = [f, i];
    for (let k = 0; k < 4; k++) {
      const s = this.sym(cur[0], cur[1]);
      if (s.kind !== 'type_alias') return cur;
      const b = s.bases?.[0];
      if (!b) return cur; // `type A = { ... }`: the alias holds the members itself
      const t = this.resolveType(cur[0], s.parent, b.name);
      if (!t) return null;
      cur = t;
    }
    return null;
  }

  /** The value an expression evaluates to, as far as static facts tell. */
  typeOf(f: number, scope: number, e: Expr): Resolved | null {
    if (this.depth > MAX_DEPTH) return null;
    this.depth++;
    try {
      return this.typeOfInner(f, scope, e);
    } finally {
      this.depth--;
    }
  }

  private typeOfInner(f: number, scope: number, e: Expr): Resolved | null {
    switch (e.k) {
      case 'id':
        return this.resolveName(f, scope, e.n);
      case 'this': {
        const t = this.enclosingType(f, scope);
        if (t < 0) {
          // A method of an object bound to a name (`const api = { a() { this.b() } }`).
          const p = scope >= 0 ? this.sym(f, scope).parent : -1;
          if (p >= 0 && this.sym(f, p).kind === 'variable') return { v: { t: 'sym', f, i: p }, inf: true };
          const o = this.ownerType(f, scope);
          if (!o) return this.jsOwnerValue(f, scope);
          return { v: { t: scope >= 0 && this.sym(f, scope).isStatic ? 'sym' : 'inst', f: o[0], i: o[1] }, inf: true };
        }
        const inStatic = scope >= 0 && this.sym(f, scope).isStatic;
        return { v: { t: inStatic ? 'sym' : 'inst', f, i: t }, inf: true };
      }
      case 'super': {
        const et = this.enclosingType(f, scope);
        const owner = et >= 0 ? [f, et] as [number, number] : this.ownerType(f, scope);
        if (!owner) return null;
        const b = this.bases(owner[0], owner[1])[0];
        return b ? { v: { t: 'inst', f: b[0], i: b[1] }, inf: true } : null;
      }
      case 'mem': {
        const o = this.typeOf(f, scope, e.o);
        if (!o) return null;
        if (o.v.t === 'ext') return o;
        const r = this.memberOf(o.v, e.n);
        return r ? { v: r.v, inf: r.inf || o.inf } : null;
      }
      case 'call': {
        const c = this.typeOf(f, scope, e.f);
        if (!c || c.v.t !== 'sym') return c && c.v.t === 'ext' ? c : null;
        const s = this.sym(c.v.f, c.v.i);
        if (TYPE_LIKE.has(s.kind)) return { v: { t: 'inst', f: c.v.f, i: c.v.i }, inf: true }; // Python/Ruby-style construction
        return this.returnValue(c.v.f, c.v.i);
      }
      case 'new': {
        const t = this.resolveType(f, scope, e.t);
        if (t) return { v: { t: 'inst', f: t[0], i: t[1] }, inf: true };
        // `new View()` of `function View() {}` (JS constructor functions).
        if (e.t.length !== 1 || !JS_FAMILY.has(this.file(f).language)) return null;
        let c = this.resolveName(f, scope, e.t[0]!);
        if (c && c.v.t === 'mod') c = this.resolveExport(c.v.f, 'default', 0); // `var View = require('./view')`
        if (!c || c.v.t !== 'sym') return null;
        const k = this.sym(c.v.f, c.v.i).kind;
        return k === 'function' || TYPE_LIKE.has(k) ? { v: { t: 'inst', f: c.v.f, i: c.v.i }, inf: true } : null;
      }
      default:
        return null;
    }
  }

  /**
   * `this` in `X.prototype.y = function` (an X instance) or `obj.x = function` (obj), JS/TS: the
   * owner's name resolved in the file, else the object its assigned methods make.
   */
  private jsOwnerValue(f: number, scope: number): Resolved | null {
    if (scope < 0 || !JS_FAMILY.has(this.file(f).language)) return null;
    const s = this.sym(f, scope);
    const owner = s.owner;
    // `function View() { this.lookup() }` with `View.prototype.lookup = ...`: a constructor function.
    if (!owner) return s.kind === 'function' && this.ix(f).owners.has(s.name) ? { v: { t: 'inst', f, i: scope }, inf: true } : null;
    const r = this.resolveName(f, -1, owner);
    if (r && r.v.t === 'sym' && this.isCallable(r.v.f, r.v.i)) return { v: { t: 'inst', f: r.v.f, i: r.v.i }, inf: true };
    if (r && (r.v.t === 'sym' || r.v.t === 'inst' || r.v.t === 'obj')) return { v: r.v, inf: true };
    return { v: { t: 'obj', f, n: owner }, inf: true };
  }

  /**
   * The definition an expression used as a value names: like {@link typeOf}, except that a getter
   * read (`obj.size`) is the getter itself, not what it returns.
   */
  referenced(f: number, scope: number, e: Expr): Resolved | null {
    if (e.k !== 'mem') return this.typeOf(f, scope, e);
    const o = this.typeOf(f, scope, e.o);
    if (!o || o.v.t !== 'inst') return this.typeOf(f, scope, e);
    const target = this.aliasTarget(o.v.f, o.v.i);
    const r = target ? this.member(target[0], target[1], e.n, true, new Set()) : null;
    return r ? { v: r.v, inf: true } : null;
  }

  /** What calling callable (f, i) returns: its annotated return type, else its return expression. */
  returnValue(f: number, i: number): Resolved | null {
    const s = this.sym(f, i);
    if (!s.returns) {
      if (!s.returnExpr) return null;
      const rv = this.typeOf(f, i, s.returnExpr);
      if (!rv) return null;
      if (rv.v.t === 'sym' && !this.isCallable(rv.v.f, rv.v.i)) return null;
      return { v: rv.v, inf: true };
    }
    const t = this.resolveType(f, i, s.returns);
    return t ? { v: { t: 'inst', f: t[0], i: t[1] }, inf: true } : null;
  }

  isCallable(f: number, i: number): boolean {
    return CALLABLE.has(this.sym(f, i).kind);
  }

  isTypeLike(f: number, i: number): boolean {
    return TYPE_LIKE.has(this.sym(f, i).kind);
  }
}
