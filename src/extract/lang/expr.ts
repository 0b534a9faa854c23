/**
 * Table-driven reduction of an expression node to an `Expr` (see facts.ts): each language lists
 * which node types are names, `this`, member accesses, calls and constructions.
 */
import type { Node } from 'web-tree-sitter';
import type { Expr, NamePath } from '../facts.ts';

export interface ExprTables {
  ids: ReadonlySet<string>;
  thisTypes: ReadonlySet<string>;
  superTypes?: ReadonlySet<string>;
  /** Identifier texts that mean the receiver (Python `self`/`cls`, PHP `$this`). */
  thisNames?: ReadonlySet<string>;
  /** node type -> [object field, member-name field] */
  members: Readonly<Record<string, readonly [string, string]>>;
  /** node type -> callee field */
  calls: Readonly<Record<string, string>>;
  /** node type -> constructed-type field */
  news?: Readonly<Record<string, string>>;
  /** Transparent wrappers: the first named child is the value. */
  wrappers?: ReadonlySet<string>;
  /** Extra language rules tried first; return undefined to fall through. */
  custom?(node: Node, depth: number, self: (n: Node, d: number) => Expr): Expr | undefined;
  /** Type node -> name path (for `new` types and casts). */
  typePath(node: Node): NamePath | undefined;
}

const UNK: Expr = { k: 'unk' };
/**
 * Member/call steps kept of a callee expression: 16 keeps fluent chains of 8 calls
 * (`z.string().min(5).max(10).trim().parse(x)`; 6 lost zod's from the fourth call on).
 */
export const MAX_EXPR_DEPTH = 16;
/** Type expressions nested deeper are not named (`Promise<Promise<...>>` 20,000 deep would overflow the stack). */
export const MAX_TYPE_DEPTH = 64;

/** Builds the `expr` hook of a language from its tables. */
export function makeExpr(t: ExprTables): (node: Node, depth: number) => Expr {
  const self = (node: Node, depth: number): Expr => {
    if (depth > MAX_EXPR_DEPTH) return UNK;
    const type = node.type;
    if (t.custom) {
      const c = t.custom(node, depth, self);
      if (c) return c;
    }
    if (t.ids.has(type)) {
      const n = node.text;
      return t.thisNames?.has(n) ? { k: 'this' } : { k: 'id', n };
    }
    if (t.thisTypes.has(type)) return { k: 'this' };
    if (t.superTypes?.has(type)) return { k: 'super' };
    const mem = t.members[type];
    if (mem) {
      const o = node.childForFieldName(mem[0]);
      const p = node.childForFieldName(mem[1]);
      if (!p) return UNK;
      return { k: 'mem', o: o ? self(o, depth + 1) : UNK, n: p.text };
    }
    const call = t.calls[type];
    if (call) {
      const f = node.childForFieldName(call);
      return f ? { k: 'call', f: self(f, depth + 1) } : UNK;
    }
    const nw = t.news?.[type];
    if (nw) {
      const c = node.childForFieldName(nw);
      const path = c ? t.typePath(c) : undefined;
      return path ? { k: 'new', t: path } : UNK;
    }
    if (t.wrappers?.has(type)) {
      const inner = node.firstNamedChild;
      return inner ? self(inner, depth + 1) : UNK;
    }
    return UNK;
  };
  return self;
}

/** Name path of a dotted expression made of names only (`a.b.C`), else undefined. */
export function exprPath(e: Expr): NamePath | undefined {
  if (e.k === 'id') return [e.n];
  if (e.k === 'mem') {
    const o = exprPath(e.o);
    return o ? [...o, e.n] : undefined;
  }
  return undefined;
}
