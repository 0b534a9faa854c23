import type { CmpOp, Expr, Value } from './ast.ts';
import type { NodeProps } from './props.ts';
import type { Property } from './schema.ts';

/** A compiled expression over one row of bound node ids (one slot per variable). */
export type RowFn = (row: Int32Array) => Value;

export interface CompileContext {
  slot(v: string): number;
  props: NodeProps;
  re: Regexes;
}

/** Compiled `=~` regexes, keyed by the comparison. */
export type Regexes = ReadonlyMap<Expr, (s: string) => boolean>;

/**
 * Compile a non-aggregate expression to a closure (docs/synql.md, "Values and comparisons"): a
 * comparison with null, or of a string with a number, is false; AND / OR / NOT work on booleans
 * (anything but true is false); =~ finds the regex anywhere in the string (anchor with ^ and $).
 */
export function compileExpr(e: Expr, cx: CompileContext): RowFn {
  switch (e.t) {
    case 'lit': {
      const value = e.value;
      return () => value;
    }
    case 'list': {
      const items = e.items.map((x) => compileExpr(x, cx));
      return (row) => items.map((f) => f(row));
    }
    case 'prop': {
      const slot = cx.slot(e.v);
      const get = cx.props.getter(e.prop as Property);
      return (row) => get(row[slot]!);
    }
    case 'var': {
      const slot = cx.slot(e.v);
      const get = cx.props.getter('id');
      return (row) => get(row[slot]!);
    }
    case 'not': {
      const f = compileExpr(e.e, cx);
      return (row) => f(row) !== true;
    }
    case 'and': {
      const l = compileExpr(e.l, cx);
      const r = compileExpr(e.r, cx);
      return (row) => l(row) === true && r(row) === true;
    }
    case 'or': {
      const l = compileExpr(e.l, cx);
      const r = compileExpr(e.r, cx);
      return (row) => l(row) === true || r(row) === true;
    }
    case 'xor': {
      const l = compileExpr(e.l, cx);
      const r = compileExpr(e.r, cx);
      return (row) => (l(row) === true) !== (r(row) === true);
    }
    case 'isnull': {
      const f = compileExpr(e.e, cx);
      const negate = e.negate;
      return (row) => (f(row) === null) !== negate;
    }
    case 'cmp': {
      const l = compileExpr(e.l, cx);
      const r = compileExpr(e.r, cx);
      const op = e.op;
      if (op === '=~') {
        const test = cx.re.get(e)!;
        return (row) => {
          const x = l(row);
          return typeof x === 'string' && test(x);
        };
      }
      return (row) => compare(op, l(row), r(row));
    }
    case 'agg':
      throw new Error('aggregate compiled as a scalar'); // checkQuery keeps them out of WHERE
  }
}

function compare(op: CmpOp, l: Value, r: Value): boolean {
  if (l === null || r === null) return false;
  switch (op) {
    case '=':
      return sameType(l, r) && l === r;
    case '<>':
      return sameType(l, r) && l !== r;
    case '<':
      return ordered(l, r) && l < r;
    case '<=':
      return ordered(l, r) && l <= r;
    case '>':
      return ordered(l, r) && l > r;
    case '>=':
      return ordered(l, r) && l >= r;
    case 'IN':
      return Array.isArray(r) && r.some((x) => x !== null && sameType(l, x) && x === l);
    case 'STARTS WITH':
      return typeof l === 'string' && typeof r === 'string' && l.startsWith(r);
    case 'ENDS WITH':
      return typeof l === 'string' && typeof r === 'string' && l.endsWith(r);
    case 'CONTAINS':
      return typeof l === 'string' && typeof r === 'string' && l.includes(r);
    case '=~':
      return false; // compiled above
  }
}

function sameType(a: Value, b: Value): boolean {
  return typeof a === typeof b && !Array.isArray(a) && !Array.isArray(b);
}

function ordered(a: Value, b: Value): a is number | string {
  return (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
}

/** The `=~` comparisons of a query's expressions (each compiled once before evaluation). */
export function regexComparisons(e: Expr | undefined, out: Array<Extract<Expr, { t: 'cmp' }>> = []): Array<Extract<Expr, { t: 'cmp' }>> {
  if (!e) return out;
  switch (e.t) {
    case 'cmp':
      if (e.op === '=~') out.push(e);
      regexComparisons(e.l, out);
      regexComparisons(e.r, out);
      break;
    case 'and':
    case 'or':
    case 'xor':
      regexComparisons(e.l, out);
      regexComparisons(e.r, out);
      break;
    case 'not':
    case 'isnull':
      regexComparisons(e.e, out);
      break;
    case 'list':
      for (const x of e.items) regexComparisons(x, out);
      break;
    case 'agg':
      regexComparisons(e.arg ?? undefined, out);
      break;
  }
  return out;
}
