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
 *
 * Split in three: resolver-index.ts (indexes, units, parameter statistics), resolver-names.ts
 * (scopes, imports, exports), this file (members, receivers, expression types).
 */
import type { Expr, ImportFact } from '../facts.ts';
import { CALLABLE, CONTAINER, JS_FAMILY, MAX_DEPTH, TYPE_LIKE, type Resolved, type Value } from './resolver-index.ts';
import { ResolverNames } from './resolver-names.ts';

export { languageFamily, ownerScopeOf, type GuessData, type Resolved, type Value } from './resolver-index.ts';

/** Members, receivers and types on top of name resolution: the resolver the linker uses. */
export class Resolver extends ResolverNames {
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
    let child = CALLABLE.has(fx.facts.symbols[i]!.kind) ? undefined : fx.members.get(i)?.get(name);
    // (a Java/C# constructor is named as its class, but the name inside the class is the class)
    if (child !== undefined && fx.facts.symbols[child]!.kind === 'constructor' && name === fx.facts.symbols[i]!.name) child = undefined;
    if (child !== undefined) return { v: { t: 'sym', f, i: child }, inf: seen.size > 1 };
    this.key(`o\0${this.ownerScope(fx.facts)}`);
    const owned = this.owned.get(`${this.ownerScope(fx.facts)}\0${this.sym(f, i).name}\0${name}`);
    if (owned) return { v: { t: 'sym', f: owned[0], i: owned[1] }, inf: seen.size > 1 };
    const fields = fx.fields.get(i)?.get(name);
    // (Java: `Type.FIELD` reads a static field; naming an instance field so does not compile)
    if (fields && (instance || fx.facts.language === 'java')) {
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
        if (this.file(v.f).language === 'rust') {
          // (a module file beside it not declared by `mod x;` here: the layout says what it is)
          const r = this.rustModuleName(v.f, -1, name);
          if (r) return r;
          const child = this.modules.rustChild(v.f, [name]);
          return child !== null && child !== v.f ? { v: { t: 'mod', f: child }, inf: true } : null;
        }
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
        if (this.file(v.f).language === 'rust') {
          const r = this.rustSymMember(v.f, v.i, name);
          if (r !== undefined) return r;
        }
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

  /** The file a Rust `mod a;` (no body) names: `src/a.rs` or `src/a/mod.rs`; null for an inline `mod a { .. }`. */
  private rustModuleTarget(f: number, i: number): number | null {
    const s = this.sym(f, i);
    if (this.file(f).language !== 'rust' || !s.signature?.raw.endsWith(';')) return null;
    const segments = [s.name];
    for (let p = s.parent; p >= 0; p = this.sym(f, p).parent) {
      const o = this.sym(f, p);
      if (o.kind !== 'module') return null;
      segments.unshift(o.name);
    }
    return this.modules.rustChild(f, segments);
  }

  /**
   * Rust: member `name` of symbol (f, i): a module's item (its file's, for `mod a;`), an enum's
   * variant (an instance of the enum), what a type alias names has; undefined: not a Rust case.
   */
  private rustSymMember(f: number, i: number, name: string): Resolved | null | undefined {
    const s = this.sym(f, i);
    if (s.kind === 'module') {
      const t = this.rustModuleTarget(f, i);
      return t !== null ? this.rustModuleName(t, -1, name) : this.rustModuleName(f, i, name);
    }
    if (s.kind === 'type_alias') {
      const t = this.aliasTarget(f, i);
      return t && (t[0] !== f || t[1] !== i) ? this.memberOf({ t: 'sym', f: t[0], i: t[1] }, name) : null;
    }
    if (s.kind === 'enum') {
      const r = this.member(f, i, name, false, new Set());
      if (r) return r;
      // `Level::Info`: a variant is a value of the enum (variants are no nodes)
      return /^[A-Z]/.test(name) ? { v: { t: 'inst', f, i }, inf: true } : null;
    }
    return undefined;
  }

  /** Guard for Rust glob imports that reach each other (`use super::*` both ways). */
  private readonly rustGlobsOpen = new Set<string>();

  /**
   * Rust: the item `name` declared or imported in module `scope` of file f (-1: the file's own
   * module): an item, a `use` (named or glob), a static or const; never a local of a function.
   */
  rustModuleName(f: number, scope: number, name: string): Resolved | null {
    const fx = this.ix(f);
    const child = fx.members.get(scope)?.get(name);
    if (child !== undefined) return { v: { t: 'sym', f, i: child }, inf: false };
    const imp = fx.imports.get(scope)?.get(name);
    if (imp) return this.importValue(f, imp);
    const b = fx.locals.get(scope)?.get(name);
    if (b) { const r = this.bindingValue(f, b[b.length - 1]!); if (r) return r; }
    return this.rustGlobName(f, scope, name);
  }

  /** Rust: `name` through the glob imports (`use super::*;`, `use crate::m::*;`) written in `scope` of file f. */
  rustGlobName(f: number, scope: number, name: string): Resolved | null {
    const fx = this.ix(f);
    for (const re of fx.reexports) {
      if (re.imported !== '*' || re.scope !== scope) continue;
      const key = `${f}\0${scope}\0${re.line}\0${name}`;
      if (this.rustGlobsOpen.has(key) || this.rustGlobsOpen.size > 32) continue;
      this.rustGlobsOpen.add(key);
      try {
        const base = this.rustModulePath(f, scope, re.module);
        const r = base && base.v.t !== 'ext' ? this.memberOf(base.v, name) : null;
        if (r) return r;
      } finally {
        this.rustGlobsOpen.delete(key);
      }
    }
    return null;
  }

  /** Rust `use a::b::c` (or `a::b::*`) from `imp.scope`: what it names in the repository, `ext` outside it. */
  rustImport(f: number, imp: ImportFact): Resolved | null {
    // `use a::X` in b and `use b::X` in a (or a path back to its own file): nothing, not a loop
    if (this.rustImportsOpen.has(imp)) return null;
    this.rustImportsOpen.add(imp);
    try {
      const base = this.rustModulePath(f, imp.scope, imp.module);
      if (!base || base.v.t === 'ext' || imp.imported === '*' || imp.imported === '') return base;
      return this.memberOf(base.v, imp.imported);
    } finally {
      this.rustImportsOpen.delete(imp);
    }
  }

  private readonly rustImportsOpen = new Set<ImportFact>();

  /**
   * The module (or type) a Rust path names from `scope` of file f: `crate`/`self`/`super` roots
   * (inline `mod`s counted), the repository's own crates by name (Cargo.toml; `log::x` in tests/),
   * else a module or type in scope; `ext` for another crate (std, dependencies).
   */
  rustModulePath(f: number, scope: number, path: string): Resolved | null {
    const segs = path.split('::').filter(Boolean);
    let k = 0;
    while (k < segs.length && (segs[k] === 'crate' || segs[k] === 'self' || segs[k] === 'super')) k++;
    let base: Resolved | null;
    if (k > 0) base = this.rustPathRoot(f, scope, segs.slice(0, k).join('::'));
    else if (!segs.length) base = this.rustPathRoot(f, scope, 'self');
    else {
      // A name in scope first (`mod shapes;` in a crate named shapes: `use shapes::X` is the
      // module), then the repository's crates by name.
      const r = this.resolveName(f, scope, segs[0]!);
      const ok = r && (r.v.t === 'mod' || (r.v.t === 'sym' && (CONTAINER.has(this.sym(r.v.f, r.v.i).kind) || this.sym(r.v.f, r.v.i).kind === 'type_alias')));
      if (ok) base = r;
      else {
        const root = this.modules.rustCrateRoot(segs[0]!);
        if (root === null) return { v: { t: 'ext' }, inf: false };
        base = { v: { t: 'mod', f: root }, inf: false };
      }
      k = 1;
    }
    for (; base && k < segs.length; k++) base = base.v.t === 'ext' ? base : this.memberOf(base.v, segs[k]!);
    return base;
  }

  /**
   * The module a Rust path root names from `scope`: `self` the innermost enclosing `mod x { .. }`
   * (else the file), `super` the module above it (above the file: the parent module's file).
   */
  rustPathRoot(f: number, scope: number, root: string): Resolved | null {
    const syms = this.file(f).symbols;
    let m = scope;
    while (m >= 0 && syms[m]!.kind !== 'module') m = syms[m]!.parent;
    const parts = root.split('::');
    if (parts[0] === 'crate') {
      const t = this.modules.rustRoot(f, 'crate');
      return t === null ? null : { v: { t: 'mod', f: t }, inf: false };
    }
    let k = 0;
    if (parts[0] === 'self') k = 1;
    for (; k < parts.length && m >= 0; k++) {
      m = syms[m]!.parent;
      while (m >= 0 && syms[m]!.kind !== 'module') m = syms[m]!.parent;
    }
    if (m >= 0) return { v: { t: 'sym', f, i: m }, inf: false };
    const rest = parts.slice(k);
    const t = rest.length ? this.modules.rustRoot(f, rest.join('::')) : f;
    return t === null ? null : { v: { t: 'mod', f: t }, inf: false };
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

  /**
   * What a call's callee names: {@link typeOf}, except that in Rust `x.m()` is the method m (a field
   * of that name is read only without the call: see the `mem` case).
   */
  calleeValue(f: number, scope: number, e: Expr): Resolved | null {
    if (e.k !== 'mem' || this.file(f).language !== 'rust') return this.typeOf(f, scope, e);
    return this.memberValue(this.typeOf(f, scope, e.o), e.n);
  }

  /** Rust: the value of field `name` of an instance of type (f, i) (tuple fields are named 0, 1, ..). */
  private rustField(f: number, i: number, name: string): Resolved | null {
    const t = this.aliasTarget(f, i);
    const list = t ? this.ix(t[0]).fields.get(t[1])?.get(name) : undefined;
    if (!list) return null;
    for (const b of list) {
      const r = this.bindingValue(t![0], b);
      if (r) return { v: r.v, inf: true };
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
      case 'id': {
        const r = this.resolveName(f, scope, e.n);
        if (this.file(f).language !== 'rust' || (r && !(r.v.t === 'sym' && this.sym(r.v.f, r.v.i).extra?.macro))) return r;
        // `log::Level::iter()` in tests/: the crate's own name (a macro of that name is no path)
        const root = this.modules.rustCrateRoot(e.n);
        return root !== null ? { v: { t: 'mod', f: root }, inf: false } : r;
      }
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
        // Rust: `self.metadata.level()` reads the field `metadata`, never the getter `metadata()` beside it
        if (o && o.v.t === 'inst' && this.file(f).language === 'rust') {
          const fld = this.rustField(o.v.f, o.v.i, e.n);
          if (fld) return fld;
        }
        return this.memberValue(o, e.n);
      }
      case 'call': {
        // The receiver once (a chain `a.b().c().d()` must not be typed again at every step).
        const recv = e.f.k === 'mem' ? this.typeOf(f, scope, e.f.o) : null;
        const c = e.f.k === 'mem' ? this.memberValue(recv, e.f.n) : this.typeOf(f, scope, e.f);
        if (!c || c.v.t !== 'sym') return c && c.v.t === 'ext' ? c : null;
        const s = this.sym(c.v.f, c.v.i);
        if (TYPE_LIKE.has(s.kind)) return { v: { t: 'inst', f: c.v.f, i: c.v.i }, inf: true }; // Python/Ruby-style construction
        // `min(n): this` (fluent builders): the receiver's own type, a subtype's too.
        if (s.returns?.length === 1 && s.returns[0] === 'this' && recv && (recv.v.t === 'inst' || recv.v.t === 'sym')) return { v: recv.v, inf: true };
        return this.returnValue(c.v.f, c.v.i);
      }
      case 'path':
        return this.rustPathRoot(f, scope, e.p);
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

  /** Member `n` of an evaluated receiver (`o.n`). */
  private memberValue(o: Resolved | null, n: string): Resolved | null {
    if (!o) return null;
    if (o.v.t === 'ext') return o;
    const r = this.memberOf(o.v, n);
    return r ? { v: r.v, inf: r.inf || o.inf } : null;
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
}
