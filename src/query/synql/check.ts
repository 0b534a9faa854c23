import { hasAggregate, type Expr, type Query } from './ast.ts';
import { SynqlError } from './errors.ts';
import { KIND_SET, PROPERTIES, PROPERTY_SET, RELATION_SET } from './schema.ts';
import { NODE_KINDS, RELATIONS } from '../../graph/model.ts';

/**
 * The checks after parsing: every kind, relation type, property and variable is known (an unknown
 * one is an error listing the valid names), aggregates appear only in RETURN / ORDER BY, and a
 * later pattern joins an earlier one (a disconnected pattern would pair every node with every node).
 */
export function checkQuery(q: Query): void {
  const src = q.source;
  const bound = new Set<string>();
  q.patterns.forEach((path, p) => {
    if (p > 0 && !path.nodes.some((n) => !n.anonymous && bound.has(n.v))) {
      throw new SynqlError(`this pattern shares no variable with the ones before it: name a node of it after one already matched, e.g. MATCH (c:class)-->(a), (c)-->(b)`, path.nodes[0]!.pos, src);
    }
    for (const n of path.nodes) {
      n.kinds.forEach((k, i) => {
        if (!KIND_SET.has(k)) throw new SynqlError(`unknown kind '${k}'; the kinds are ${NODE_KINDS.join(', ')}`, n.kindPos[i]!, src);
      });
      for (const pr of n.props) checkProp(pr.prop, pr.pos, src);
      if (!n.anonymous) bound.add(n.v);
    }
    for (const r of path.rels) {
      r.types.forEach((t, i) => {
        if (!RELATION_SET.has(t)) throw new SynqlError(`unknown relation type '${t}'; the types are ${RELATIONS.join(', ')}`, r.typePos[i]!, src);
      });
    }
  });
  if (q.where) {
    if (hasAggregate(q.where)) throw new SynqlError('aggregates (count, min, ...) belong in RETURN, not WHERE', aggPos(q.where) ?? q.where.pos, src);
    checkExpr(q.where, bound, src);
  }
  const aggregated = q.items.some((it) => hasAggregate(it.expr));
  const names = new Set<string>();
  for (const it of q.items) {
    checkExpr(it.expr, bound, src);
    if (it.expr.t === 'agg' && it.expr.arg && hasAggregate(it.expr.arg)) throw new SynqlError('an aggregate cannot contain another aggregate', it.expr.arg.pos, src);
    if (hasAggregate(it.expr) && it.expr.t !== 'agg') throw new SynqlError('an aggregate must be a whole RETURN item, e.g. count(f) AS n', aggPos(it.expr) ?? it.expr.pos, src);
    if (names.has(it.name)) throw new SynqlError(`two columns are named '${it.name}': rename one with AS`, it.expr.pos, src);
    names.add(it.name);
  }
  for (const o of q.order) {
    const named = o.expr.t === 'var' && names.has(o.expr.v);
    if (!named) checkExpr(o.expr, bound, src);
    if ((aggregated || q.distinct) && !named && !q.items.some((it) => sameExpr(it.expr, o.expr))) {
      throw new SynqlError(`with ${aggregated ? 'aggregates' : 'DISTINCT'}, ORDER BY must name a returned column (its alias or the same expression)`, o.expr.pos, src);
    }
    if (hasAggregate(o.expr) && !q.items.some((it) => sameExpr(it.expr, o.expr))) throw new SynqlError('ORDER BY an aggregate must repeat a RETURN item (or use its alias)', o.expr.pos, src);
  }
}

function checkProp(prop: string, pos: number, src: string): void {
  if (!PROPERTY_SET.has(prop)) throw new SynqlError(`unknown property '${prop}'; the properties are ${PROPERTIES.join(', ')}`, pos, src);
}

function checkExpr(e: Expr, bound: ReadonlySet<string>, src: string): void {
  switch (e.t) {
    case 'prop':
      if (!bound.has(e.v)) throw new SynqlError(`unknown variable '${e.v}': name it in MATCH first${bound.size ? ` (known: ${[...bound].join(', ')})` : ''}`, e.pos - e.v.length - 1, src);
      checkProp(e.prop, e.pos, src);
      return;
    case 'var':
      if (!bound.has(e.v)) throw new SynqlError(`unknown variable '${e.v}': name it in MATCH first${bound.size ? ` (known: ${[...bound].join(', ')})` : ''}`, e.pos, src);
      return;
    case 'not':
    case 'isnull':
      return checkExpr(e.e, bound, src);
    case 'and':
    case 'or':
    case 'xor':
    case 'cmp':
      checkExpr(e.l, bound, src);
      checkExpr(e.r, bound, src);
      if (e.t === 'cmp' && e.op === '=~' && e.r.t !== 'lit') throw new SynqlError("=~ takes a regex string literal, e.g. n.name =~ '^get'", e.r.pos, src);
      if (e.t === 'cmp' && e.op === '=~' && e.r.t === 'lit' && typeof e.r.value !== 'string') throw new SynqlError("=~ takes a regex string literal, e.g. n.name =~ '^get'", e.r.pos, src);
      return;
    case 'list':
      for (const x of e.items) checkExpr(x, bound, src);
      return;
    case 'agg':
      if (e.arg) checkExpr(e.arg, bound, src);
      return;
    case 'lit':
      return;
  }
}

function aggPos(e: Expr): number | undefined {
  if (e.t === 'agg') return e.pos;
  if (e.t === 'not' || e.t === 'isnull') return aggPos(e.e);
  if (e.t === 'and' || e.t === 'or' || e.t === 'xor' || e.t === 'cmp') return aggPos(e.l) ?? aggPos(e.r);
  if (e.t === 'list') for (const x of e.items) if (aggPos(x) !== undefined) return aggPos(x);
  return undefined;
}

/** Structural equality of two expressions (positions ignored). */
export function sameExpr(a: Expr, b: Expr): boolean {
  return JSON.stringify(a, dropPos) === JSON.stringify(b, dropPos);
}

function dropPos(key: string, value: unknown): unknown {
  return key === 'pos' ? undefined : value;
}
