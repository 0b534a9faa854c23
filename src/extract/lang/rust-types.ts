/**
 * Rust type reading for receivers: trait objects and `impl Trait` (`&dyn Log`, `&(impl Source + ?Sized)`)
 * name their trait; a generic parameter (`fn f<L: Log>(l: L)`, `impl<T> X for &T where T: Log`) names
 * its first bound that is a trait of the code (not a marker like `?Sized`, `Send`, `Clone`), so a
 * call through it resolves to the trait's method declaration; `Self` names the impl's type. Also the
 * bindings a method body gets: `self` and `Self` typed by the impl (or trait) it belongs to.
 */
import { Query, type Language, type Node, type Tree } from 'web-tree-sitter';
import type { NamePath } from '../facts.ts';
import type { DefInfo, Sink } from './spec.ts';

/** Bounds that say nothing about which methods a value has (marker and derive-only std traits). */
const MARKER_BOUNDS = new Set([
  'Sized', 'Send', 'Sync', 'Unpin', 'Copy', 'Clone', 'Debug', 'Display', 'Default', 'Eq', 'PartialEq', 'Ord', 'PartialOrd', 'Hash',
  'Borrow', 'AsRef', 'AsMut', 'Into', 'From', 'Fn', 'FnMut', 'FnOnce', 'Any', 'ToString',
]);
/** Std types whose methods a receiver reaches through them (deref) or whose value it unwraps. */
const WRAPPERS = new Set(['Box', 'Rc', 'Arc', 'Option', 'Result']);
/** Items whose generic parameters or `Self` a type inside them can name (a `mod` ends the search). */
const ITEM_TYPES = ['function_item', 'function_signature_item', 'impl_item', 'trait_item', 'mod_item'];
/** Items searched outward from a type. */
const MAX_ITEMS = 16;

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

/**
 * The items of one tree in document order with the index of the item around each (-1 at top level).
 * `Node.parent` walks down from the root (O(depth) a call), so asking for the items around a type by
 * climbing parents made deeply nested files quadratic; one query run lists them all instead.
 */
interface ItemIndex { items: Node[]; outer: Int32Array; starts: Int32Array }

const itemQueries = new WeakMap<Language, Query>();
const itemIndexes = new WeakMap<Tree, ItemIndex>();

function itemIndexOf(tree: Tree): ItemIndex {
  let index = itemIndexes.get(tree);
  if (index) return index;
  let query = itemQueries.get(tree.language);
  if (!query) { query = new Query(tree.language, `[${ITEM_TYPES.map((t) => `(${t})`).join(' ')}] @item`); itemQueries.set(tree.language, query); }
  const items = query.captures(tree.rootNode).map((c) => c.node);
  const outer = new Int32Array(items.length);
  const open: number[] = [];
  items.forEach((it, i) => {
    while (open.length && items[open[open.length - 1]!]!.endIndex <= it.startIndex) open.pop();
    outer[i] = open.length ? open[open.length - 1]! : -1;
    open.push(i);
  });
  index = { items, outer, starts: Int32Array.from(items, (it) => it.startIndex) };
  itemIndexes.set(tree, index);
  return index;
}

/** The items around `n` (itself included when it is one), innermost first, up to the nearest `mod`. */
function* itemsAround(n: Node): Generator<Node> {
  const { items, outer, starts } = itemIndexOf(n.tree);
  let lo = 0;
  let hi = starts.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= n.startIndex) { at = mid; lo = mid + 1; } else hi = mid - 1;
  }
  for (let k = 0; at >= 0 && k < MAX_ITEMS; at = outer[at]!) {
    const it = items[at]!;
    if (it.endIndex < n.endIndex) continue;
    if (it.type === 'mod_item') return;
    yield it;
    k++;
  }
}

/** The bound of generic parameter `name` declared by the nearest item (fn, impl, trait) around `n`. */
function genericBound(n: Node, name: string, pathOf: PathOf, depth: number): NamePath | undefined {
  for (const p of itemsAround(n)) {
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
  for (const p of itemsAround(n)) {
    if (p.type === 'trait_item') { const t = p.childForFieldName('name'); return t ? [t.text] : undefined; }
    if (p.type === 'impl_item') {
      const t = p.childForFieldName('type');
      return t && t.text !== 'Self' && !t.descendantsOfType('type_identifier').some((x) => x?.text === 'Self') ? pathOf(t) : undefined;
    }
  }
  return undefined;
}

/** The type a method of an impl or trait has for `self`/`Self`: the impl's type, the trait itself. */
function selfTypeOf(fn: DefInfo, pathOf: PathOf): NamePath | undefined {
  const item = fn.parentNode?.type === 'declaration_list' ? fn.grandparentNode : null;
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
export function pushSelfBindings(body: Node, scope: number, defs: readonly DefInfo[], sink: Sink, pathOf: PathOf): void {
  // (the scope of a function's body is the function, unless it sits past the nesting bound)
  const fn = scope >= 0 ? defs[scope]! : undefined;
  if (!fn || fn.node.type !== 'function_item' || fn.node.childForFieldName('body')?.id !== body.id) return;
  const t = selfTypeOf(fn, pathOf);
  if (!t || (t.length === 1 && t[0] === 'Self')) return;
  sink.bindings.push({ scope, name: 'Self', type: t });
  if (fn.node.childForFieldName('parameters')?.namedChildren.some((c) => c?.type === 'self_parameter')) sink.bindings.push({ scope, name: 'self', type: t });
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
