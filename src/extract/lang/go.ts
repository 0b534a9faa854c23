/** Go hooks: import specs (aliases, package names), receivers, `:=`, `var` and `range` bindings with the lines they are visible in, composite literals, type assertions, embedded fields. */
import type { Node } from 'web-tree-sitter';
import { MAX_TYPE_DEPTH } from './expr.ts';
import type { Param } from '../../graph/model.ts';
import type { Expr, NamePath } from '../facts.ts';
import { enclosingType, makeGenericSpec } from './generic.ts';
import { unquote, type LangSpec } from './spec.ts';

function typePath(n: Node, depth = 0): NamePath | undefined {
  if (depth > MAX_TYPE_DEPTH) return undefined; // (a type nested 20,000 deep would overflow the stack)
  switch (n.type) {
    case 'type_identifier': case 'identifier': case 'package_identifier': return [n.text];
    case 'pointer_type': case 'parenthesized_type': { const c = n.lastNamedChild; return c ? typePath(c, depth + 1) : undefined; }
    case 'qualified_type': {
      const p = n.childForFieldName('package');
      const t = n.childForFieldName('name');
      return p && t ? [p.text, t.text] : undefined;
    }
    case 'generic_type': { const t = n.childForFieldName('type'); return t ? typePath(t, depth + 1) : undefined; }
    // Containers are their element, as NamePath strips arrays: `xs[i]`, `range xs` and `<-ch` read it.
    case 'slice_type': case 'array_type': case 'channel_type': { const t = n.childForFieldName(n.type === 'channel_type' ? 'value' : 'element'); return t ? typePath(t, depth + 1) : undefined; }
    case 'map_type': { const t = n.childForFieldName('value'); return t ? typePath(t, depth + 1) : undefined; }
    default: return undefined;
  }
}

function param(n: Node): Param[] {
  if (n.type !== 'parameter_declaration' && n.type !== 'variadic_parameter_declaration') return [];
  const t = n.childForFieldName('type');
  const names = n.namedChildren.filter((c) => c?.type === 'identifier');
  if (!names.length) return t ? [{ name: '_', type: t.text }] : [];
  return names.map((c) => ({ name: c!.text, ...(t ? { type: t.text } : {}) }));
}

/** Statements that open a Go scope: blocks, and the headers of if/for/switch (their init variables). */
const SCOPES = new Set(['block', 'if_statement', 'for_statement', 'expression_switch_statement', 'type_switch_statement',
  'expression_case', 'type_case', 'default_case', 'communication_case', 'func_literal']);

/**
 * Lines where a local declared at `node` is visible: from its declaration to the end of the
 * innermost enclosing scope (several same-named locals of one function resolve by the call's line).
 * Package-level declarations: undefined (visible everywhere).
 */
function visibleLines(node: Node): [number, number] | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (SCOPES.has(p.type)) return [node.startPosition.row + 1, p.endPosition.row + 1];
    if (p.type === 'function_declaration' || p.type === 'method_declaration' || p.type === 'source_file') return undefined;
  }
  return undefined;
}

