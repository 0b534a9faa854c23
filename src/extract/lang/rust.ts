/**
 * Hooks for Rust on the generic spec: paths from a module (`crate::`, `self::`, `super::`), `use`
 * trees (lists, aliases, globs), typed `let`s, statics and consts, `self`/`Self` typed by the impl
 * or trait a method belongs to, generic parameters typed by their trait bound (rust-types.ts),
 * struct literals as constructions, and names bound by `for` patterns and closure parameters
 * (untyped locals, so they shadow outer names). Calls in macro arguments: rust-macro-args.ts.
 */
import type { Node } from 'web-tree-sitter';
import type { NamePath } from '../facts.ts';
import { makeGenericSpec } from './generic.ts';
import { fieldParam, typePathOf } from './others.ts';
import { pushPatternLocals, pushSelfBindings, rustTypePath } from './rust-types.ts';
import { unquote, type LangSpec } from './spec.ts';

/** `crate`, `self`, `super`, `super::super`, ... as written at the root of a Rust path, else undefined. */
function rustModuleRoot(n: Node, depth = 0): string | undefined {
  if (n.type === 'crate' || n.type === 'self' || n.type === 'super') return n.type;
  if (n.type !== 'scoped_identifier' || depth > 8) return undefined;
  const path = n.childForFieldName('path');
  const root = path ? rustModuleRoot(path, depth + 1) : undefined;
  return root && n.childForFieldName('name')?.type === 'super' ? `${root}::super` : undefined;
}

/** Context-free type path (impl owners, type references): also `dyn T` / `impl T` -> T. */
function plainPath(n: Node, depth = 0): NamePath | undefined {
  if (n.type === 'dynamic_type' || n.type === 'abstract_type') { const t = n.childForFieldName('trait'); return t && depth < 8 ? plainPath(t, depth + 1) : undefined; }
  return typePathOf(n, depth);
}

/** A receiver's type as the code around it says: generic parameters by their bound, `Self` by the impl. */
const boundPath = (n: Node): NamePath | undefined => rustTypePath(n, plainPath);

/** Std methods that hand back the value they are called on, or the one it wraps (Option, Result, Box, Rc). */
const PASS_THROUGH = new Set(['unwrap', 'expect', 'unwrap_or_default', 'as_ref', 'as_mut', 'as_deref', 'clone', 'borrow', 'borrow_mut', 'deref', 'to_owned']);

/** The @local captures that declare a name with a type and value; the others are patterns. */
const LET_LIKE = new Set(['let_declaration', 'static_item', 'const_item']);

