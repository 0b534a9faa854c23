/**
 * A configurable `LangSpec` for the languages beyond TS/JS: expression tables, parameter and
 * binding readers keyed by node type, visibility rules and doc comments. Each language file
 * supplies its tables and its import reader.
 */
import type { Node } from 'web-tree-sitter';
import type { Param, Visibility } from '../../graph/model.ts';
import type { NamePath } from '../facts.ts';
import { makeExpr, type ExprTables } from './expr.ts';
import { commentText, docstringText, headerText, plainText, precedingComments, type DefInfo, type LangSpec, type SignatureInfo, type Sink } from './spec.ts';

const TYPE_LIKE = new Set(['class', 'interface', 'struct', 'trait', 'enum']);

export interface GenericOptions {
  tables: Omit<ExprTables, 'typePath'>;
  typePath(node: Node): NamePath | undefined;
  comments: readonly string[];
  /** Field holding the parameter list of a callable (default `parameters`). */
  paramsField?: string;
  /** Fields that may hold the return type, tried in order. */
  returnFields?: readonly string[];
  /** One parameter node -> params (name, type) or [] to skip. */
  param(node: Node): Param[];
  /** Python-style docstring: first string statement of the body. */
  docstring?: boolean;
  visibility(def: DefInfo, name: string): { visibility: Visibility; exported: boolean; isStatic?: boolean };
  /** Names that make a method a constructor (besides the type's own name when `ctorIsTypeName`). */
  ctorNames?: readonly string[];
  ctorIsTypeName?: boolean;
  overloadDecl?(def: DefInfo): boolean;
  imports?(node: Node, scope: number, sink: Sink): void;
  /** `@local` declarations -> bindings. */
  local?(node: Node, scope: number, sink: Sink, defs: DefInfo[], expr: (n: Node, d: number) => import('../facts.ts').Expr): void;
  /** Hazard callee names: callee text -> kind (key = first string argument). */
  hazards?: Readonly<Record<string, 'eval' | 'dynamic_import' | 'reflection' | 'dynamic_call'>>;
  stringValue?(node: Node): string | undefined;
  packageName?(root: Node): string | undefined;
  /** Callee names that are language statements, not calls (Ruby `require`, `attr_reader`, ...). */
  ignoreCalls?: ReadonlySet<string>;
  /** Call node -> arguments node (for hazard keys). */
  argsField?: string;
  /**
   * Statements written as calls (Ruby `require 'x'`, `include M`), read off every call; true when
   * the node is no call at all. (A tags pattern that waits for the method name after the
   * receiver keeps a match state open across a whole receiver chain: quadratic in its length.)
   */
  callStatements?(call: Node, sink: Sink): boolean;
}

/** Hazard and statement names are short: a longer callee's text is never read (copying it at every level of a long call chain is quadratic). */
const MAX_NAME_TEXT = 64;

function nameText(node: Node | null | undefined): string {
  return node && node.endIndex - node.startIndex <= MAX_NAME_TEXT ? node.text : '';
}

export function enclosingType(defs: DefInfo[], scope: number): number {
  for (let s = scope; s >= 0; s = defs[s]!.parent) if (TYPE_LIKE.has(defs[s]!.kind)) return s;
  return -1;
}

