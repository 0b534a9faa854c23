import type { NodeId } from '../../graph/model.ts';
import { hasAggregate, type Expr, type Query, type Value } from './ast.ts';
import { sameExpr } from './check.ts';
import { compileExpr, type Regexes } from './expr.ts';
import type { Bindings } from './match.ts';
import type { SynqlIndex } from './synql-index.ts';

/** One output cell: a node (a bare variable in RETURN) or a value. */
export type Cell = { node: NodeId } | Value;

export interface Table {
  columns: string[];
  /** Which columns hold nodes. */
  nodeColumns: boolean[];
  rows: Cell[][];
  /** Rows before SKIP / LIMIT. */
  total: number;
  aggregated: boolean;
}

export function isNodeCell(c: Cell): c is { node: NodeId } {
  return typeof c === 'object' && c !== null && !Array.isArray(c);
}

/**
 * RETURN, ORDER BY, SKIP and LIMIT over the matched rows (docs/synql.md): aggregates group by the
 * other items; collect() lists its values sorted; without ORDER BY (and to break its ties) rows come
 * in canonical order, nodes by file, line and id.
 */
export function project(q: Query, b: Bindings, sx: SynqlIndex, re: Regexes, limit: number): Table {
  const props = sx.props;
  let row: Int32Array = new Int32Array(0);
  const compiled = new Map<Expr, (row: Int32Array) => Cell>();
  const cellOf = (e: Expr): Cell => {
    let f = compiled.get(e);
    if (!f) {
      if (e.t === 'var') {
        const slot = b.slots.get(e.v)!;
        f = (r) => ({ node: r[slot]! });
      } else f = compileExpr(e, { slot: (v) => b.slots.get(v)!, props, re });
      compiled.set(e, f);
    }
    return f(row);
  };
  const aggregated = q.items.some((it) => hasAggregate(it.expr));
  const cmpCell = cellComparator(sx.rank);
  const idOf = (v: NodeId) => String(props.get(v, 'id'));
  type Out = { cells: Cell[]; keys: Cell[] };
  let out: Out[] = [];
  // ORDER BY items resolved to a column, or evaluated on the row.
  const orderCol = q.order.map((o) => {
    const alias = o.expr.t === 'var' ? q.items.findIndex((it) => it.name === (o.expr as { v: string }).v) : -1;
    return alias >= 0 ? alias : q.items.findIndex((it) => sameExpr(it.expr, o.expr));
  });
  if (!aggregated) {
    const seen = q.distinct ? new Set<string>() : undefined;
    for (const r of b.rows) {
      row = r;
      const cells = q.items.map((it) => cellOf(it.expr));
      if (seen) {
        const key = keyOf(cells);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push({ cells, keys: q.order.map((o, i) => (orderCol[i]! >= 0 ? cells[orderCol[i]!]! : cellOf(o.expr))) });
    }
  } else {
    const groups = new Map<string, { cells: Cell[]; acc: Acc[] }>();
    for (const r of b.rows) {
      row = r;
      const keyCells = q.items.map((it) => (it.expr.t === 'agg' ? null : cellOf(it.expr)));
      const key = keyOf(keyCells);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { cells: keyCells, acc: q.items.map(() => new Acc()) }));
      q.items.forEach((it, i) => {
        if (it.expr.t === 'agg') g!.acc[i]!.add(it.expr.arg ? cellOf(it.expr.arg) : true, it.expr.distinct);
      });
    }
    if (!groups.size && q.items.every((it) => it.expr.t === 'agg')) groups.set('', { cells: q.items.map(() => null), acc: q.items.map(() => new Acc()) });
    for (const g of groups.values()) {
      const cells = q.items.map((it, i) => (it.expr.t === 'agg' ? g.acc[i]!.result(it.expr.fn, cmpCell, idOf) : g.cells[i]!));
      out.push({ cells, keys: orderCol.map((c) => cells[c]!) });
    }
  }
  const desc = q.order.map((o) => o.desc);
  out.sort((x, y) => {
    for (let i = 0; i < desc.length; i++) {
      const c = cmpCell(x.keys[i]!, y.keys[i]!);
      if (c) return desc[i] ? -c : c;
    }
    for (let i = 0; i < x.cells.length; i++) {
      const c = cmpCell(x.cells[i]!, y.cells[i]!);
      if (c) return c;
    }
    return 0;
  });
  const total = out.length;
  out = out.slice(q.skip, q.skip + limit);
  return { columns: q.items.map((it) => it.name), nodeColumns: q.items.map((it) => it.expr.t === 'var'), rows: out.map((o) => o.cells), total, aggregated };
}

