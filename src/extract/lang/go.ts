/** Go hooks: import specs (aliases, package names), receivers, `:=` and `var` bindings, composite literals. */
import type { Node } from 'web-tree-sitter';
import { MAX_TYPE_DEPTH } from './expr.ts';
import type { Param } from '../../graph/model.ts';
import type { Expr, NamePath } from '../facts.ts';
import { makeGenericSpec } from './generic.ts';
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
        if (n.type === 'unary_expression') {
          const o = n.childForFieldName('operand');
          return o ? self(o, d + 1) : { k: 'unk' };
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
      if (node.type === 'short_var_declaration') {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const ls = left?.namedChildren ?? [];
        const rs = right?.namedChildren ?? [];
        ls.forEach((l, k) => {
          if (!l || l.type !== 'identifier') return;
          const r = ls.length === rs.length ? rs[k] : k === 0 ? rs[0] : undefined;
          const v = r ? expr(r, 0) : undefined;
          sink.bindings.push({ scope, name: l.text, ...(v && v.k !== 'unk' ? { value: v } : {}) });
        });
        return;
      }
      const t = node.childForFieldName('type');
      const tp = t ? typePath(t) : undefined;
      const vals = node.childForFieldName('value')?.namedChildren ?? [];
      node.namedChildren.filter((c) => c?.type === 'identifier').forEach((id, k) => {
        const v = vals[k] ? expr(vals[k]!, 0) : undefined;
        sink.bindings.push({ scope, name: id!.text, ...(tp ? { type: tp } : {}), ...(v && v.k !== 'unk' ? { value: v } : {}) });
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
      const t = node.childForFieldName('type');
      const tp = t ? typePath(t) : undefined;
      for (const id of node.namedChildren) if (id?.type === 'identifier') sink.bindings.push({ scope, name: id.text, ...(tp ? { type: tp } : {}), param: true });
      return;
    }
    base(cap, node, scope, sink, defs);
  };
  return spec;
})();
