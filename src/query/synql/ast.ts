/** SYNQL's syntax tree (docs/synql.md). Every node keeps its source offset for error carets. */

export type Scalar = string | number | boolean | null;
export type Value = Scalar | Value[];

export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>=' | '=~' | 'IN' | 'STARTS WITH' | 'ENDS WITH' | 'CONTAINS';
export type AggFn = 'count' | 'min' | 'max' | 'avg' | 'sum' | 'collect';

export type Expr =
  | { t: 'lit'; value: Value; pos: number }
  | { t: 'list'; items: Expr[]; pos: number }
  | { t: 'prop'; v: string; prop: string; pos: number }
  | { t: 'var'; v: string; pos: number }
  | { t: 'not'; e: Expr; pos: number }
  | { t: 'and' | 'or' | 'xor'; l: Expr; r: Expr; pos: number }
  | { t: 'cmp'; op: CmpOp; l: Expr; r: Expr; pos: number }
  | { t: 'isnull'; e: Expr; negate: boolean; pos: number }
  /** `arg` null means `count(*)`. */
  | { t: 'agg'; fn: AggFn; distinct: boolean; arg: Expr | null; pos: number };

export interface NodePattern {
  /** The variable, or a generated `#n` name for an anonymous `()`. */
  v: string;
  anonymous: boolean;
  /** Allowed kinds (empty: any kind). */
  kinds: string[];
  kindPos: number[];
  /** `{name: 'x'}` shorthand, checked like `WHERE v.name = 'x'`. */
  props: Array<{ prop: string; value: Value; pos: number }>;
  pos: number;
}

export interface RelPattern {
  /** Allowed relation types (empty: any). */
  types: string[];
  typePos: number[];
  /** out: (a)-[]->(b); in: (a)<-[]-(b); both: (a)-[]-(b). */
  dir: 'out' | 'in' | 'both';
  min: number;
  max: number;
  /** Whether `*` was written (variable length). */
  variable: boolean;
  pos: number;
}

/** One path: nodes[0] rels[0] nodes[1] ... */
export interface PathPattern {
  nodes: NodePattern[];
  rels: RelPattern[];
}

export interface ReturnItem {
  expr: Expr;
  /** Column name: the alias, else the expression as written. */
  name: string;
}

export interface OrderItem {
  expr: Expr;
  desc: boolean;
}

export interface Query {
  source: string;
  patterns: PathPattern[];
  where?: Expr;
  distinct: boolean;
  items: ReturnItem[];
  order: OrderItem[];
  skip: number;
  /** LIMIT as written (undefined: the caller's default). */
  limit?: number;
}

export function hasAggregate(e: Expr): boolean {
  switch (e.t) {
    case 'agg':
      return true;
    case 'not':
    case 'isnull':
      return hasAggregate(e.e);
    case 'and':
    case 'or':
    case 'xor':
    case 'cmp':
      return hasAggregate(e.l) || hasAggregate(e.r);
    case 'list':
      return e.items.some(hasAggregate);
    default:
      return false;
  }
}

/** Variables an expression reads. */
export function varsOf(e: Expr, out = new Set<string>()): Set<string> {
  switch (e.t) {
    case 'prop':
    case 'var':
      out.add(e.v);
      break;
    case 'not':
    case 'isnull':
      varsOf(e.e, out);
      break;
    case 'and':
    case 'or':
    case 'xor':
    case 'cmp':
      varsOf(e.l, out);
      varsOf(e.r, out);
      break;
    case 'list':
      for (const x of e.items) varsOf(x, out);
      break;
    case 'agg':
      if (e.arg) varsOf(e.arg, out);
      break;
  }
  return out;
}