const BASE = makeGenericSpec({
  tables: {
    ids: new Set(['identifier', 'field_identifier', 'type_identifier']),
    thisTypes: new Set(),
    members: { field_expression: ['value', 'field'], scoped_identifier: ['path', 'name'] },
    calls: { call_expression: 'function' },
    wrappers: new Set(['parenthesized_expression', 'reference_expression', 'try_expression', 'await_expression']),
    custom(n, d, self) {
      if (n.type === 'struct_expression') {
        const t = n.childForFieldName('name');
        const p = t ? boundPath(t) : undefined;
        return p ? { k: 'new', t: p } : { k: 'unk' };
      }
      if (n.type === 'generic_function') { const f = n.childForFieldName('function'); return f ? self(f, d + 1) : { k: 'unk' }; }
      if (n.type === 'scoped_identifier') {
        // `crate::x::f`, `self::f`, `super::f`: a path from a module, not a value's member.
        const path = n.childForFieldName('path');
        const name = n.childForFieldName('name');
        const root = path ? rustModuleRoot(path) : undefined;
        if (root && name) return name.type === 'super' ? { k: 'path', p: `${root}::super` } : { k: 'mem', o: { k: 'path', p: root }, n: name.text };
      }
      if (n.type === 'crate' || n.type === 'super') return { k: 'path', p: n.type };
      // `self` is a binding of the method (typed by its impl: rust-types.ts), as `Self` is.
      if (n.type === 'self') return { k: 'id', n: 'self' };
      // `x.unwrap()`, `x.as_ref()`, `x.clone()` as a receiver: the value itself (its std wrapper read through)
      if (n.type === 'call_expression') {
        const fn = n.childForFieldName('function');
        const field = fn?.type === 'field_expression' ? fn.childForFieldName('field')?.text : undefined;
        const value = field && PASS_THROUGH.has(field) ? fn!.childForFieldName('value') : null;
        if (value) return self(value, d + 1);
      }
      // `*x`, `**self`: the value behind the reference has the same methods
      if (n.type === 'unary_expression' && n.child(0)?.type === '*' && n.firstNamedChild) return self(n.firstNamedChild, d + 1);
      return undefined;
    },
  },
  typePath: plainPath,
  comments: ['line_comment', 'block_comment'],
  returnFields: ['return_type'],
  param(n) {
    if (n.type === 'self_parameter') return [];
    return fieldParam(n);
  },
  ctorNames: ['new'],
  visibility(def) {
    const pub = def.node.namedChildren.some((c) => c?.type === 'visibility_modifier');
    return { visibility: pub ? 'public' : 'private', exported: pub };
  },
  imports(node, scope, sink) {
    const line = node.startPosition.row + 1;
    const arg = node.childForFieldName('argument');
    if (!arg) return;
    const push = (path: string, alias?: string): void => {
      const parts = path.split('::');
      const last = parts.pop()!;
      if (last === '*') sink.imports.push({ module: parts.join('::'), imported: '*', local: '', line, scope, reexport: true });
      // `use a::b::{self}`: the module b itself, named b
      else if (last === 'self' && parts.length) sink.imports.push({ module: parts.join('::'), imported: '', local: alias ?? parts[parts.length - 1]!, line, scope });
      else sink.imports.push({ module: parts.join('::'), imported: last, local: alias ?? last, line, scope });
    };
    const walk = (n: Node, prefix: string): void => {
      if (n.type === 'use_as_clause') {
        const p = n.childForFieldName('path');
        const a = n.childForFieldName('alias');
        if (p) push(prefix + p.text, a?.text);
      } else if (n.type === 'scoped_use_list') {
        const p = n.childForFieldName('path');
        const list = n.childForFieldName('list');
        for (const c of list?.namedChildren ?? []) if (c) walk(c, `${prefix}${p ? p.text + '::' : ''}`);
      } else if (n.type === 'use_list') {
        for (const c of n.namedChildren) if (c) walk(c, prefix);
      } else if (n.type === 'use_wildcard') push(prefix + n.text.replace(/\s+/g, ''));
      else push(prefix + n.text);
    };
    walk(arg, '');
  },
  local(node, scope, sink, defs, expr) {
    if (node.type === 'block') { pushSelfBindings(node, scope, defs, sink, boundPath); return; }
    // a closure's parameters, or a `for` pattern (any other @local is a let, static or const)
    if (!LET_LIKE.has(node.type)) { pushPatternLocals(node, scope, sink); return; }
    // `let x: T = v`, `static X: T = v`, `const X: T = v`
    const pat = node.childForFieldName('pattern') ?? node.childForFieldName('name');
    const t = node.childForFieldName('type');
    const value = node.childForFieldName('value');
    if (!pat || pat.type !== 'identifier') { if (pat && node.type === 'let_declaration') pushPatternLocals(pat, scope, sink); return; }
    const tp = t ? boundPath(t) : undefined;
    const v = value ? expr(value, 0) : undefined;
    sink.bindings.push({ scope, name: pat.text, ...(tp ? { type: tp } : {}), ...(v && v.k !== 'unk' ? { value: v } : {}) });
  },
  stringValue: (n) => (n.type === 'string_literal' ? unquote(n.text) : undefined),
});

export const RUST_SPEC: LangSpec = {
  ...BASE,
  statement(cap, node, scope, sink, defs) {
    if (cap === 'field' && node.type === 'ordered_field_declaration_list') {
      // `struct KeyValues<'a>(&'a dyn Source);`: fields named 0, 1, ... (`self.0.visit(..)`)
      if (scope < 0 || defs[scope]!.kind !== 'struct') return;
      node.childrenForFieldName('type').forEach((t, k) => {
        const tp = t ? boundPath(t) : undefined;
        if (tp) sink.bindings.push({ scope, name: String(k), type: tp, field: true });
      });
      return;
    }
    if (cap !== 'param' || node.type !== 'parameter') return BASE.statement(cap, node, scope, sink, defs);
    // (a parameter typed by a generic parameter is typed by its bound)
    const name = node.childForFieldName('pattern');
    const t = node.childForFieldName('type');
    if (!name || name.type !== 'identifier') return;
    const tp = t ? boundPath(t) : undefined;
    sink.bindings.push(tp ? { scope, name: name.text, type: tp, param: true } : { scope, name: name.text, param: true });
  },
  signature(def, source) {
    const sig = BASE.signature(def, source);
    const rt = def.node.childForFieldName('return_type');
    if (!sig || !rt) return sig;
    // `-> Self`, `-> impl Iterator`, `-> L` (a generic parameter): the type the body's callers get
    const p = boundPath(rt);
    if (p) sig.returnPath = p;
    else delete sig.returnPath;
    return sig;
  },
};
