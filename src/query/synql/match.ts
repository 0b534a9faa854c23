import { relationId, type NodeId } from '../../graph/model.ts';
import type { Expr, NodePattern, PathPattern, Query, RelPattern } from './ast.ts';
import { varsOf } from './ast.ts';
import { SynqlBudgetError } from './errors.ts';
import { compileExpr, type Regexes, type RowFn } from './expr.ts';
import { anchorCandidates, type SynqlIndex } from './synql-index.ts';
import type { Budgets } from './schema.ts';

/** The matched rows before RETURN: one node id per variable slot. */
export interface Bindings {
  slots: ReadonlyMap<string, number>;
  rows: Int32Array[];
}

interface Conjunct {
  expr: Expr;
  fn: RowFn;
  slots: number[];
  cost: number;
}

/**
 * Match a query's patterns over the index (docs/synql.md, "How a query runs"): each path starts at
 * its most selective node (a name, label, id, file or community lookup, else the kind index), grows
 * one relation at a time through the CSR, and every WHERE conjunct is checked as soon as its
 * variables are bound. Never a scan of node pairs; the rows, hops and time budgets bound the work.
 */
export class Matcher {
  private readonly slots = new Map<string, number>();
  private readonly kinds: Array<Set<string> | null> = [];
  private readonly single: Conjunct[][] = [];
  private readonly multi: Conjunct[] = [];
  private readonly applied = new Set<Conjunct>();
  private readonly resStamp: Uint32Array;
  private readonly layerStamp: Uint32Array;
  private resGen = 0;
  private layerGen = 0;
  private steps = 0;
  private row: Int32Array = new Int32Array(0);

  constructor(
    private readonly q: Query,
    private readonly sx: SynqlIndex,
    re: Regexes,
    private readonly budgets: Budgets,
    private readonly deadline: number,
  ) {
    const n = sx.engine.ix.n;
    this.resStamp = new Uint32Array(n);
    this.layerStamp = new Uint32Array(n);
    const conjuncts: Expr[] = [];
    for (const path of q.patterns) {
      for (const node of path.nodes) {
        let slot = this.slots.get(node.v);
        if (slot === undefined) {
          slot = this.slots.size;
          this.slots.set(node.v, slot);
          this.kinds.push(null);
          this.single.push([]);
        }
        if (node.kinds.length) {
          const mine = new Set(node.kinds);
          const prev = this.kinds[slot];
          this.kinds[slot] = prev ? new Set([...prev].filter((k) => mine.has(k))) : mine;
        }
        for (const p of node.props) conjuncts.push(propEquals(node, p));
      }
    }
    if (q.where) splitAnd(q.where, conjuncts);
    for (const expr of conjuncts) {
      const slots = [...varsOf(expr)].map((v) => this.slots.get(v)!);
      const c: Conjunct = { expr, fn: compileExpr(expr, { slot: (v) => this.slots.get(v)!, props: sx.props, re }), slots, cost: costOf(expr) };
      if (slots.length === 1) this.single[slots[0]!]!.push(c);
      else this.multi.push(c);
    }
    for (const list of this.single) list.sort((a, b) => a.cost - b.cost);
  }

  run(): Bindings {
    for (const path of this.q.patterns) for (const rel of path.rels) this.checkHops(rel);
    const width = this.slots.size;
    // Conjuncts without variables (constants) decide everything at once.
    for (const c of this.multi) {
      if (c.slots.length) continue;
      this.applied.add(c);
      if (c.fn(new Int32Array(0)) !== true) return { slots: this.slots, rows: [] };
    }
    let rows: Int32Array[] = [new Int32Array(width).fill(-1)];
    for (const path of this.q.patterns) {
      rows = this.matchPath(path, rows);
      if (!rows.length) break;
    }
    return { slots: this.slots, rows };
  }

  private checkHops(rel: RelPattern): void {
    if (rel.max > this.budgets.hops) {
      const written = Number.isFinite(rel.max) ? `*${rel.min}..${rel.max}` : `an unbounded *`;
      throw new SynqlBudgetError('hops', `Budget: ${written} passes the hops limit (${this.budgets.hops}); write an upper bound of at most ${this.budgets.hops}, e.g. *${rel.min}..${Math.min(3, this.budgets.hops)}`);
    }
  }

