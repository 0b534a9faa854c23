/**
 * Hooks for Java, C#, C/C++, Ruby and PHP (Rust: rust.ts), on the generic spec: member-access shapes,
 * constructors, imports (`import`, `using`, `#include`, `use`, `require`), typed locals and
 * parameters. Name resolution beyond that is the resolver's (packages, namespaces, global names).
 */
import type { Node } from 'web-tree-sitter';
import { MAX_TYPE_DEPTH } from './expr.ts';
import type { Param, Visibility } from '../../graph/model.ts';
import type { BindingFact, Expr, NamePath } from '../facts.ts';
import { makeGenericSpec } from './generic.ts';
import { unquote, type DefInfo, type LangSpec, type Sink } from './spec.ts';

const NAMEISH = /^(identifier|type_identifier|field_identifier|scoped_identifier|scoped_type_identifier|qualified_identifier|qualified_name|namespace_identifier|name|constant|scope_resolution|generic_name|predefined_type|primitive_type|member_access_expression|nested_identifier)$/;

/** Generic type-path reader: strips generics, pointers, references, nullability, arrays' element. */
export function typePathOf(n: Node, depth = 0): NamePath | undefined {
  if (depth > MAX_TYPE_DEPTH) return undefined; // (a type nested 20,000 deep would overflow the stack)
  switch (n.type) {
    case 'generic_type': case 'generic_name': case 'template_type': {
      const base = n.childForFieldName('name') ?? n.childForFieldName('type') ?? n.firstNamedChild;
      if (n.type === 'generic_name') { const id = n.firstNamedChild; return id ? [id.text] : undefined; }
      return base ? typePathOf(base, depth + 1) : undefined;
    }
    case 'pointer_type': case 'reference_type': case 'nullable_type': case 'type_descriptor': case 'optional_type': case 'named_type': case 'type_annotation': {
      const c = n.childForFieldName('type') ?? n.firstNamedChild;
      return c ? typePathOf(c, depth + 1) : undefined;
    }
    case 'primitive_type': case 'predefined_type': case 'integral_type': case 'floating_point_type': case 'boolean_type': case 'void_type':
      return undefined;
    default:
      if (!NAMEISH.test(n.type)) return undefined;
      return n.text.replace(/<[^>]*>/g, '').replace(/^\\/, '').split(/::|\.|\\/).filter(Boolean);
  }
}

function javaLikeVisibility(def: DefInfo, lang: 'java' | 'csharp' | 'php'): { visibility: Visibility; exported: boolean; isStatic?: boolean } {
  const mods = def.node.namedChildren.filter((c) => c && /modifier/.test(c.type)).map((c) => c!.text).join(' ');
  let vis: Visibility = lang === 'java' ? 'package' : lang === 'php' ? 'public' : 'private';
  if (/\bpublic\b/.test(mods)) vis = 'public';
  else if (/\bprotected\b/.test(mods)) vis = 'protected';
  else if (/\bprivate\b/.test(mods)) vis = 'private';
  else if (/\binternal\b/.test(mods)) vis = 'internal';
  if (lang === 'csharp' && def.parentKind === 'interface') vis = 'public';
  if (lang === 'java' && def.parentKind === 'interface') vis = 'public';
  return { visibility: vis, exported: vis === 'public', ...(/\bstatic\b/.test(mods) ? { isStatic: true } : {}) };
}

/** A parameter or field node -> its name and type text. */
export function fieldParam(n: Node): Param[] {
  const name = n.childForFieldName('name') ?? n.childForFieldName('pattern') ?? n.childForFieldName('declarator');
  const t = n.childForFieldName('type');
  if (!name) return [];
  return [{ name: name.text.replace(/^[&*]+/, ''), ...(t ? { type: t.text } : {}) }];
}

/**
 * Java type path: as typePathOf, and a primitive or an array type by its text (`int`, `String[]`):
 * no repository type, but a declared one (an `int x` parameter is not typed by a guess from other
 * parameters named x; overloads are told apart by it).
 */
function javaTypePath(n: Node): NamePath | undefined {
  if (n.type === 'integral_type' || n.type === 'floating_point_type' || n.type === 'boolean_type') return [n.text];
  if (n.type === 'array_type') {
    const el = n.childForFieldName('element');
    const p = el ? javaTypePath(el) : undefined;
    return p ? [...p.slice(0, -1), `${p[p.length - 1]}${n.childForFieldName('dimensions')?.text.replace(/\s+/g, '') ?? '[]'}`] : undefined;
  }
  return typePathOf(n);
}