export const GO_SPEC: LangSpec = (() => {
  const spec = makeGenericSpec({
    tables: {
      ids: new Set(['identifier', 'field_identifier', 'package_identifier', 'type_identifier']),
      thisTypes: new Set(),
      members: { selector_expression: ['operand', 'field'] },
      calls: { call_expression: 'function' },
      wrappers: new Set(['parenthesized_expression']),
      custom(n, d, self): Expr | undefined {
        if (n.type === 'composite_literal') {
          const t = n.childForFieldName('type');
          const p = t ? typePath(t) : undefined;
          return p ? { k: 'new', t: p } : { k: 'unk' };
        }
        // `<-ch`, `&x`, `xs[i]`, `xs[a:b]`: the operand (containers are typed as their element).
        if (n.type === 'unary_expression' || n.type === 'index_expression' || n.type === 'slice_expression') {
          const o = n.childForFieldName('operand');
          return o ? self(o, d + 1) : { k: 'unk' };
        }
        if (n.type === 'type_assertion_expression') {
          const t = n.childForFieldName('type');
          const p = t ? typePath(t) : undefined;
          return p ? { k: 'new', t: p } : { k: 'unk' };
        }
        return undefined;
      },
    },
    typePath,
    comments: ['comment'],
    returnFields: ['result'],
    param,
    visibility(_def, name) {
      const exported = /^[A-Z]/.test(name);
      return { visibility: exported ? 'public' : 'package', exported };
    },
    imports(node, scope, sink) {
      const path = node.childForFieldName('path');
      if (!path) return;
      const mod = unquote(path.text);
      const name = node.childForFieldName('name');
      const line = node.startPosition.row + 1;
      if (name && (name.text === '_' || name.text === '.')) {
        sink.imports.push({ module: mod, imported: '', local: '', line, scope });
        return;
      }
      const last = mod.split('/').pop()!.replace(/^go-|\.v\d+$/g, '').replace(/-/g, '_');
      const local = name?.text ?? (/^v\d+$/.test(last) ? mod.split('/').slice(-2)[0]! : last);
      sink.imports.push({ module: mod, imported: '*', local, line, scope });
    },
    local(node, scope, sink, _defs, expr) {
      const lines = visibleLines(node);
      if (node.type === 'range_clause') {
        // `for k, v := range xs`: v is an element of xs; k (or a lone variable) is an index or key.
        if (!node.children.some((c) => c?.type === ':=')) return;
        const ids = node.childForFieldName('left')?.namedChildren ?? [];
        const right = node.childForFieldName('right');
        ids.forEach((l, k) => {
          if (!l || l.type !== 'identifier') return;
          const v = k === 1 && right ? expr(right, 0) : undefined;
          sink.bindings.push({ scope, name: l.text, ...(v && v.k !== 'unk' ? { value: v } : {}), ...(lines ? { lines } : {}) });
        });
        return;
      }
      if (node.type === 'short_var_declaration') {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const ls = left?.namedChildren ?? [];
        const rs = right?.namedChildren ?? [];
        ls.forEach((l, k) => {
          if (!l || l.type !== 'identifier') return;
          const r = ls.length === rs.length ? rs[k] : k === 0 ? rs[0] : undefined;
          const v = r ? expr(r, 0) : undefined;
          sink.bindings.push({ scope, name: l.text, ...(v && v.k !== 'unk' ? { value: v } : {}), ...(lines ? { lines } : {}) });
        });
        return;
      }
      const t = node.childForFieldName('type');
      const tp = t ? typePath(t) : undefined;
      const vals = node.childForFieldName('value')?.namedChildren ?? [];
      node.namedChildren.filter((c) => c?.type === 'identifier').forEach((id, k) => {
        const v = vals[k] ? expr(vals[k]!, 0) : undefined;
        sink.bindings.push({ scope, name: id!.text, ...(tp ? { type: tp } : {}), ...(v && v.k !== 'unk' ? { value: v } : {}), ...(lines ? { lines } : {}) });
      });
    },
    hazards: { 'reflect.ValueOf': 'reflection', '.MethodByName': 'reflection', '.FieldByName': 'reflection' },
    stringValue: (n) => (n.type === 'interpreted_string_literal' || n.type === 'raw_string_literal' ? unquote(n.text) : undefined),
    packageName(root) {
      for (const c of root.namedChildren) if (c?.type === 'package_clause') return c.firstNamedChild?.text;
      return undefined;
    },
  });
  const base = spec.statement;
  spec.statement = (cap, node, scope, sink, defs) => {
    if (cap === 'param') {
      const owner = node.parent?.parent;
      if (owner?.type === 'function_type') return; // `fn func(r *Request)`: a type's parameter names bind nothing
      const t = node.childForFieldName('type');
      const tp = t ? typePath(t) : undefined;
      // A func literal's parameters are visible in its body only (from the line after its head).
      const lines: [number, number] | undefined = owner?.type === 'func_literal' ? [owner.startPosition.row + 2, owner.endPosition.row + 1] : undefined;
      for (const id of node.namedChildren) if (id?.type === 'identifier') sink.bindings.push({ scope, name: id.text, ...(tp ? { type: tp } : {}), param: true, ...(lines ? { lines } : {}) });
      return;
    }
    if (cap === 'field' && !node.childForFieldName('name')) {
      // An embedded field `basicWriter` / `*DefaultLogFormatter` is a field named by its type (`f.basicWriter.m()`).
      const t = node.childForFieldName('type');
      const tp = t ? typePath(t) : undefined;
      const cls = enclosingType(defs, scope);
      if (tp && cls >= 0) sink.bindings.push({ scope: cls, name: tp[tp.length - 1]!, type: tp, field: true });
      return;
    }
    base(cap, node, scope, sink, defs);
  };
  return spec;
})();
