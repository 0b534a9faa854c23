/** Python hooks: imports (absolute, relative, `*`), `self`/`cls`, annotations, docstrings, hazards. */
import type { Node } from 'web-tree-sitter';
import { MAX_TYPE_DEPTH } from './expr.ts';
import type { Param } from '../../graph/model.ts';
import type { NamePath } from '../facts.ts';
import { enclosingType, makeGenericSpec } from './generic.ts';
import { unquote, type LangSpec } from './spec.ts';

function stringValue(n: Node): string | undefined {
  if (n.type !== 'string' || n.namedChildren.some((c) => c?.type === 'interpolation')) return undefined;
  return unquote(n.text);
}

/** Subscripted names of typing, collections.abc and builtins that are no class a call could go to. */
const TYPING_FORMS: ReadonlySet<string> = new Set([
  'Callable', 'Union', 'Literal', 'Annotated', 'ClassVar', 'Final', 'Concatenate', 'TypeGuard', 'TypeIs', 'Required', 'NotRequired',
  'Unpack', 'Generic', 'Protocol', 'Generator', 'AsyncGenerator', 'Iterator', 'AsyncIterator', 'Iterable', 'AsyncIterable', 'Awaitable',
  'Coroutine', 'Sequence', 'MutableSequence', 'Mapping', 'MutableMapping', 'Collection', 'Container', 'AbstractSet', 'MutableSet',
  'ContextManager', 'AsyncContextManager', 'IO', 'List', 'Dict', 'Set', 'FrozenSet', 'Tuple', 'DefaultDict', 'OrderedDict', 'Deque',
  'list', 'dict', 'set', 'frozenset', 'tuple', 'type',
]);

function typePath(n: Node, depth = 0): NamePath | undefined {
  if (depth > MAX_TYPE_DEPTH) return undefined; // (a type nested 20,000 deep would overflow the stack)
  switch (n.type) {
    case 'type': { const c = n.firstNamedChild; return c ? typePath(c, depth + 1) : undefined; }
    case 'identifier': return n.text === 'None' ? undefined : [n.text];
    case 'attribute': return n.text.split('.');
    case 'string': { const s = stringValue(n); return s && /^[\w.]+$/.test(s) ? s.split('.') : undefined; }
    case 'generic_type': case 'subscript': {
      const base = n.firstNamedChild;
      const name = base?.text.slice(base.text.lastIndexOf('.') + 1);
      if (name === 'Optional' || name === 'Type') { // (t.Optional, typing.Optional too)
        const arg = n.namedChild(1);
        return arg ? typePath(arg.type === 'type_parameter' ? arg.firstNamedChild ?? arg : arg, depth + 1) : undefined;
      }
      // A generic class `ParamType[str]` (an annotation or a base class) is the class. Typing's
      // forms and containers (`t.Callable[...]`, `list[X]`) are not: a return type naming one would
      // hide the value the function returns (`-> t.Callable[[], T]` returning a nested def).
      if (!base || (base.type !== 'identifier' && base.type !== 'attribute') || TYPING_FORMS.has(name!)) return undefined;
      return typePath(base, depth + 1);
    }
    case 'binary_operator': { // X | None
      const l = n.childForFieldName('left');
      const r = n.childForFieldName('right');
      if (r?.text === 'None' && l) return typePath(l, depth + 1);
      if (l?.text === 'None' && r) return typePath(r, depth + 1);
      return undefined;
    }
    default: return undefined;
  }
}

/** The names an assignment target pattern binds: identifiers, not attributes or subscripts. */
function patternNames(n: Node, out: string[] = [], depth = 0): string[] {
  if (n.type === 'identifier') out.push(n.text);
  else if (depth < MAX_TYPE_DEPTH && /^(pattern_list|tuple_pattern|list_pattern|list_splat_pattern|parenthesized_expression|tuple|list)$/.test(n.type)) {
    for (const c of n.namedChildren) if (c) patternNames(c, out, depth + 1);
  }
  return out;
}

