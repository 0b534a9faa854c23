/**
 * TypeScript, TSX and JavaScript hooks: ES imports/exports, CommonJS `require`, typed bindings
 * (annotations, `new`, casts), constructor parameter properties, `this.x =` fields, hazards
 * (`eval`, `new Function`, dynamic `import()`, computed member calls, `Reflect`).
 */
import type { Node } from 'web-tree-sitter';
import type { Param, Visibility } from '../../graph/model.ts';
import type { NamePath } from '../facts.ts';
import { makeExpr, MAX_TYPE_DEPTH } from './expr.ts';
import { commentText, headerText, plainText, precedingComments, unquote, type DefInfo, type LangSpec, type SignatureInfo, type Sink } from './spec.ts';

const COMMENTS = ['comment'];
const TYPE_LIKE = new Set(['class', 'interface', 'struct', 'trait', 'enum']);
const NULLISH = new Set(['null', 'undefined', 'void', 'never']);
/** Generic wrappers whose value is the first type argument (awaited, read-only views). */
const UNWRAP = new Set(['Promise', 'PromiseLike', 'Readonly', 'Awaited', 'NonNullable', 'Required', 'Partial']);

function typePath(node: Node, depth = 0): NamePath | undefined {
  if (depth > MAX_TYPE_DEPTH) return undefined; // (a type nested 20,000 deep would overflow the stack)
  switch (node.type) {
    case 'type_annotation':
    case 'parenthesized_type':
    case 'readonly_type': {
      const c = node.lastNamedChild;
      return c ? typePath(c, depth + 1) : undefined;
    }
    case 'type_identifier':
    case 'identifier':
      return [node.text];
    case 'this_type': // `min(n: number): this` (fluent builders): the receiver's own type, see Resolver.typeOf
      return ['this'];
    case 'nested_type_identifier':
    case 'member_expression':
    case 'nested_identifier':
      return node.text.replace(/\s+/g, '').split('.');
    case 'generic_type': {
      const name = node.childForFieldName('name');
      const path = name ? typePath(name, depth + 1) : undefined;
      if (path && path.length === 1 && UNWRAP.has(path[0]!)) {
        const args = node.childForFieldName('type_arguments');
        const first = args?.firstNamedChild;
        return first ? typePath(first, depth + 1) : undefined;
      }
      return path;
    }
    case 'union_type': {
      let found: NamePath | undefined;
      for (const c of node.namedChildren) {
        if (!c) continue;
        if (c.type === 'literal_type' || (c.type === 'predefined_type' && NULLISH.has(c.text))) continue;
        if (found) return undefined;
        found = typePath(c, depth + 1);
        if (!found) return undefined;
      }
      return found;
    }
    case 'call_expression': // `extends mixin(Base)`: not a nameable type
    default:
      return undefined;
  }
}

const expr = makeExpr({
  ids: new Set(['identifier', 'property_identifier', 'private_property_identifier', 'shorthand_property_identifier', 'type_identifier']),
  thisTypes: new Set(['this']),
  superTypes: new Set(['super']),
  members: { member_expression: ['object', 'property'] },
  calls: { call_expression: 'function' },
  news: { new_expression: 'constructor' },
  wrappers: new Set(['parenthesized_expression', 'await_expression', 'non_null_expression', 'satisfies_expression']),
  custom(node) {
    if (node.type === 'as_expression' || node.type === 'type_assertion') {
      const t = node.type === 'as_expression' ? node.namedChild(1) : node.namedChild(0);
      const path = t ? typePath(t) : undefined;
      return path ? { k: 'new', t: path } : { k: 'unk' };
    }
    return undefined;
  },
  typePath,
});

function stringValue(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string') return unquote(node.text);
  if (node.type === 'template_string' && node.namedChildCount === 0) return unquote(node.text);
  return undefined;
}

/** The `export` statement of a definition: its parent, or its grandparent for `export const f = ...`. */
function exportStatementOf(def: DefInfo): Node | null {
  const n = def.node.type === 'variable_declarator' ? def.grandparentNode : def.parentNode; // lexical_declaration -> export
  return n && n.type === 'export_statement' ? n : null;
}