  private matchPath(path: PathPattern, input: Int32Array[]): Int32Array[] {
    const slotOf = path.nodes.map((n) => this.slots.get(n.v)!);
    // Start where a variable is already bound (a join), else at the most selective node.
    let anchor = slotOf.findIndex((s) => input[0]![s]! >= 0);
    let rows = input;
    if (anchor < 0) {
      let best = Infinity;
      let bestList: ArrayLike<number> | null = null;
      slotOf.forEach((s, i) => {
        const list = anchorCandidates(this.sx, this.kinds[s] ?? null, this.single[s]!.map((c) => c.expr));
        const size = list ? list.length : Infinity;
        if (anchor < 0 || size < best) {
          anchor = i;
          best = size;
          bestList = list;
        }
      });
      rows = this.bindAnchor(slotOf[anchor]!, bestList, input);
    }
    for (let i = anchor; i + 1 < path.nodes.length; i++) rows = this.step(rows, slotOf[i]!, path.rels[i]!, false, slotOf[i + 1]!);
    for (let i = anchor; i > 0; i--) rows = this.step(rows, slotOf[i]!, path.rels[i - 1]!, true, slotOf[i - 1]!);
    return rows;
  }

  private bindAnchor(slot: number, list: ArrayLike<number> | null, input: Int32Array[]): Int32Array[] {
    const out: Int32Array[] = [];
    const n = list ? list.length : this.sx.engine.ix.n;
    for (const base of input) {
      this.row = base;
      for (let i = 0; i < n; i++) {
        const v = list ? list[i]! : i;
        this.tick();
        if (!this.nodeOk(slot, v)) continue;
        const row = base.slice();
        row[slot] = v;
        this.row = row;
        if (!this.rowOk()) continue;
        out.push(row);
        this.checkRows(out.length);
      }
    }
    return out;
  }

  private step(rows: Int32Array[], fromSlot: number, rel: RelPattern, reverse: boolean, toSlot: number): Int32Array[] {
    const out: Int32Array[] = [];
    const mask = rel.types.length ? rel.types.reduce((m, t) => (m | (1 << relationId(t))) >>> 0, 0) : 0xffffffff;
    const dir = rel.dir === 'both' ? 'both' : (rel.dir === 'out') !== reverse ? 'out' : 'in';
    for (const row of rows) {
      const bound = row[toSlot]!;
      for (const u of this.reach(row[fromSlot]!, dir, mask, rel.min, rel.max)) {
        if (bound >= 0) {
          if (u !== bound) continue;
          this.row = row;
          out.push(row);
          break;
        }
        this.row = row;
        if (!this.nodeOk(toSlot, u)) continue;
        const next = row.slice();
        next[toSlot] = u;
        this.row = next;
        if (!this.rowOk()) continue;
        out.push(next);
        this.checkRows(out.length);
      }
    }
    return out;
  }

  /**
   * Nodes at the end of a walk of min..max steps from a: a breadth-first search when min <= 1 (the
   * start itself counts when a cycle returns to it in time), else layer by layer.
   */
  private reach(a: NodeId, dir: 'out' | 'in' | 'both', mask: number, min: number, max: number): NodeId[] {
    const out: NodeId[] = [];
    const res = ++this.resGen;
    if (min === 0) {
      this.resStamp[a] = res;
      out.push(a);
    }
    if (max === 0) return out;
    if (min <= 1) {
      const layer = ++this.layerGen;
      this.layerStamp[a] = layer;
      let frontier = [a];
      for (let k = 1; k <= max && frontier.length; k++) {
        const next: NodeId[] = [];
        this.neighbours(frontier, dir, mask, (u) => {
          if (u === a && this.resStamp[a] !== res) {
            this.resStamp[a] = res;
            out.push(a);
          }
          if (this.layerStamp[u] === layer) return;
          this.layerStamp[u] = layer;
          next.push(u);
          this.resStamp[u] = res;
          out.push(u);
        });
        frontier = next;
      }
      return out;
    }
    let frontier = [a];
    for (let k = 1; k <= max && frontier.length; k++) {
      const layer = ++this.layerGen;
      const next: NodeId[] = [];
      this.neighbours(frontier, dir, mask, (u) => {
        if (this.layerStamp[u] === layer) return;
        this.layerStamp[u] = layer;
        next.push(u);
        if (k >= min && this.resStamp[u] !== res) {
          this.resStamp[u] = res;
          out.push(u);
        }
      });
      frontier = next;
    }
    return out;
  }

