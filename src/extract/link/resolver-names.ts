/**
 * Name resolution (see resolver.ts for the rules every lookup follows): scopes, bindings,
 * imports, exports and re-exports (`export *` chains), package scopes and global names.
 */
import type { BindingFact, Expr, ImportFact, NamePath } from '../facts.ts';
import { CALLABLE, CONTAINER, GLOBAL_NAMES, IMPLICIT_THIS, JS_FAMILY, MAX_DEPTH, ResolverIndex, TYPE_LIKE, type Resolved, type Value } from './resolver-index.ts';

export abstract class ResolverNames extends ResolverIndex {
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

  protected resolveNameInner(f: number, scope: number, name: string): Resolved | null {
    const fx = this.ix(f);
    const syms = fx.facts.symbols;
    const lang = fx.facts.language;
    for (let s = scope; s >= 0; s = syms[s]!.parent) {
      const kind = syms[s]!.kind;
      const typeScope = TYPE_LIKE.has(kind);
      if (!typeScope) {
        const list = fx.locals.get(s)?.get(name);
        const b = list && this.visibleBinding(f, s, list);
        const child = fx.members.get(s)?.get(name);
        // A local shadows outer names, typed or not; `const f = () => ...` is both a local (of no
        // known value) and the nested function it names.
        if (b && (child === undefined || b.type || b.value)) return this.bindingValue(f, b);
        const imp = fx.imports.get(s)?.get(name);
        if (imp) return this.importValue(f, imp);
        if (child !== undefined) return { v: { t: 'sym', f, i: child }, inf: false };
        const glob = lang === 'rust' ? this.rustGlobName(f, s, name) : null; // `use super::*;` in this scope
        if (glob) return glob;
      } else if (IMPLICIT_THIS.has(lang)) {
        // Java: a local of a field initializer's lambda or an initializer block is in the class's scope
        const b = lang === 'java' ? fx.locals.get(s)?.get(name) : undefined;
        if (b) return this.bindingValue(f, b[b.length - 1]!);
        // Java: a bare field name in a method is `this.field` (the instance view types it by its declaration)
        const m = this.member(f, s, name, lang === 'java', new Set());
        if (m) return { v: m.v, inf: true };
      }
      const parent = syms[s]!.parent;
      const member = parent >= 0 && TYPE_LIKE.has(syms[parent]!.kind);
      // (`res.vary = function (field) { vary(this, field) }`: `vary` is not bound by the assignment;
      // nor is a Go method's name inside it: `walk()` in `func (n *node) walk()` is the package's `walk`)
      if (!member && syms[s]!.name === name && (CONTAINER.has(kind) || CALLABLE.has(kind)) && !(syms[s]!.owner && (JS_FAMILY.has(lang) || lang === 'go'))) return { v: { t: 'sym', f, i: s }, inf: false };
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
    const glob = lang === 'rust' ? this.rustGlobName(f, -1, name) : null;
    if (glob) return glob;
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

  /** The call or value use being linked (file, scope, line): see {@link visibleBinding}. */
  private site: { f: number; scope: number; line: number } | null = null;

  /** The linker names the site it resolves next (null when done), so same-named locals resolve by line. */
  atSite(f: number, scope: number, line: number): void {
    this.site = { f, scope, line };
  }

  leaveSite(): void {
    this.site = null;
  }

  /**
   * Which of a scope's same-named bindings a name means: the last one, unless bindings carry the
   * lines they are visible in (Go blocks, func literal parameters) and the name is read at the
   * current site's scope: then the visible one declared last (none visible: undefined).
   */
  private visibleBinding(f: number, scope: number, list: BindingFact[]): BindingFact | undefined {
    const last = list[list.length - 1]!;
    const site = this.site;
    if (!site || site.f !== f || site.scope !== scope || !list.some((b) => b.lines)) return last;
    let best: BindingFact | undefined;
    let bestStart = -1;
    for (const b of list) {
      const start = b.lines ? b.lines[0] : 0;
      if (b.lines && (site.line < start || site.line > b.lines[1])) continue;
      if (start >= bestStart) { best = b; bestStart = start; }
    }
    return best;
  }

  /** What a binding (local, parameter, field) holds: its annotated type, else its value's type. */
  bindingValue(f: number, b: BindingFact): Resolved | null {
    if (this.bindingMemo.has(b)) return this.bindingMemo.get(b)!;
    const site = this.site;
    // Its value is read where it is declared (whatever site asked), so the memo holds for every site.
    this.site = b.lines ? { f, scope: b.at ?? b.scope, line: b.lines[0] } : null;
    try {
      return this.bindingValueAt(f, b);
    } finally {
      this.site = site;
    }
  }

  private bindingValueAt(f: number, b: BindingFact): Resolved | null {
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

  /** A type name path -> type (or alias) symbol. */
  resolveType(f: number, scope: number, path: NamePath): [number, number] | null {
    let r = this.resolveName(f, scope, path[0]!);
    for (let k = 1; r && k < path.length; k++) r = this.memberOf(r.v, path[k]!);
    if (!r || (r.v.t !== 'sym')) return null;
    const tf = r.v.f;
    const isType = (i: number): boolean => {
      const k = this.sym(tf, i).kind;
      return k === 'type_alias' || TYPE_LIKE.has(k) || k === 'namespace' || k === 'module';
    };
    if (isType(r.v.i)) return [tf, r.v.i];
    const twin = this.ix(tf).typeTwins.get(r.v.i); // `const X = ...` with `interface X`: the type
    return twin !== undefined && isType(twin) ? [tf, twin] : null;
  }

  importValue(f: number, imp: ImportFact): Resolved | null {
    if (this.file(f).language === 'rust') return this.rustImport(f, imp); // (from its scope: inline `mod`s, globs)
    const target = this.modules.resolve(f, imp.module);
    if (target === null) return this.foreignImport(f, imp);
    if (imp.imported === '*' || imp.imported === '') return { v: { t: 'mod', f: target }, inf: false };
    return this.resolveExport(target, imp.imported, 0) ?? this.submodule(target, imp.imported);
  }

  /** Imports whose module is not a file: Go packages, Java/C# namespaces and classes, Rust paths. */
  protected foreignImport(f: number, imp: ImportFact): Resolved | null {
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
  protected submodule(pkgFile: number, name: string): Resolved | null {
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

  protected resolveExportInner(f: number, name: string, depth: number): Resolved | null {
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

  /** Member `name` of type symbol (f, i) (resolver.ts). */
  abstract member(f: number, i: number, name: string, instance: boolean, seen: Set<number>): Resolved | null;
  /** `v.name` for any value (resolver.ts). */
  abstract memberOf(v: Value, name: string): Resolved | null;
  /** Rust `use` from its scope (resolver.ts). */
  abstract rustImport(f: number, imp: ImportFact): Resolved | null;
  /** Rust: a name through the glob imports of a scope (resolver.ts). */
  abstract rustGlobName(f: number, scope: number, name: string): Resolved | null;
  /** The value an expression evaluates to (resolver.ts). */
  abstract typeOf(f: number, scope: number, e: Expr): Resolved | null;
}