/** Java: a parameter; a varargs one (`String... args`) is named by its declarator, typed `T...`. */
function javaParam(n: Node): Param[] {
  if (n.type !== 'spread_parameter') return fieldParam(n);
  const d = n.namedChildren.find((c) => c?.type === 'variable_declarator');
  const t = n.namedChildren.find((c) => c && c.type !== 'modifiers' && c.type !== 'variable_declarator');
  const name = d?.childForFieldName('name');
  return name ? [{ name: name.text, ...(t ? { type: `${t.text}...` } : {}) }] : [];
}

function declaratorBindings(node: Node, tp: NamePath | undefined, scope: number, sink: Sink, expr: (n: Node, d: number) => Expr, field = false): void {
  for (const d of node.namedChildren) {
    if (!d || !/declarator/.test(d.type)) continue;
    const nameNode = d.childForFieldName('name') ?? d.childForFieldName('declarator') ?? d.firstNamedChild;
    // C#: the initializer is the declarator's last unnamed-field child.
    const value = d.childForFieldName('value') ?? (d.namedChildCount > 1 && d.lastNamedChild?.id !== nameNode?.id ? d.lastNamedChild : null);
    if (!nameNode || !/identifier/.test(nameNode.type)) continue;
    const v = value ? expr(value, 0) : undefined;
    const b: BindingFact = { scope, name: nameNode.text };
    if (tp) b.type = tp;
    if (v && v.k !== 'unk') b.value = v;
    if (field) b.field = true;
    sink.bindings.push(b);
  }
}

/** Java: the enclosing class's simple name (`this(...)` constructs it), or undefined. */
function enclosingClassName(n: Node): string | undefined {
  for (let p = n.parent; p; p = p.parent) {
    if (/^(class|enum|record)_declaration$/.test(p.type)) return p.childForFieldName('name')?.text;
  }
  return undefined;
}

const JAVA_LITERALS: Readonly<Record<string, string>> = {
  null_literal: 'null', true: 'boolean', false: 'boolean', string_literal: 'String', text_block: 'String', character_literal: 'char',
  decimal_integer_literal: 'int', hex_integer_literal: 'int', octal_integer_literal: 'int', binary_integer_literal: 'int',
  decimal_floating_point_literal: 'double', hex_floating_point_literal: 'double', class_literal: 'Class',
};

/**
 * Java: an argument as far as overload selection needs it (link/overloads.ts): a literal or a cast as
 * an instance of its type (`new` of the type name; `null` for null, `->` for a lambda or method
 * reference), a call as its result, else the expression.
 */
function javaArg(n: Node, expr: (n: Node, d: number) => Expr): Expr {
  const lit = JAVA_LITERALS[n.type];
  if (lit) return { k: 'new', t: [n.type === 'decimal_integer_literal' && /[lL]$/.test(n.text) ? 'long' : n.type === 'decimal_floating_point_literal' && /[fF]$/.test(n.text) ? 'float' : lit] };
  if (n.type === 'cast_expression') {
    const t = n.childForFieldName('type');
    const p = t ? javaTypePath(t) : undefined;
    return p ? { k: 'new', t: p } : { k: 'unk' };
  }
  if (n.type === 'method_invocation') return { k: 'call', f: expr(n, 1) };
  if (n.type === 'lambda_expression' || n.type === 'method_reference') return { k: 'new', t: ['->'] }; // (a functional interface's instance)
  return expr(n, 1);
}