function hasChild(node: Node, type: string): boolean {
  for (const c of node.children) if (c && c.type === type) return true;
  return false;
}

function visibility(def: DefInfo): { visibility: Visibility; exported: boolean; isDefault?: boolean; isStatic?: boolean; isGetter?: boolean } {
  if (def.parentKind && TYPE_LIKE.has(def.parentKind)) {
    const node = def.node;
    let vis: Visibility = 'public';
    for (const c of node.children) {
      if (!c) continue;
      if (c.type === 'accessibility_modifier') vis = c.text as Visibility;
    }
    if (def.nameNode.type === 'private_property_identifier') vis = 'private';
    return { visibility: vis, exported: false, isStatic: hasChild(node, 'static') || undefined, isGetter: hasChild(node, 'get') || undefined };
  }
  // `exports.f = ...`, `obj.x = ...`, `X.prototype.y = ...`, `module.exports = { f() {} }`.
  if (def.node.type === 'assignment_expression' || def.grandparentNode?.type === 'assignment_expression') return { visibility: 'public', exported: true };
  const exp = exportStatementOf(def);
  // Inside `declare module` / namespaces without `export`, and ambient declarations: visible.
  const ambient = def.parentNode?.type === 'ambient_declaration';
  if (exp) return { visibility: 'public', exported: true, isDefault: hasChild(exp, 'default') || undefined };
  return { visibility: ambient ? 'public' : 'internal', exported: ambient };
}

function paramsOf(list: Node | null): Param[] {
  const params: Param[] = [];
  if (!list) return params;
  if (list.type === 'identifier') return [{ name: list.text }];
  for (const c of list.namedChildren) {
    if (!c) continue;
    if (c.type === 'required_parameter' || c.type === 'optional_parameter') {
      const pat = c.childForFieldName('pattern');
      const name = pat?.text ?? c.text;
      if (name === 'this') continue;
      const p: Param = { name };
      const t = c.childForFieldName('type');
      if (t) p.type = t.text.replace(/^:\s*/, '');
      if (c.type === 'optional_parameter') p.optional = true;
      const v = c.childForFieldName('value');
      if (v) { p.default = v.text.length > 40 ? v.text.slice(0, 40) + '…' : v.text; p.optional = true; }
      params.push(p);
    } else if (c.type === 'identifier' || c.type === 'rest_pattern' || c.type === 'object_pattern' || c.type === 'array_pattern') {
      params.push({ name: c.text });
    } else if (c.type === 'assignment_pattern') {
      const l = c.childForFieldName('left');
      const r = c.childForFieldName('right');
      params.push({ name: l?.text ?? c.text, optional: true, ...(r ? { default: r.text.slice(0, 40) } : {}) });
    }
  }
  return params;
}

function signature(def: DefInfo, source: string): SignatureInfo | undefined {
  let fn = def.node;
  if (fn.type === 'variable_declarator' || fn.type === 'public_field_definition' || fn.type === 'field_definition' || fn.type === 'assignment_expression' || fn.type === 'pair') {
    const v = fn.childForFieldName('value') ?? fn.childForFieldName('right');
    if (!v) return undefined;
    if (v.type === 'object') return { params: [], raw: headerText(fn, v, source, COMMENTS) };
    const raw = headerText(fn, v.childForFieldName('body'), source, COMMENTS);
    fn = v;
    return finish(fn, raw, source);
  }
  const head = exportStatementOf(def) ?? fn;
  return finish(fn, headerText(head, fn.childForFieldName('body'), source, COMMENTS), source);
}

