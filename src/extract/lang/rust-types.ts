/**
 * Rust type reading for receivers: trait objects and `impl Trait` (`&dyn Log`, `&(impl Source + ?Sized)`)
 * name their trait; a generic parameter (`fn f<L: Log>(l: L)`, `impl<T> X for &T where T: Log`) names
 * its first bound that is a trait of the code (not a marker like `?Sized`, `Send`, `Clone`), so a
 * call through it resolves to the trait's method declaration; `Self` names the impl's type. Also the
 * bindings a method body gets: `self` and `Self` typed by the impl (or trait) it belongs to.
 */
import type { Node } from 'web-tree-sitter';
import type { NamePath } from '../facts.ts';
import type { Sink } from './spec.ts';

/** Bounds that say nothing about which methods a value has (marker and derive-only std traits). */
const MARKER_BOUNDS = new Set([
  'Sized', 'Send', 'Sync', 'Unpin', 'Copy', 'Clone', 'Debug', 'Display', 'Default', 'Eq', 'PartialEq', 'Ord', 'PartialOrd', 'Hash',
  'Borrow', 'AsRef', 'AsMut', 'Into', 'From', 'Fn', 'FnMut', 'FnOnce', 'Any', 'ToString',
]);
/** Std types whose methods a receiver reaches through them (deref) or whose value it unwraps. */
const WRAPPERS = new Set(['Box', 'Rc', 'Arc', 'Option', 'Result']);
/** Parents searched for a generic parameter's declaration (a type sits a few levels below its item). */
const MAX_UP = 24;

type PathOf = (n: Node, depth?: number) => NamePath | undefined;

/** The first trait bound worth following in a `trait_bounds` node, if any. */
function firstBound(bounds: Node | null, pathOf: PathOf, depth: number): NamePath | undefined {
  for (const b of bounds?.namedChildren ?? []) {
    if (!b || b.type === 'removed_trait_bound' || b.type === 'lifetime' || b.type === 'higher_ranked_trait_bound') continue;
    const p = pathOf(b, depth + 1);
    if (p && !MARKER_BOUNDS.has(p[p.length - 1]!)) return p;
  }
  return undefined;
}

/** The bound of generic parameter `name` declared by the nearest item (fn, impl, trait) around `n`. */
function genericBound(n: Node, name: string, pathOf: PathOf, depth: number): NamePath | undefined {
  let k = 0;
  for (let p = n.parent; p && k < MAX_UP; p = p.parent, k++) {
    if (p.type === 'mod_item' || p.type === 'source_file') return undefined;
    if (p.type !== 'function_item' && p.type !== 'impl_item' && p.type !== 'trait_item' && p.type !== 'function_signature_item') continue;
    let declared = false;
    for (const tp of p.childForFieldName('type_parameters')?.namedChildren ?? []) {
      if (tp?.type !== 'type_parameter' || tp.childForFieldName('name')?.text !== name) continue;
      declared = true;
      const b = firstBound(tp.childForFieldName('bounds'), pathOf, depth);
      if (b) return b;
    }
    for (const c of p.namedChildren) {
      if (c?.type !== 'where_clause') continue;
      for (const w of c.namedChildren) {
        if (w?.type !== 'where_predicate' || w.childForFieldName('left')?.text !== name) continue;
        const b = firstBound(w.childForFieldName('bounds'), pathOf, depth);
        if (b) return b;
      }
    }
    if (declared) return undefined; // a parameter without a useful bound
  }
  return undefined;
}

/** `Self` where `n` sits: the type of the impl (or the trait) around it. */
function implTypeAround(n: Node, pathOf: PathOf): NamePath | undefined {
  let k = 0;
  for (let p = n.parent; p && k < MAX_UP; p = p.parent, k++) {
    if (p.type === 'trait_item') { const t = p.childForFieldName('name'); return t ? [t.text] : undefined; }
    if (p.type === 'impl_item') {
      const t = p.childForFieldName('type');
      return t && t.text !== 'Self' && !t.descendantsOfType('type_identifier').some((x) => x?.text === 'Self') ? pathOf(t) : undefined;
    }
    if (p.type === 'mod_item' || p.type === 'source_file') return undefined;
  }
  return undefined;
}