function param(n: Node): Param[] {
  switch (n.type) {
    case 'identifier': return n.text === 'self' || n.text === 'cls' ? [] : [{ name: n.text }];
    case 'typed_parameter': {
      const id = n.namedChildren.find((c) => c?.type === 'identifier');
      const t = n.childForFieldName('type');
      return id ? [{ name: id.text, ...(t ? { type: t.text } : {}) }] : [];
    }
    case 'default_parameter': case 'typed_default_parameter': {
      const name = n.childForFieldName('name');
      const t = n.childForFieldName('type');
      const v = n.childForFieldName('value');
      return name ? [{ name: name.text, optional: true, ...(t ? { type: t.text } : {}), ...(v ? { default: v.text.slice(0, 40) } : {}) }] : [];
    }
    case 'list_splat_pattern': case 'dictionary_splat_pattern': return [{ name: n.text }];
    default: return [];
  }
}

function moduleText(n: Node | null): string {
  return n ? n.text.replace(/\s+/g, '') : '';
}

export const PYTHON_SPEC: LangSpec = makeGenericSpec({
  tables: {
    ids: new Set(['identifier']),
    thisTypes: new Set(),
    thisNames: new Set(['self', 'cls']),
    members: { attribute: ['object', 'attribute'] },
    calls: { call: 'function' },
    wrappers: new Set(['parenthesized_expression', 'await']),
    custom(n) {
      if (n.type === 'call') {
        const f = n.childForFieldName('function');
        if (f?.type === 'identifier' && f.text === 'super') return { k: 'super' };
        // `t.cast(Group, x)` / `typing.cast("Group", x)`: a value of the named type.
        if (f && /^(?:(?:t|typing)\.)?cast$/.test(f.text)) {
          const a = n.childForFieldName('arguments')?.namedChildren[0];
          const t = a ? typePath(a) : undefined;
          if (t) return { k: 'new', t };
        }
      }
      return undefined;
    },
  },
  typePath,
  comments: ['comment'],
  returnFields: ['return_type'],
  param,
  docstring: true,
  ctorNames: ['__init__'],
  // `@overload` / `@typing.overload` / `@t.overload` stubs are signatures of the definition after them.
  overloadDecl: (def) => def.parentNode?.type === 'decorated_definition'
    && def.parentNode.namedChildren.some((d) => d?.type === 'decorator' && /^@\s*(?:[\w.]+\.)?overload\s*$/.test(d.text)),
  visibility(def, name) {
    const priv = name.startsWith('_') && !(name.startsWith('__') && name.endsWith('__'));
    const isStatic = def.parentNode?.type === 'decorated_definition'
      && def.parentNode.namedChildren.some((d) => d?.type === 'decorator' && /staticmethod|classmethod/.test(d.text));
    return { visibility: priv ? 'private' : 'public', exported: def.parent < 0 && !priv, ...(isStatic ? { isStatic } : {}) };
  },
  imports(node, scope, sink) {
    const line = node.startPosition.row + 1;
    if (node.type === 'import_statement') {
      for (const c of node.namedChildren) {
        if (!c) continue;
        if (c.type === 'dotted_name') {
          const mod = moduleText(c);
          const head = mod.split('.')[0]!;
          sink.imports.push({ module: head, imported: '*', local: head, line, scope });
          if (mod !== head) sink.imports.push({ module: mod, imported: '', local: '', line, scope });
        } else if (c.type === 'aliased_import') {
          const alias = c.childForFieldName('alias');
          sink.imports.push({ module: moduleText(c.childForFieldName('name')), imported: '*', local: alias?.text ?? '', line, scope });
        }
      }
      return;
    }
    const mod = moduleText(node.childForFieldName('module_name'));
    let any = false;
    for (const c of node.namedChildren) {
      if (!c || c === node.childForFieldName('module_name') || c.id === node.childForFieldName('module_name')?.id) continue;
      if (c.type === 'dotted_name') { any = true; sink.imports.push({ module: mod, imported: c.text, local: c.text, line, scope }); }
      else if (c.type === 'aliased_import') {
        const name = c.childForFieldName('name');
        const alias = c.childForFieldName('alias');
        if (name) { any = true; sink.imports.push({ module: mod, imported: name.text, local: alias?.text ?? name.text, line, scope }); }
      } else if (c.type === 'wildcard_import') { any = true; sink.imports.push({ module: mod, imported: '*', local: '', line, scope, reexport: true }); }
    }
    if (!any) sink.imports.push({ module: mod, imported: '', local: '', line, scope });
  },
  local(node, scope, sink, defs, expr) {
    if (node.type === 'with_item') {
      // `with Session() as s:` binds s to the context expression's value (most `__enter__`s return self).
      const as = node.childForFieldName('value');
      const target = as?.childForFieldName('alias')?.namedChildren[0];
      const value = as?.namedChildren[0] ? expr(as.namedChildren[0], 0) : undefined;
      if (target?.type === 'identifier') sink.bindings.push({ scope, name: target.text, ...(value && value.k !== 'unk' ? { value } : {}) });
      return;
    }
    if (node.type === 'as_pattern') {
      // `except ClickException as e:` binds e to an instance of the class caught, inside that clause
      // (a function's other `except … as e` clauses bind other types).
      const target = node.childForFieldName('alias')?.namedChildren[0];
      const caught = node.namedChildren[0];
      const tp = caught ? typePath(caught) : undefined;
      const clause = node.parent ?? node;
      const lines: [number, number] = [clause.startPosition.row + 1, clause.endPosition.row + 1];
      if (target?.type === 'identifier') sink.bindings.push({ scope, name: target.text, ...(tp ? { type: tp } : {}), lines });
      return;
    }
    const left = node.childForFieldName('left');
    let right = node.childForFieldName('right');
    // `a = b = C()`: a is bound to the innermost value (the inner assignment is captured on its own).
    for (let k = 0; right?.type === 'assignment' && k < MAX_TYPE_DEPTH; k++) right = right.childForFieldName('right');
    const t = node.childForFieldName('type');
    if (!left) return;
    // `x = None` (a reset, `cap: Foo | None = None`) binds nothing a call could go to: the resolver reads a
    // name's last binding, so a later `x = None` would hide the type every other binding gives it.
    if (right?.type === 'none' && !t && left.type !== 'pattern_list' && left.type !== 'tuple_pattern') return;
    const tp = t ? typePath(t) : undefined;
    const value = right ? expr(right, 0) : undefined;
    if (left.type === 'identifier') {
      const isField = scope >= 0 && defs[scope]!.kind === 'class';
      sink.bindings.push({ scope, name: left.text, ...(tp ? { type: tp } : {}), ...(value && value.k !== 'unk' ? { value } : {}), ...(isField ? { field: true } : {}) });
    } else if (left.type === 'attribute' && left.childForFieldName('object')?.text === 'self') {
      const cls = enclosingType(defs, scope);
      const attr = left.childForFieldName('attribute');
      if (cls >= 0 && attr && (tp || (value && value.k !== 'unk'))) sink.bindings.push({ scope: cls, name: attr.text, ...(tp ? { type: tp } : {}), ...(value && value.k !== 'unk' ? { value } : {}), field: true, at: scope });
    } else {
      // `a, (b, *c) = ...` binds its names (of unknown value); `ctx.args = x` and `ctx.params[k] = v`
      // bind nothing: they change ctx, they do not rebind it (a binding would hide its annotated type).
      for (const name of patternNames(left)) sink.bindings.push({ scope, name });
    }
  },
  hazards: { eval: 'eval', exec: 'eval', getattr: 'reflection', setattr: 'reflection', hasattr: 'reflection', __import__: 'dynamic_import', 'importlib.import_module': 'dynamic_import' },
  stringValue,
});