const JAVA_BASE = makeGenericSpec({
  tables: {
    ids: new Set(['identifier', 'type_identifier']),
    thisTypes: new Set(['this']),
    superTypes: new Set(['super']),
    members: { field_access: ['object', 'field'] },
    calls: {},
    wrappers: new Set(['parenthesized_expression']),
    custom(n, d, self) {
      if (n.type === 'method_invocation') {
        const o = n.childForFieldName('object');
        const name = n.childForFieldName('name');
        if (!name) return { k: 'unk' };
        if (!o) return { k: 'id', n: name.text };
        // (`a.b().c()`: the receiver of c is what b returns, not b)
        return { k: 'mem', o: o.type === 'method_invocation' ? { k: 'call', f: self(o, d + 1) } : self(o, d + 1), n: name.text };
      }
      if (n.type === 'explicit_constructor_invocation') {
        // `super(...)` calls the base's constructor, `this(...)` another constructor of the class
        const c = n.childForFieldName('constructor');
        if (c?.type === 'super') return { k: 'super' };
        const cls = enclosingClassName(n);
        return c?.type === 'this' && cls ? { k: 'new', t: [cls] } : { k: 'unk' };
      }
      if (n.type === 'object_creation_expression') {
        const t = n.childForFieldName('type');
        const p = t ? typePathOf(t) : undefined;
        return p ? { k: 'new', t: p } : { k: 'unk' };
      }
      if (n.type === 'cast_expression') {
        const t = n.childForFieldName('type');
        const p = t ? typePathOf(t) : undefined;
        return p ? { k: 'new', t: p } : { k: 'unk' };
      }
      return undefined;
    },
  },
  typePath: javaTypePath,
  comments: ['block_comment', 'line_comment'],
  returnFields: ['type'],
  param: javaParam,
  visibility: (def) => javaLikeVisibility(def, 'java'),
  imports(node, scope, sink) {
    const text = node.text.replace(/^import\s+(static\s+)?/, '').replace(/;\s*$/, '').trim();
    const line = node.startPosition.row + 1;
    if (text.endsWith('.*')) sink.imports.push({ module: text.slice(0, -2), imported: '*', local: '', line, scope, reexport: true });
    else {
      const dot = text.lastIndexOf('.');
      sink.imports.push({ module: text.slice(0, dot), imported: text.slice(dot + 1), local: text.slice(dot + 1), line, scope });
    }
  },
  local(node, scope, sink, defs, expr) {
    const t = node.childForFieldName('type');
    const tp = t ? javaTypePath(t) : undefined;
    if (node.type === 'enhanced_for_statement') {
      const n = node.childForFieldName('name');
      if (n && tp) sink.bindings.push({ scope, name: n.text, type: tp });
      return;
    }
    const isField = node.type === 'field_declaration' || node.type === 'constant_declaration'; // (an interface's constants)
    let cls = scope;
    if (isField) while (cls >= 0 && !['class', 'interface', 'enum', 'struct'].includes(defs[cls]!.kind)) cls = defs[cls]!.parent;
    // (`var x = f()`: x holds what f returns)
    const value = (n: Node, d: number): Expr => (n.type === 'method_invocation' ? { k: 'call', f: expr(n, d) } : expr(n, d));
    declaratorBindings(node, tp, isField ? cls : scope, sink, value, isField);
  },
  hazards: { 'Class.forName': 'reflection', '.getMethod': 'reflection', '.getDeclaredMethod': 'reflection', '.invoke': 'reflection', '.newInstance': 'reflection' },
  stringValue: (n) => (n.type === 'string_literal' ? unquote(n.text) : undefined),
  packageName(root) {
    for (const c of root.namedChildren) if (c?.type === 'package_declaration') return c.namedChildren.find((x) => x && /identifier/.test(x.type))?.text;
    return undefined;
  },
});

export const JAVA_SPEC: LangSpec = {
  ...JAVA_BASE,
  callArgs(call) {
    const args = call.childForFieldName('arguments');
    if (!args) return undefined;
    const out: Expr[] = [];
    for (const a of args.namedChildren) if (a && !/comment/.test(a.type)) out.push(javaArg(a, JAVA_BASE.expr));
    return out;
  },
};

export const CSHARP_SPEC: LangSpec = makeGenericSpec({
  tables: {
    ids: new Set(['identifier']),
    thisTypes: new Set(['this_expression', 'this']),
    superTypes: new Set(['base_expression', 'base']),
    members: { member_access_expression: ['expression', 'name'], conditional_access_expression: ['condition', 'name'] },
    calls: { invocation_expression: 'function' },
    news: { object_creation_expression: 'type' },
    wrappers: new Set(['parenthesized_expression', 'await_expression']),
    custom(n) {
      if (n.type === 'generic_name') { const id = n.firstNamedChild; return id ? { k: 'id', n: id.text } : { k: 'unk' }; }
      return undefined;
    },
  },
  typePath: typePathOf,
  comments: ['comment'],
  returnFields: ['returns', 'type'],
  param: fieldParam,
  ctorIsTypeName: true,
  visibility: (def) => javaLikeVisibility(def, 'csharp'),
  imports(node, scope, sink) {
    const name = node.namedChildren.find((c) => c && /name|identifier/.test(c.type) && c !== node.childForFieldName('alias'));
    if (name) sink.imports.push({ module: name.text, imported: '*', local: '', line: node.startPosition.row + 1, scope, reexport: true });
  },
  local(node, scope, sink, defs, expr) {
    const t = node.childForFieldName('type');
    const tp = t && t.type !== 'implicit_type' && t.text !== 'var' ? typePathOf(t) : undefined;
    const isField = scope >= 0 && ['class', 'struct', 'interface'].includes(defs[scope]!.kind);
    declaratorBindings(node, tp, scope, sink, expr, isField);
  },
  hazards: { 'Activator.CreateInstance': 'reflection', '.GetMethod': 'reflection', '.Invoke': 'reflection', 'Type.GetType': 'reflection' },
  stringValue: (n) => (n.type === 'string_literal' ? unquote(n.text) : undefined),
  packageName(root) {
    for (const c of root.descendantsOfType(['namespace_declaration', 'file_scoped_namespace_declaration'])) if (c) return c.childForFieldName('name')?.text;
    return undefined;
  },
});

