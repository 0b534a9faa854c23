/**
 * Java overloads: a call names a method or constructor by name, and the name lookup finds the first
 * same-named declaration; the overload the call binds to is the one its arguments select. Applicable
 * candidates are ranked as `javac` would, approximately: by arity (a fixed-arity match before a
 * varargs one), then by how well each argument's static type fits the parameter's (same type, a
 * subtype, widening or boxing, `Object`/a type variable, unknown). An argument whose type is not known
 * fits anything; a candidate an argument cannot fit (`null` for a primitive, a `String` for a
 * repository class) is not applicable. No applicable candidate: the name lookup's answer stays.
 */
import type { CallFact, Expr, FileFacts, SymbolFact } from '../facts.ts';
import type { Resolver } from './resolver.ts';

const NO = -1e9;
const PRIMITIVE_RANK: Readonly<Record<string, number>> = { byte: 1, short: 2, char: 2, int: 3, long: 4, float: 5, double: 6 };
const BOXED: Readonly<Record<string, string>> = { Boolean: 'boolean', Byte: 'byte', Short: 'short', Character: 'char', Integer: 'int', Long: 'long', Float: 'float', Double: 'double' };
/** JDK supertypes that overloads in real code split on (a `List` argument for an `Iterable` parameter). */
const JDK_SUPERS: Readonly<Record<string, readonly string[]>> = {
  String: ['CharSequence', 'Comparable', 'Serializable'],
  StringBuilder: ['CharSequence', 'Appendable'], StringBuffer: ['CharSequence', 'Appendable'],
  Collection: ['Iterable'], List: ['Collection', 'Iterable'], Set: ['Collection', 'Iterable'], Queue: ['Collection', 'Iterable'], Deque: ['Queue', 'Collection', 'Iterable'],
  ArrayList: ['List', 'Collection', 'Iterable'], LinkedList: ['List', 'Deque', 'Collection', 'Iterable'], HashSet: ['Set', 'Collection', 'Iterable'],
  LinkedHashSet: ['Set', 'Collection', 'Iterable'], TreeSet: ['Set', 'Collection', 'Iterable'], HashMap: ['Map'], LinkedHashMap: ['Map'], TreeMap: ['Map'], Properties: ['Map'],
  Integer: ['Number'], Long: ['Number'], Double: ['Number'], Float: ['Number'], Short: ['Number'], Byte: ['Number'],
};

interface ArgType {
  /** Simple type name (`String`, `Option`, `int`, `null`, `String[]`). */
  name: string;
  /** The repository type, when it is one. */
  sym?: [number, number];
}

/** Per file facts: `<parent>\0<name>` -> same-named methods (or constructors) of one type, with parsed parameter types. */
const GROUPS = new WeakMap<FileFacts, Map<string, { cands: number[]; params: string[][] }>>();

function overloadsOf(facts: FileFacts, s: SymbolFact): { cands: number[]; params: string[][] } | undefined {
  let m = GROUPS.get(facts);
  if (!m) {
    m = new Map();
    facts.symbols.forEach((x, k) => {
      if (x.kind !== 'method' && x.kind !== 'constructor') return;
      const key = `${x.parent}\0${x.kind}\0${x.name}`;
      let g = m!.get(key);
      if (!g) m!.set(key, (g = { cands: [], params: [] }));
      g.cands.push(k);
      g.params.push((x.signature?.params ?? []).map((p) => paramType(p.type)));
    });
    GROUPS.set(facts, m);
  }
  return m.get(`${s.parent}\0${s.kind}\0${s.name}`);
}

/** The overload of `target` (a method or constructor) that call `c` in file `f` selects. */
export function pickOverload(r: Resolver, f: number, c: CallFact, target: [number, number]): [number, number] {
  const args = c.args;
  if (!args) return target;
  const [tf, ti] = target;
  const facts = r.file(tf); // (recorded as read: the choice depends on this file's declarations)
  const s = facts.symbols[ti]!;
  if (s.kind !== 'method' && s.kind !== 'constructor') return target;
  const g = overloadsOf(facts, s);
  if (!g || g.cands.length < 2) return target;
  const arity = g.cands.filter((_, j) => arityFits(g.params[j]!, args.length));
  if (arity.length === 1) return [tf, arity[0]!];
  if (arity.length === 0) return target;
  const types = args.map((a) => argType(r, f, c.scope, a));
  let best = ti;
  let bestScore = NO;
  g.cands.forEach((k, j) => {
    const score = fit(r, tf, k, g.params[j]!, types);
    if (score > bestScore) { best = k; bestScore = score; }
  });
  return bestScore > NO ? [tf, best] : target;
}

function arityFits(params: string[], n: number): boolean {
  if (n === params.length) return true;
  return params.length > 0 && params[params.length - 1]!.endsWith('...') && n >= params.length - 1;
}

/** How well the arguments fit candidate (tf, k) with parameter types `params`: NO when they cannot. */
function fit(r: Resolver, tf: number, k: number, params: string[], args: (ArgType | null)[]): number {
  const varargs = params.length > 0 && params[params.length - 1]!.endsWith('...');
  let score = 0;
  if (args.length === params.length) {
    for (let i = 0; i < args.length; i++) {
      let p = params[i]!;
      if (varargs && i === params.length - 1) p = `${p.slice(0, -3)}[]`; // (an array passed for the varargs)
      const x = argFit(r, tf, k, args[i]!, p);
      if (x === NO) { if (varargs && i === params.length - 1 && argFit(r, tf, k, args[i]!, params[i]!.slice(0, -3)) !== NO) continue; return NO; }
      score += x;
    }
    return score;
  }
  if (!varargs || args.length < params.length - 1) return NO;
  for (let i = 0; i < args.length; i++) {
    const p = i < params.length - 1 ? params[i]! : params[params.length - 1]!.slice(0, -3);
    const x = argFit(r, tf, k, args[i]!, p);
    if (x === NO) return NO;
    score += x;
  }
  return score - 0.5; // (javac tries fixed arity first)
}