export function makeGenericSpec(o: GenericOptions): LangSpec {
  const expr = makeExpr({ ...o.tables, typePath: o.typePath });
  const paramsField = o.paramsField ?? 'parameters';
  const signature = (def: DefInfo, source: string): SignatureInfo | undefined => {
    const node = def.node;
    const body = node.childForFieldName('body');
    const raw = headerText(node, body, source, o.comments);
    const list = node.childForFieldName(paramsField);
    const params: Param[] = [];
    if (list) for (const c of list.namedChildren) if (c) params.push(...o.param(c));
    const sig: SignatureInfo = { params, raw };
    for (const f of o.returnFields ?? []) {
      const rt = node.childForFieldName(f);
      if (rt) {
        sig.returns = plainText(rt, source, o.comments).replace(/^(->|:)\s*/, '');
        const p = o.typePath(rt);
        if (p) sig.returnPath = p;
        break;
      }
    }
    return sig;
  };
  return {
    expr,
    typePath: o.typePath,
    refineDef(def) {
      if (def.kind === 'method' || def.kind === 'function') {
        const n = def.nameNode.text;
        if (o.ctorNames?.includes(n) && def.parent >= 0) return { kind: 'constructor' };
        if (o.ctorIsTypeName && def.parent >= 0 && TYPE_LIKE.has(def.parentKind!) && n === def.parentName) return { kind: 'constructor' };
      }
      return { kind: def.kind };
    },
    visibility: o.visibility,
    ...(o.overloadDecl ? { overloadDecl: o.overloadDecl } : {}),
    signature,
    doc(def) {
      if (o.docstring) {
        const body = def.node.childForFieldName('body');
        const first = body?.firstNamedChild;
        const str = first?.type === 'expression_statement' ? first.firstNamedChild : null;
        if (str && str.type === 'string') return docstringText(str.text.replace(/^[a-zA-Z]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, ''));
      }
      const wrapped = def.parentNode && /^(decorated_definition|template_declaration|type_declaration)$/.test(def.parentNode.type) && def.before[0].first;
      const level = wrapped ? 1 : 0;
      // Attribute/annotation lines may sit between doc and declaration (Rust `#[..]`, C# `[..]`).
      const run = precedingComments(def, level, o.comments, /attribute|annotation/);
      return run.length ? commentText(run) : undefined;
    },
    statement(cap, node, scope, sink, defs) {
      if (cap === 'import') o.imports?.(node, scope, sink);
      else if (cap === 'local') o.local?.(node, scope, sink, defs, expr);
      else if (cap === 'param') {
        for (const p of o.param(node)) {
          const tnode = node.childForFieldName('type');
          const tp = tnode ? o.typePath(tnode) : undefined;
          sink.bindings.push(tp ? { scope, name: p.name, type: tp, param: true } : { scope, name: p.name, param: true });
        }
      } else if (cap === 'field') {
        const cls = enclosingType(defs, scope);
        const name = node.childForFieldName('name') ?? node.childForFieldName('declarator');
        const tnode = node.childForFieldName('type');
        const tp = tnode ? o.typePath(tnode) : undefined;
        if (cls >= 0 && name && tp) sink.bindings.push({ scope: cls, name: name.text.replace(/^\$/, ''), type: tp, field: true });
      }
    },
    specialCall(call, callee, sink) {
      if (o.callStatements?.(call, sink)) return true;
      if (o.ignoreCalls?.has(callee.type === 'call' ? nameText(callee.childForFieldName('method')) : nameText(callee))) {
        if (callee.type !== 'call' || !callee.childForFieldName('receiver')) return true;
      }
      let text = nameText(callee);
      if (callee.type === 'call' && !callee.childForFieldName('receiver')) text = nameText(callee.childForFieldName('method'));
      if (callee.type === 'method_invocation') {
        const obj = callee.childForFieldName('object');
        const name = nameText(callee.childForFieldName('name'));
        text = obj ? `${nameText(obj)}.${name}` : name;
        const k = hazardOf(o, text) ?? hazardOf(o, '.' + name);
        if (k) {
          sink.hazard(k, call, firstStringArg(call, o));
          return true;
        }
      }
      const kind = hazardOf(o, text);
      if (!kind) {
        if (o.tables.members[callee.type]) {
          const prop = callee.childForFieldName(o.tables.members[callee.type]![1]);
          const k2 = prop ? hazardOf(o, '.' + prop.text) : undefined;
          if (k2) {
            sink.hazard(k2, call, firstStringArg(call, o));
            return true;
          }
        }
        return false;
      }
      sink.hazard(kind, call, firstStringArg(call, o));
      return true;
    },
    packageName: o.packageName,
  };
}

function firstStringArg(call: Node, o: GenericOptions): string | undefined {
  const args = call.childForFieldName(o.argsField ?? 'arguments');
  if (!args || !o.stringValue) return undefined;
  for (const a of args.namedChildren) {
    if (!a) continue;
    const v = o.stringValue(a.type === 'argument' && a.firstNamedChild ? a.firstNamedChild : a);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The hazard a callee names: own keys only (a call to `toString(x)` is not Object.prototype.toString). */
function hazardOf(o: { hazards?: GenericOptions['hazards'] }, key: string): NonNullable<GenericOptions['hazards']>[string] | undefined {
  return o.hazards && Object.hasOwn(o.hazards, key) ? o.hazards[key] : undefined;
}