export const CPP_SPEC: LangSpec = makeGenericSpec({
  tables: {
    ids: new Set(['identifier', 'field_identifier', 'type_identifier', 'namespace_identifier']),
    thisTypes: new Set(['this']),
    members: { field_expression: ['argument', 'field'], qualified_identifier: ['scope', 'name'] },
    calls: { call_expression: 'function' },
    news: { new_expression: 'type' },
    wrappers: new Set(['parenthesized_expression', 'pointer_expression']),
    custom(n) {
      if (n.type === 'template_function') { const id = n.childForFieldName('name'); return id ? { k: 'id', n: id.text } : { k: 'unk' }; }
      return undefined;
    },
  },
  typePath: typePathOf,
  comments: ['comment'],
  paramsField: 'parameters',
  returnFields: ['type'],
  param: fieldParam,
  ctorIsTypeName: true,
  visibility(def) {
    const isStatic = def.node.namedChildren.some((c) => c?.type === 'storage_class_specifier' && c.text === 'static');
    return { visibility: def.parentKind === 'class' ? 'private' : 'public', exported: !isStatic, ...(isStatic ? { isStatic } : {}) };
  },
  imports(node, scope, sink) {
    const p = node.childForFieldName('path');
    if (p && p.type === 'string_literal') sink.imports.push({ module: unquote(p.text), imported: '', local: '', line: node.startPosition.row + 1, scope });
  },
  local(node, scope, sink, _defs, expr) {
    const t = node.childForFieldName('type');
    const tp = t && t.text !== 'auto' ? typePathOf(t) : undefined;
    for (const d of node.namedChildren) {
      if (!d) continue;
      let id: Node | null = d;
      let value: Node | null = null;
      if (d.type === 'init_declarator') { id = d.childForFieldName('declarator'); value = d.childForFieldName('value'); }
      while (id && (id.type === 'pointer_declarator' || id.type === 'reference_declarator')) id = id.childForFieldName('declarator') ?? id.lastNamedChild;
      if (!id || id.type !== 'identifier' || d === t) continue;
      const v = value ? expr(value, 0) : undefined;
      sink.bindings.push({ scope, name: id.text, ...(tp ? { type: tp } : {}), ...(v && v.k !== 'unk' ? { value: v } : {}) });
    }
  },
  hazards: { dlsym: 'reflection' },
  stringValue: (n) => (n.type === 'string_literal' ? unquote(n.text) : undefined),
});


const RUBY_REQUIRE = new Set(['require', 'require_relative', 'load']);
const RUBY_MIXIN = new Set(['include', 'extend', 'prepend']);