  private neighbours(frontier: NodeId[], dir: 'out' | 'in' | 'both', mask: number, visit: (u: NodeId) => void): void {
    const ix = this.sx.engine.ix;
    const rel = ix.g.rel;
    for (const x of frontier) {
      if (dir !== 'in') {
        for (let k = ix.outOff[x]!; k < ix.outOff[x + 1]!; k++) {
          const e = ix.outEdges[k]!;
          this.tick();
          if ((mask >>> rel[e]!) & 1) visit(ix.g.dst[e]!);
        }
      }
      if (dir !== 'out') {
        for (let k = ix.inOff[x]!; k < ix.inOff[x + 1]!; k++) {
          const e = ix.inEdges[k]!;
          this.tick();
          if ((mask >>> rel[e]!) & 1) visit(ix.g.src[e]!);
        }
      }
    }
  }

  /** Kind and single-variable conjuncts of a slot, cheapest first. `this.row` is the row being grown. */
  private nodeOk(slot: number, v: NodeId): boolean {
    const kinds = this.kinds[slot];
    if (kinds && !kinds.has(String(this.sx.engine.ix.node(v).kind))) return false;
    const conj = this.single[slot]!;
    if (!conj.length) return true;
    // Checked on the row being grown, with the candidate in its slot for the moment.
    const row = this.row;
    const old = row[slot]!;
    row[slot] = v;
    let ok = true;
    for (const c of conj) {
      if (c.fn(row) !== true) {
        ok = false;
        break;
      }
    }
    row[slot] = old;
    return ok;
  }

  /** The multi-variable conjuncts whose variables are all bound now. */
  private rowOk(): boolean {
    for (const c of this.multi) {
      if (!c.slots.length || !c.slots.every((s) => this.row[s]! >= 0)) continue;
      if (c.fn(this.row) !== true) return false;
    }
    return true;
  }

  private tick(): void {
    if ((++this.steps & 4095) === 0 && performance.now() > this.deadline) {
      throw new SynqlBudgetError('time', `Budget: the query ran past the time limit (${this.budgets.timeMs} ms) after ${this.steps} steps; narrow it with a kind, a WHERE on the first node (name, file), or fewer hops`);
    }
  }

  private checkRows(count: number): void {
    if (count > this.budgets.rows) {
      throw new SynqlBudgetError('rows', `Budget: more than ${this.budgets.rows} matches before RETURN (the rows limit); narrow the pattern with a kind, a WHERE on the first node (name, file, community) or fewer hops`);
    }
  }
}

function splitAnd(e: Expr, out: Expr[]): void {
  if (e.t === 'and') {
    splitAnd(e.l, out);
    splitAnd(e.r, out);
  } else out.push(e);
}

function propEquals(node: NodePattern, p: NodePattern['props'][number]): Expr {
  return { t: 'cmp', op: '=', l: { t: 'prop', v: node.v, prop: p.prop, pos: p.pos }, r: { t: 'lit', value: p.value, pos: p.pos }, pos: p.pos };
}

/** Rough relative cost, so cheap checks run first: test_count walks the graph, regexes scan strings. */
function costOf(e: Expr): number {
  const text = JSON.stringify(e);
  return (text.includes('"test_count"') ? 100 : 0) + (text.includes('"fan_') || text.includes('"members"') ? 10 : 0) + (text.includes('"=~"') ? 5 : 0) + 1;
}