function finish(fn: Node, raw: string, source: string): SignatureInfo {
  const params = paramsOf(fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter'));
  const sig: SignatureInfo = { params, raw };
  const rt = fn.childForFieldName('return_type');
  if (rt) {
    sig.returns = plainText(rt, source, COMMENTS).replace(/^:\s*/, '');
    const p = typePath(rt);
    if (p) sig.returnPath = p;
  }
  return sig;
}

function doc(def: DefInfo): string | undefined {
  // Before the export statement; else before `const` of a declarator.
  const declarator = def.node.type === 'variable_declarator';
  // `exports.f = function` / `obj.x = ...`: before the expression statement.
  const level = exportStatementOf(def) ? (declarator ? 2 : 1) : (declarator || def.node.type === 'assignment_expression') && def.parentNode ? 1 : 0;
  const run = precedingComments(def, level, COMMENTS);
  return run.length ? commentText(run) : undefined;
}

function enclosingType(defs: DefInfo[], scope: number): number {
  for (let s = scope; s >= 0; s = defs[s]!.parent) if (TYPE_LIKE.has(defs[s]!.kind)) return s;
  return -1;
}

function readImport(node: Node, sink: Sink, scope: number): void {
  const src = stringValue(node.childForFieldName('source'));
  const line = node.startPosition.row + 1;
  const typeOnly = node.children.some((c) => c?.type === 'type') || undefined;
  let clause: Node | null = null;
  for (const c of node.namedChildren) if (c && (c.type === 'import_clause' || c.type === 'import_require_clause')) clause = c;
  if (clause?.type === 'import_require_clause') {
    const id = clause.namedChildren.find((c) => c?.type === 'identifier');
    const s = stringValue(clause.childForFieldName('source') ?? clause.namedChildren.find((c) => c?.type === 'string'));
    if (id && s) sink.imports.push({ module: s, imported: '*', local: id.text, line, scope });
    return;
  }
  if (src === undefined) return;
  if (!clause) {
    sink.imports.push({ module: src, imported: '', local: '', line, scope });
    return;
  }
  for (const c of clause.namedChildren) {
    if (!c) continue;
    if (c.type === 'identifier') sink.imports.push({ module: src, imported: 'default', local: c.text, line, scope, typeOnly });
    else if (c.type === 'namespace_import') {
      const id = c.namedChildren.find((x) => x?.type === 'identifier');
      if (id) sink.imports.push({ module: src, imported: '*', local: id.text, line, scope, typeOnly });
    } else if (c.type === 'named_imports') {
      for (const s of c.namedChildren) {
        if (!s || s.type !== 'import_specifier') continue;
        const name = s.childForFieldName('name');
        const alias = s.childForFieldName('alias');
        if (!name) continue;
        const imported = name.type === 'string' ? unquote(name.text) : name.text;
        sink.imports.push({ module: src, imported, local: alias?.text ?? imported, line, scope, typeOnly: typeOnly || s.children.some((x) => x?.type === 'type') || undefined });
      }
    }
  }
}

/** `module.exports = X` (default) or `module.exports = { a, b: c }` (named). */
function readModuleExports(node: Node, sink: Sink): void {
  const right = node.childForFieldName('right');
  const line = node.startPosition.row + 1;
  if (!right) return;
  if (right.type === 'identifier') sink.exports.push({ local: right.text, exported: 'default', line });
  else if (right.type === 'object') {
    for (const p of right.namedChildren) {
      if (!p) continue;
      if (p.type === 'shorthand_property_identifier') sink.exports.push({ local: p.text, exported: p.text, line });
      else if (p.type === 'pair') {
        const k = p.childForFieldName('key');
        const v = p.childForFieldName('value');
        if (k && v && v.type === 'identifier') sink.exports.push({ local: v.text, exported: unquote(k.text), line });
      }
    }
  }
}

function readExport(node: Node, sink: Sink, scope: number): void {
  if (node.type === 'assignment_expression') {
    readModuleExports(node, sink);
    return;
  }
  // `export const a = ...`: readDeclarator marks the binding exported.
  const decl = node.childForFieldName('declaration');
  if (decl && (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration')) {
    for (const d of decl.namedChildren) if (d?.type === 'variable_declarator') sink.marks.add(d.id);
  }
  const line = node.startPosition.row + 1;
  const src = stringValue(node.childForFieldName('source'));
  let clause: Node | null = null;
  let nsExport: Node | null = null;
  for (const c of node.namedChildren) {
    if (!c) continue;
    if (c.type === 'export_clause') clause = c;
    else if (c.type === 'namespace_export') nsExport = c;
  }
  if (src !== undefined) {
    if (clause) {
      for (const s of clause.namedChildren) {
        if (!s || s.type !== 'export_specifier') continue;
        const name = s.childForFieldName('name');
        const alias = s.childForFieldName('alias');
        if (name) sink.imports.push({ module: src, imported: unquote(name.text), local: unquote(alias?.text ?? name.text), line, scope, reexport: true });
      }
    } else if (nsExport) {
      const id = nsExport.namedChildren.find((x) => x && (x.type === 'identifier' || x.type === 'string'));
      sink.imports.push({ module: src, imported: '*', local: id ? unquote(id.text) : '', line, scope, reexport: true });
    } else {
      sink.imports.push({ module: src, imported: '*', local: '', line, scope, reexport: true });
    }
    return;
  }
  if (clause) {
    for (const s of clause.namedChildren) {
      if (!s || s.type !== 'export_specifier') continue;
      const name = s.childForFieldName('name');
      const alias = s.childForFieldName('alias');
      if (name) sink.exports.push({ local: name.text, exported: unquote(alias?.text ?? name.text), line });
    }
    return;
  }
  const isDefault = node.children.some((c) => c?.type === 'default');
  const value = node.childForFieldName('value');
  if (isDefault && value && value.type === 'identifier') sink.exports.push({ local: value.text, exported: 'default', line });
  // `export = X` (TypeScript CommonJS export)
  if (!isDefault && node.children.some((c) => c?.type === '=')) {
    const v = node.namedChildren.find((c) => c?.type === 'identifier');
    if (v) sink.exports.push({ local: v.text, exported: 'default', line });
  }
}

/**
 * Bindings of an object destructuring pattern: each name gets the member of the source value
 * (`const { a, b: c } = v` -> a = v.a, c = v.b); with an object-type annotation, the member's
 * declared type (`({ app }: { app: App }) => ...`). Nested and rest patterns just shadow.
 */
function destructure(pat: Node, source: import('../facts.ts').Expr | undefined, typeNode: Node | null, scope: number, sink: Sink, param: boolean): void {
  const literalTypes = new Map<string, NamePath>();
  const objType = typeNode?.lastNamedChild;
  if (objType && objType.type === 'object_type') {
    for (const m of objType.namedChildren) {
      if (m?.type !== 'property_signature') continue;
      const n = m.childForFieldName('name');
      const t = m.childForFieldName('type');
      const tp = t ? typePath(t) : undefined;
      if (n && tp) literalTypes.set(n.text, tp);
    }
  }
  const bind = (local: string, key: string | null): void => {
    const b: import('../facts.ts').BindingFact = { scope, name: local };
    if (param) b.param = true;
    const lt = key !== null ? literalTypes.get(key) : undefined;
    if (lt) b.type = lt;
    else if (key !== null && source) b.value = { k: 'mem', o: source, n: key };
    sink.bindings.push(b);
  };
  if (pat.type !== 'object_pattern') {
    for (const id of pat.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern'])) if (id) bind(id.text, null);
    return;
  }
  for (const p of pat.namedChildren) {
    if (!p) continue;
    if (p.type === 'shorthand_property_identifier_pattern') bind(p.text, p.text);
    else if (p.type === 'pair_pattern') {
      const k = p.childForFieldName('key');
      const v = p.childForFieldName('value');
      if (k && v && v.type === 'identifier') bind(v.text, unquote(k.text));
      else if (v) for (const id of v.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern'])) if (id) bind(id.text, null);
    } else if (p.type === 'object_assignment_pattern') {
      const l = p.childForFieldName('left');
      if (l) bind(l.text, l.type === 'shorthand_property_identifier_pattern' ? l.text : null);
    } else for (const id of p.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern'])) if (id) bind(id.text, null);
  }
}

/** The module of `require('m')`, else undefined. */
function requiredModule(call: Node): string | undefined {
  const f = call.childForFieldName('function');
  if (f?.type !== 'identifier' || f.text !== 'require') return undefined;
  return stringValue(call.childForFieldName('arguments')?.firstNamedChild);
}

function readDeclarator(node: Node, scope: number, sink: Sink): void {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  const type = node.childForFieldName('type');
  if (!name) return;
  // CommonJS: const f = require('m').f
  if (value && value.type === 'member_expression' && name.type === 'identifier') {
    const o = value.childForFieldName('object');
    const prop = value.childForFieldName('property');
    const mod = o?.type === 'call_expression' ? requiredModule(o) : undefined;
    if (mod !== undefined && prop) {
      sink.marks.add(o!.id);
      sink.imports.push({ module: mod, imported: prop.text, local: name.text, line: node.startPosition.row + 1, scope });
      return;
    }
  }
  // CommonJS: const x = require('m'); const { a, b: c } = require('m')
  if (value && value.type === 'call_expression') {
    const f = value.childForFieldName('function');
    if (f && f.type === 'identifier' && f.text === 'require') {
      const args = value.childForFieldName('arguments');
      const mod = stringValue(args?.firstNamedChild);
      if (mod !== undefined) {
        sink.marks.add(value.id); // (no side-effect import of its own: see specialCall)
        const line = node.startPosition.row + 1;
        if (name.type === 'identifier') sink.imports.push({ module: mod, imported: '*', local: name.text, line, scope });
        else if (name.type === 'object_pattern') {
          for (const p of name.namedChildren) {
            if (!p) continue;
            if (p.type === 'shorthand_property_identifier_pattern') sink.imports.push({ module: mod, imported: p.text, local: p.text, line, scope });
            else if (p.type === 'pair_pattern') {
              const k = p.childForFieldName('key');
              const v = p.childForFieldName('value');
              if (k && v && v.type === 'identifier') sink.imports.push({ module: mod, imported: k.text, local: v.text, line, scope });
            }
          }
        }
        return;
      }
    }
  }
  if (name.type !== 'identifier') {
    const src = value ? expr(value, 0) : undefined;
    destructure(name, src && src.k !== 'unk' ? src : undefined, type, scope, sink, false);
    return;
  }
  const b: { scope: number; name: string; type?: NamePath; value?: ReturnType<typeof expr>; exported?: boolean } = { scope, name: name.text };
  if (scope < 0 && sink.marks.has(node.id)) b.exported = true; // marked by readExport
  const tp = type ? typePath(type) : undefined;
  if (tp) b.type = tp;
  if (value) {
    const e = expr(value, 0);
    if (e.k !== 'unk') b.value = e;
  }
  sink.bindings.push(b);
}

function readParam(node: Node, scope: number, sink: Sink, defs: DefInfo[]): void {
  let pat: Node | null;
  let type: Node | null = null;
  if (node.type === 'required_parameter' || node.type === 'optional_parameter') {
    pat = node.childForFieldName('pattern');
    type = node.childForFieldName('type');
  } else if (node.type === 'assignment_pattern') {
    pat = node.childForFieldName('left');
  } else pat = node;
  if (!pat) return;
  if (pat.type !== 'identifier') {
    // `({ a }: Props)` -> a = Props#a; `({ a }: { a: A })` -> a: A
    const tp = type ? typePath(type) : undefined;
    destructure(pat, tp ? { k: 'new', t: tp } : undefined, type, scope, sink, true);
    return;
  }
  const tp = type ? typePath(type) : undefined;
  if (!tp) {
    sink.bindings.push({ scope, name: pat.text, param: true });
    return;
  }
  sink.bindings.push({ scope, name: pat.text, type: tp, param: true });
  // Constructor parameter properties: `constructor(private db: Db)` declares field `db`.
  if (scope >= 0 && defs[scope]!.kind === 'constructor' && node.children.some((c) => c && (c.type === 'accessibility_modifier' || c.type === 'readonly' || c.type === 'override_modifier'))) {
    const cls = enclosingType(defs, scope);
    if (cls >= 0) sink.bindings.push({ scope: cls, name: pat.text, type: tp, field: true, at: scope });
  }
}

function readField(node: Node, scope: number, sink: Sink, defs: DefInfo[]): void {
  if (node.type === 'assignment_expression') {
    const left = node.childForFieldName('left');
    const prop = left?.childForFieldName('property');
    const right = node.childForFieldName('right');
    const cls = enclosingType(defs, scope);
    if (!prop || !right || cls < 0) return;
    const e = expr(right, 0);
    if (e.k !== 'unk') sink.bindings.push({ scope: cls, name: prop.text, value: e, field: true, at: scope });
    return;
  }
  const name = node.childForFieldName('name') ?? node.childForFieldName('property');
  if (!name || scope < 0) return;
  const type = node.childForFieldName('type');
  const value = node.childForFieldName('value');
  const b: { scope: number; name: string; field: true; type?: NamePath; value?: ReturnType<typeof expr> } = { scope, name: name.text, field: true };
  const tp = type ? typePath(type) : undefined;
  if (tp) b.type = tp;
  if (value) {
    const e = expr(value, 0);
    if (e.k !== 'unk') b.value = e;
  }
  if (b.type || b.value) sink.bindings.push(b);
}

/** `module.exports = ...` (the assignment). */
function isModuleExports(assign: Node): boolean {
  const left = assign.childForFieldName('left');
  if (left?.type !== 'member_expression') return false;
  const o = left.childForFieldName('object');
  return o?.type === 'identifier' && o.text === 'module' && left.childForFieldName('property')?.text === 'exports';
}

function holdsFunctions(object: Node | null): boolean {
  if (object?.type !== 'object') return false;
  for (const m of object.namedChildren) {
    if (m?.type === 'method_definition') return true;
    const v = m?.type === 'pair' ? m.childForFieldName('value')?.type : undefined;
    if (v === 'arrow_function' || v === 'function_expression') return true;
  }
  return false;
}

const REFLECT = new Set(['apply', 'construct', 'get', 'set', 'has', 'ownKeys', 'defineProperty', 'getOwnPropertyDescriptor']);

export const ECMASCRIPT_SPEC: LangSpec = {
  expr,
  typePath,
  refineDef(def) {
    if (def.kind === 'method' && def.nameNode.text === 'constructor' && def.node.type === 'method_definition') return { kind: 'constructor' };
    // `const api = { get() {}, post: () => {} }`: an object bound to a name is a definition when it holds functions.
    if (def.kind === 'variable' && def.node.type === 'variable_declarator' && !holdsFunctions(def.node.childForFieldName('value'))) return null;
    // `module.exports = { get() {} }`: only that assignment's object members are module members.
    if (def.grandparentNode?.type === 'assignment_expression' && (def.node.type === 'pair' || def.node.type === 'method_definition') && !isModuleExports(def.grandparentNode)) return null;
    return { kind: def.kind };
  },
  visibility: (def) => visibility(def),
  signature,
  doc,
  statement(cap, node, scope, sink, defs) {
    switch (cap) {
      case 'import': readImport(node, sink, scope); break;
      case 'export': readExport(node, sink, scope); break;
      case 'local': readDeclarator(node, scope, sink); break;
      case 'param': readParam(node, scope, sink, defs); break;
      case 'field': readField(node, scope, sink, defs); break;
      default: break;
    }
  },
  specialCall(call, callee, sink) {
    const t = callee.type;
    if (t === 'import') {
      const args = call.childForFieldName('arguments');
      const mod = stringValue(args?.firstNamedChild);
      sink.hazard('dynamic_import', call, mod);
      if (mod !== undefined) sink.imports.push({ module: mod, imported: '', local: '', line: call.startPosition.row + 1, scope: -1 });
      return true;
    }
    if (t === 'identifier') {
      const n = callee.text;
      if (n === 'eval' || (n === 'Function' && call.type === 'new_expression')) { sink.hazard('eval', call); return true; }
      if (n === 'require') {
        const args = call.childForFieldName('arguments');
        const mod = stringValue(args?.firstNamedChild);
        if (mod === undefined) sink.hazard('dynamic_import', call);
        else if (!sink.marks.has(call.id)) sink.imports.push({ module: mod, imported: '', local: '', line: call.startPosition.row + 1, scope: -1 }); // a declarator's value: read by readDeclarator
        return true;
      }
      return false;
    }
    if (t === 'subscript_expression') {
      const idx = callee.childForFieldName('index');
      sink.hazard('computed_member', call, stringValue(idx));
      return true;
    }
    if (t === 'member_expression') {
      const o = callee.childForFieldName('object');
      const p = callee.childForFieldName('property');
      if (o?.type === 'identifier' && o.text === 'Reflect' && p && REFLECT.has(p.text)) { sink.hazard('reflection', call); return true; }
    }
    return false;
  },
};