/** The type a method of an impl or trait has for `self`/`Self`: the impl's type, the trait itself. */
export function selfTypeOf(fn: Node, pathOf: PathOf): NamePath | undefined {
  const list = fn.parent;
  const item = list?.type === 'declaration_list' ? list.parent : null;
  if (item?.type === 'trait_item') { const n = item.childForFieldName('name'); return n ? [n.text] : undefined; }
  if (item?.type !== 'impl_item') return undefined;
  const t = item.childForFieldName('type');
  return t ? pathOf(t) : undefined;
}

/**
 * A Rust type node -> name path, or undefined (`base` reads the shapes every language shares):
 * `dyn T`, `impl T`, `(impl T + ?Sized)` name T; a generic parameter names its bound.
 */
export function rustTypePath(n: Node, base: PathOf, depth = 0): NamePath | undefined {
  if (depth > 20) return undefined;
  const self: PathOf = (x, d = depth + 1) => rustTypePath(x, base, d);
  switch (n.type) {
    case 'dynamic_type': case 'abstract_type': { const t = n.childForFieldName('trait'); return t ? self(t) : undefined; }
    case 'bounded_type': return firstBound(n, self, depth);
    case 'tuple_type': return n.namedChildCount === 1 && n.firstNamedChild ? self(n.firstNamedChild) : undefined;
    case 'reference_type': case 'pointer_type': { const t = n.childForFieldName('type'); return t ? self(t) : undefined; }
    case 'generic_type': {
      const t = n.childForFieldName('type');
      if (!t) return undefined;
      // `Box<T>`, `Rc<T>`, `Arc<T>` deref to T; `Option<T>`/`Result<T, E>` hold a T (`.unwrap()`, `?`)
      const last = t.text.slice(t.text.lastIndexOf(':') + 1);
      const arg = WRAPPERS.has(last) ? n.childForFieldName('type_arguments')?.namedChildren.find((c) => c && c.type !== 'lifetime') : undefined;
      return arg ? self(arg) ?? self(t) : self(t);
    }
    case 'type_identifier': {
      if (n.text === 'Self') return implTypeAround(n, self);
      return genericBound(n, n.text, self, depth) ?? [n.text];
    }
    default: return base(n);
  }
}

/** `self` and `Self` in a method body (the `block` of a fn inside an impl or trait), as bindings of the method. */
export function pushSelfBindings(body: Node, scope: number, sink: Sink, pathOf: PathOf): void {
  const fn = body.parent;
  if (!fn || fn.type !== 'function_item' || scope < 0) return;
  const t = selfTypeOf(fn, pathOf);
  if (!t || (t.length === 1 && t[0] === 'Self')) return;
  sink.bindings.push({ scope, name: 'Self', type: t });
  if (fn.childForFieldName('parameters')?.namedChildren.some((c) => c?.type === 'self_parameter')) sink.bindings.push({ scope, name: 'self', type: t });
}

/** Names bound by a pattern (`(key, value)`, `Some(x)`, `ref y`), declared as untyped locals so they shadow outer names. */
export function pushPatternLocals(pattern: Node, scope: number, sink: Sink): void {
  const stack: Node[] = [pattern];
  let n = 0;
  while (stack.length && n++ < 64) {
    const p = stack.pop()!;
    if (p.type === 'identifier') { sink.bindings.push({ scope, name: p.text }); continue; }
    if (p.type === 'scoped_identifier' || p.type === 'type_identifier' || p.type.endsWith('_literal')) continue;
    for (const c of p.namedChildren) if (c) stack.push(c);
  }
}