/** A row's identity for DISTINCT and grouping: typed cells joined (cheaper than JSON for nodes and scalars). */
function keyOf(cells: Cell[]): string {
  let key = '';
  for (const c of cells) {
    if (c === null) key += '\u0001z';
    else if (isNodeCell(c)) key += `\u0001n${c.node}`;
    else if (typeof c === 'string') key += `\u0001s${c.length}:${c}`;
    else if (Array.isArray(c)) key += `\u0001l${JSON.stringify(c)}`;
    else key += `\u0001${typeof c === 'number' ? 'd' : 'b'}${String(c)}`;
  }
  return key;
}

/** Accumulates one aggregate of one group. */
class Acc {
  private values: Cell[] = [];
  private seen?: Set<string>;

  add(c: Cell, distinct: boolean): void {
    if (c === null) return;
    if (distinct) {
      const key = keyOf([c]);
      if ((this.seen ??= new Set()).has(key)) return;
      this.seen.add(key);
    }
    this.values.push(c);
  }

  result(fn: string, cmp: (a: Cell, b: Cell) => number, idOf: (v: NodeId) => string): Value {
    const vals = this.values;
    const nums = vals.filter((v): v is number => typeof v === 'number');
    switch (fn) {
      case 'count':
        return vals.length;
      case 'sum':
        return nums.reduce((a, b) => a + b, 0);
      case 'avg':
        return nums.length ? nums.reduce((a, b) => a + b, 0) / nums.length : null;
      case 'min':
      case 'max': {
        const scalars = vals.filter((v) => typeof v === 'number' || typeof v === 'string');
        if (!scalars.length) return null;
        return scalars.reduce((a, b) => ((fn === 'min' ? cmp(b, a) < 0 : cmp(b, a) > 0) ? b : a)) as Value;
      }
      default: // collect: nodes as their ids, sorted so the answer does not depend on match order
        return [...vals].sort(cmp).map((v) => (isNodeCell(v) ? idOf(v.node) : v)) as Value;
    }
  }
}

/**
 * The one order of cells: null after everything, then booleans, numbers, strings, lists, nodes
 * (by file, line, id).
 */
export function cellComparator(rank: Uint32Array): (a: Cell, b: Cell) => number {
  const typeRank = (c: Cell) => (c === null ? 9 : typeof c === 'boolean' ? 1 : typeof c === 'number' ? 2 : typeof c === 'string' ? 3 : Array.isArray(c) ? 4 : 5);
  const cmp = (a: Cell, b: Cell): number => {
    const ra = typeRank(a);
    const rb = typeRank(b);
    if (ra !== rb) return ra - rb;
    if (a === null || b === null) return 0;
    if (typeof a === 'boolean' || typeof a === 'number') return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
    if (Array.isArray(a)) {
      const bb = b as Value[];
      for (let i = 0; i < Math.min(a.length, bb.length); i++) {
        const c = cmp(a[i]!, bb[i]!);
        if (c) return c;
      }
      return a.length - bb.length;
    }
    return rank[(a as { node: NodeId }).node]! - rank[(b as { node: NodeId }).node]!;
  };
  return cmp;
}