export const RUBY_SPEC: LangSpec = makeGenericSpec({
  tables: {
    ids: new Set(['identifier', 'constant']),
    thisTypes: new Set(['self']),
    superTypes: new Set(['super']),
    members: { scope_resolution: ['scope', 'name'] },
    calls: {},
    custom(n, d, self): Expr | undefined {
      if (n.type !== 'call') return undefined;
      const recv = n.childForFieldName('receiver');
      const m = n.childForFieldName('method');
      if (!m) return { k: 'unk' };
      if (!recv) return { k: 'id', n: m.text };
      if (m.text === 'new') {
        const p = typePathOf(recv);
        return p ? { k: 'new', t: p } : { k: 'unk' };
      }
      return { k: 'mem', o: self(recv, d + 1), n: m.text };
    },
  },
  typePath: typePathOf,
  comments: ['comment'],
  param: (n) => (n.type === 'identifier' ? [{ name: n.text }] : /parameter/.test(n.type) && n.childForFieldName('name') ? [{ name: n.childForFieldName('name')!.text }] : []),
  ctorNames: ['initialize'],
  visibility: () => ({ visibility: 'public', exported: true }),
  callStatements(call, sink) {
    if (call.type !== 'call') return false; // a bare identifier statement
    const method = call.childForFieldName('method');
    if (!method) return true; // `a.()`: no method to call
    if (method.type !== 'identifier') return false;
    const name = method.text;
    const args = call.childForFieldName('arguments');
    if (RUBY_REQUIRE.has(name)) {
      const s = args?.firstNamedChild;
      if (s && s.type === 'string') sink.imports.push({ module: (name === 'require_relative' ? './' : '') + unquote(s.text), imported: '', local: '', line: call.startPosition.row + 1, scope: sink.scope });
    } else if (RUBY_MIXIN.has(name) && args?.type === 'argument_list') {
      for (const a of args.namedChildren) if (a && (a.type === 'constant' || a.type === 'scope_resolution')) sink.base('mixes_in', a);
    }
    return false;
  },
  local(node, scope, sink, _defs, expr) {
    const l = node.childForFieldName('left');
    const r = node.childForFieldName('right');
    if (!l || l.type !== 'identifier') return;
    const v = r ? expr(r, 0) : undefined;
    sink.bindings.push({ scope, name: l.text, ...(v && v.k !== 'unk' ? { value: v } : {}) });
  },
  hazards: { eval: 'eval', instance_eval: 'eval', class_eval: 'eval', send: 'reflection', public_send: 'reflection', '.send': 'reflection', '.public_send': 'reflection', '.const_get': 'reflection', '.method': 'reflection' },
  ignoreCalls: new Set(['require', 'require_relative', 'load', 'attr_accessor', 'attr_reader', 'attr_writer', 'include', 'extend', 'prepend', 'private', 'public', 'protected', 'module_function', 'raise', 'puts', 'p', 'lambda', 'proc']),
  argsField: 'arguments',
  stringValue: (n) => (n.type === 'string' || n.type === 'simple_symbol' ? unquote(n.text.replace(/^:/, '')) : undefined),
});

export const PHP_SPEC: LangSpec = makeGenericSpec({
  tables: {
    ids: new Set(['name', 'qualified_name']),
    thisTypes: new Set(),
    members: { member_call_expression: ['object', 'name'], nullsafe_member_call_expression: ['object', 'name'], scoped_call_expression: ['scope', 'name'], member_access_expression: ['object', 'name'] },
    calls: { function_call_expression: 'function' },
    wrappers: new Set(['parenthesized_expression']),
    custom(n) {
      if (n.type === 'variable_name') return n.text === '$this' ? { k: 'this' } : { k: 'id', n: n.text };
      if (n.type === 'relative_scope') return n.text === 'parent' ? { k: 'super' } : { k: 'this' };
      if (n.type === 'object_creation_expression') {
        const t = n.namedChildren.find((c) => c && (c.type === 'name' || c.type === 'qualified_name'));
        const p = t ? typePathOf(t) : undefined;
        return p ? { k: 'new', t: [p[p.length - 1]!] } : { k: 'unk' };
      }
      if (n.type === 'qualified_name') { const p = n.text.split('\\'); return { k: 'id', n: p[p.length - 1]! }; }
      return undefined;
    },
  },
  typePath: (n) => { const p = typePathOf(n); return p ? [p[p.length - 1]!] : undefined; },
  comments: ['comment'],
  param: (n) => { const v = n.childForFieldName('name'); const t = n.childForFieldName('type'); return v ? [{ name: v.text, ...(t ? { type: t.text } : {}) }] : []; },
  ctorNames: ['__construct'],
  visibility: (def) => javaLikeVisibility(def, 'php'),
  imports(node, scope, sink) {
    for (const c of node.descendantsOfType('namespace_use_clause')) {
      if (!c) continue;
      const q = c.namedChildren.find((x) => x && (x.type === 'qualified_name' || x.type === 'name'));
      const alias = c.childForFieldName('alias');
      if (!q) continue;
      const parts = q.text.replace(/^\\/, '').split('\\');
      const last = parts.pop()!;
      sink.imports.push({ module: parts.join('\\'), imported: last, local: alias?.text ?? last, line: node.startPosition.row + 1, scope });
    }
  },
  local(node, scope, sink, _defs, expr) {
    const l = node.childForFieldName('left');
    const r = node.childForFieldName('right');
    if (!l || l.type !== 'variable_name') return;
    const v = r ? expr(r, 0) : undefined;
    sink.bindings.push({ scope, name: l.text, ...(v && v.k !== 'unk' ? { value: v } : {}) });
  },
  hazards: { eval: 'eval', call_user_func: 'reflection', call_user_func_array: 'reflection' },
  stringValue: (n) => (n.type === 'string' || n.type === 'encapsed_string' ? unquote(n.text) : undefined),
  packageName(root) {
    for (const c of root.namedChildren) if (c?.type === 'namespace_definition') return c.childForFieldName('name')?.text;
    return undefined;
  },
});