/** `final Map<K, V>` -> `Map`; `java.util.List<X>[]` -> `List[]`; `String...` stays. */
function paramType(t: string | undefined): string {
  if (!t) return '';
  let x = t.replace(/@\w+(\([^)]*\))?\s*/g, '').replace(/\bfinal\s+/g, '');
  for (let k = 0; k < 8 && x.includes('<'); k++) x = x.replace(/<[^<>]*>/g, '');
  x = x.replace(/\s+/g, '');
  const suffix = /(\[\]|\.\.\.)*$/.exec(x)![0];
  const base = x.slice(0, x.length - suffix.length);
  return base.slice(base.lastIndexOf('.') + 1) + suffix;
}

function argFit(r: Resolver, tf: number, k: number, a: ArgType | null, p: string): number {
  if (!a || !p) return 0;
  const A = a.name;
  const primP = PRIMITIVE_RANK[p] !== undefined || p === 'boolean';
  if (A === 'null') return primP ? NO : 1;
  if (A === '->') return primP || p.endsWith('[]') || p.endsWith('...') || JDK_SUPERS[p] !== undefined || p === 'String' ? NO : 0; // (a lambda is no array, primitive or JDK value type)
  if (A === p) return 3;
  const primA = PRIMITIVE_RANK[A] !== undefined || A === 'boolean';
  if (primA && primP) return A !== 'boolean' && p !== 'boolean' && A !== 'char' && PRIMITIVE_RANK[A]! <= PRIMITIVE_RANK[p]! ? 2 : A === 'char' && PRIMITIVE_RANK[p]! >= 3 ? 2 : NO;
  if (BOXED[p] === A || BOXED[A] === p) return 1;
  if (primP) return NO;
  if (p === 'Object' || /^[A-Z][0-9]?$/.test(p)) return 1;
  if (p.endsWith('[]') !== A.endsWith('[]')) return NO;
  if (a.sym) {
    const sup = supertypes(r, a.sym);
    if (sup.names.has(p)) return 2;
    return sup.open ? 0 : NO;
  }
  if (JDK_SUPERS[A]?.includes(p)) return 2;
  // A JDK (or unknown) type is never a repository type.
  const pt = r.resolveType(tf, k, [p]);
  return pt ? NO : 0;
}

/** Names of a repository type's supertypes; `open` when one of them is not in the repository. */
function supertypes(r: Resolver, t: [number, number]): { names: Set<string>; open: boolean } {
  const names = new Set<string>();
  let open = false;
  const todo: [number, number][] = [t];
  const seen = new Set<number>();
  while (todo.length && seen.size < 32) {
    const [f, i] = todo.pop()!;
    if (seen.has(f * 1048576 + i)) continue;
    seen.add(f * 1048576 + i);
    const s = r.sym(f, i);
    const resolved = r.bases(f, i);
    if ((s.bases?.length ?? 0) > resolved.length) open = true;
    for (const b of s.bases ?? []) names.add(b.name[b.name.length - 1]!);
    for (const b of resolved) { names.add(r.sym(b[0], b[1]).name); todo.push(b); }
  }
  return { names, open };
}

/** The static type of an argument, as far as the facts tell. */
function argType(r: Resolver, f: number, scope: number, e: Expr): ArgType | null {
  if (e.k === 'new') {
    const t = e.t.length === 1 && (e.t[0] === 'null' || e.t[0] === '->' || PRIMITIVE_RANK[e.t[0]!] !== undefined || e.t[0] === 'boolean') ? null : r.resolveType(f, scope, e.t);
    return { name: e.t[e.t.length - 1]!, ...(t ? { sym: t } : {}) };
  }
  if (e.k === 'unk') return null;
  const v = r.typeOf(f, scope, e);
  if (v && v.v.t === 'inst') return { name: r.sym(v.v.f, v.v.i).name, sym: [v.v.f, v.v.i] };
  if (v) return null;
  if (e.k === 'id') {
    const t = declaredType(r, f, scope, e.n);
    return t ? { name: t } : null;
  }
  if (e.k === 'call') {
    const fn = r.typeOf(f, scope, e.f);
    if (fn && fn.v.t === 'sym' && r.isCallable(fn.v.f, fn.v.i)) {
      const ret = r.sym(fn.v.f, fn.v.i).returns;
      if (ret?.length) return { name: ret[ret.length - 1]! };
    }
  }
  return null;
}

/** Per file facts: `<scope>\0<name>` -> the declared type name of its last binding ('' when untyped). */
const DECLARED = new WeakMap<FileFacts, Map<string, string>>();

/** The declared type name of a local, parameter or field `name` seen from `scope` (JDK types included). */
function declaredType(r: Resolver, f: number, scope: number, name: string): string | undefined {
  const facts = r.file(f);
  let m = DECLARED.get(facts);
  if (!m) {
    m = new Map();
    for (const b of facts.bindings) m.set(`${b.scope}\0${b.name}`, b.type?.[b.type.length - 1] ?? '');
    DECLARED.set(facts, m);
  }
  for (let s = scope; s >= -1; s = s >= 0 ? facts.symbols[s]!.parent : -2) {
    const t = m.get(`${s}\0${name}`);
    if (t !== undefined) return t || undefined;
  }
  return undefined;
}
