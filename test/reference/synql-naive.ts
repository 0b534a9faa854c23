/**
 * A straightforward SYNQL evaluator over a parsed graph.json, the reference the planned one
 * (src/query/synql/) is checked against: every pattern node ranges over every node, relations are
 * walks over each node's links, WHERE is interpreted once per complete binding, and properties are
 * computed from the JSON as docs/synql.md defines them. No index, no CSR, no anchoring. Slow on
 * purpose; it shares only the parser (the AST) with the code under test.
 */
import type { Expr, Query, Value } from '../../src/query/synql/ast.ts';
import { isTestFile } from '../../src/graph/test-paths.ts';
import { bareName } from '../../src/query/tokens.ts';

interface JNode {
  id: string;
  label?: string;
  kind?: string;
  source_file?: string;
  source_location?: string;
  span?: { start_line: number; end_line: number };
  signature?: { params: unknown[]; returns?: string };
  [k: string]: unknown;
}
interface JLink {
  source: string;
  target: string;
  relation: string;
}
export interface NaiveDoc {
  nodes: JNode[];
  links: JLink[];
}

export type NaiveCell = { id: string } | Value;
export interface NaiveTable {
  columns: string[];
  rows: NaiveCell[][];
  total: number;
}

const OWN = new Set(['contains', 'defines', 'method']);
const TYPES = new Set(['class', 'struct', 'interface', 'enum', 'trait']);
const TEST_RELS = new Set(['calls', 'references', 'uses', 'instantiates', 'tests', 'imports_from', 're_exports', 'inherits', 'extends', 'implements', 'mixes_in', 'embeds', 'depends_on', 'reads_from', 'invokes', 'binds_native', 'calls_service', 'handled_by', 'dynamic_ref']);

export class NaiveSynql {
  private readonly byId = new Map<string, JNode>();
  private readonly memo = new Map<string, Value>();

  constructor(
    private readonly doc: NaiveDoc,
    private readonly regex: (pattern: string, s: string) => boolean,
  ) {
    for (const n of doc.nodes) this.byId.set(n.id, n);
  }

  prop(id: string, prop: string): Value {
    const key = `${id}\u0000${prop}`;
    if (this.memo.has(key)) return this.memo.get(key)!;
    const value = this.compute(id, prop);
    this.memo.set(key, value);
    return value;
  }

  private compute(id: string, prop: string): Value {
    const n = this.byId.get(id)!;
    const label = String(n.label ?? n.id);
    switch (prop) {
      case 'id':
        return n.id;
      case 'name':
        return typeof n.name === 'string' && n.name !== '' ? n.name : bareName(label);
      case 'label':
        return label;
      case 'kind':
        return n.kind ?? null;
      case 'visibility':
        return (n.visibility as string | undefined) ?? null;
      case 'file':
        return n.source_file ?? null;
      case 'line': {
        if (n.span) return n.span.start_line;
        const m = /(\d+)/.exec(String(n.source_location ?? ''));
        return m ? Number(m[1]) : null;
      }
      case 'loc':
        if (n.span) return n.span.end_line - n.span.start_line + 1;
        if (typeof n.loc === 'number') return n.loc;
        if (typeof n.lines === 'number') return n.lines;
        return null;
      case 'fan_in':
      case 'fan_out': {
        const ends = new Set<string>();
        for (const l of prop === 'fan_in' ? this.linksInto(id) : this.linksFrom(id)) {
          if (OWN.has(l.relation)) continue;
          const other = prop === 'fan_in' ? l.source : l.target;
          if (other !== id) ends.add(other);
        }
        return ends.size;
      }
      case 'community':
        return typeof n.community === 'number' ? n.community : null;
      case 'params':
        return n.signature ? n.signature.params.length : null;
      case 'returns':
        return n.signature?.returns ?? null;
      case 'repo':
        return typeof n.repo === 'string' && n.repo !== '' ? n.repo : null;
      case 'members':
        return TYPES.has(String(n.kind)) ? this.membersOf(id).length : 0;
      case 'language':
        return typeof n.language === 'string' ? n.language : null;
      case 'is_test':
        return n.is_test === true;
      case 'test_count':
        return n.kind === 'file' ? null : this.testCount(id);
    }
    throw new Error(`naive: no property ${prop}`);
  }

  private testGraph?: { idOf: Map<string, number>; nodes: never };
  private into?: Map<string, JLink[]>;
  private from?: Map<string, JLink[]>;

  private linksInto(id: string): JLink[] {
    if (!this.into) {
      this.into = new Map();
      for (const l of this.doc.links) {
        const list = this.into.get(l.target);
        if (list) list.push(l);
        else this.into.set(l.target, [l]);
      }
    }
    return this.into.get(id) ?? [];
  }

  private linksFrom(id: string): JLink[] {
    if (!this.from) {
      this.from = new Map();
      for (const l of this.doc.links) {
        const list = this.from.get(l.source);
        if (list) list.push(l);
        else this.from.set(l.source, [l]);
      }
    }
    return this.from.get(id) ?? [];
  }

  private membersOf(id: string): string[] {
    return [...new Set(this.linksFrom(id).filter((l) => OWN.has(l.relation)).map((l) => l.target))];
  }

  /** Test files with a node from which id (or a member of a type) is reached backward within 6 hops. */
  private testCount(id: string): number {
    const n = this.byId.get(id)!;
    const seeds = TYPES.has(String(n.kind)) ? [id, ...this.membersOf(id)] : [id];
    const depth = new Map<string, number>(seeds.map((s) => [s, 0]));
    let frontier = new Set(seeds);
    const files = new Set<string>();
    const g = (this.testGraph ??= { idOf: new Map(this.doc.nodes.map((x, i) => [x.id, i])), nodes: this.doc.nodes as never });
    for (let d = 1; d <= 6 && frontier.size; d++) {
      const next = new Set<string>();
      for (const l of this.doc.links) {
        if (!TEST_RELS.has(l.relation) || !frontier.has(l.target) || depth.has(l.source)) continue;
        depth.set(l.source, d);
        next.add(l.source);
        const file = String(this.byId.get(l.source)?.source_file ?? '');
        if (isTestFile(g, file)) files.add(file);
      }
      frontier = next;
    }
    return files.size;
  }

  /** Nodes at the end of a walk of exactly k steps for some k in min..max. */
  private readonly reachMemo = new Map<string, Set<string>>();

  private reach(a: string, types: string[], dir: 'out' | 'in' | 'both', min: number, max: number): Set<string> {
    const key = JSON.stringify([a, types, dir, min, max]);
    const known = this.reachMemo.get(key);
    if (known) return known;
    const out = new Set<string>();
    this.reachMemo.set(key, out);
    if (min === 0) out.add(a);
    let layer = new Set([a]);
    for (let k = 1; k <= max && layer.size; k++) {
      const next = new Set<string>();
      for (const x of layer) {
        if (dir !== 'in') for (const l of this.linksFrom(x)) if (!types.length || types.includes(l.relation)) next.add(l.target);
        if (dir !== 'out') for (const l of this.linksInto(x)) if (!types.length || types.includes(l.relation)) next.add(l.source);
      }
      if (k >= min) for (const x of next) out.add(x);
      layer = next;
    }
    return out;
  }

  run(q: Query, limit: number): NaiveTable {
    let bindings: Array<Map<string, string>> = [new Map()];
    for (const path of q.patterns) {
      for (let i = 0; i < path.nodes.length; i++) {
        const np = path.nodes[i]!;
        const next: Array<Map<string, string>> = [];
        for (const b of bindings) {
          const rel = i > 0 ? path.rels[i - 1]! : undefined;
          const reachable = rel ? this.reach(b.get(path.nodes[i - 1]!.v)!, rel.types, rel.dir, rel.min, rel.max) : undefined;
          // The first node of a path ranges over every node; a later one over what the relation reaches.
          const cands = b.has(np.v) ? [this.byId.get(b.get(np.v)!)!] : reachable ? [...reachable].map((id) => this.byId.get(id)!) : this.doc.nodes;
          for (const cand of cands) {
            if (np.kinds.length && !np.kinds.includes(String(cand.kind))) continue;
            if (!np.props.every((p) => eq(this.prop(cand.id, p.prop), p.value))) continue;
            if (reachable && !reachable.has(cand.id)) continue;
            const nb = new Map(b);
            nb.set(np.v, cand.id);
            next.push(nb);
          }
        }
        bindings = next;
      }
    }
    if (q.where) bindings = bindings.filter((b) => this.eval(q.where!, b) === true);
    return this.project(q, bindings, limit);
  }

  eval(e: Expr, b: Map<string, string>): Value {
    switch (e.t) {
      case 'lit':
        return e.value;
      case 'list':
        return e.items.map((x) => this.eval(x, b));
      case 'prop':
        return this.prop(b.get(e.v)!, e.prop);
      case 'var':
        return b.get(e.v)!;
      case 'not':
        return !(this.eval(e.e, b) === true);
      case 'and':
        return this.eval(e.l, b) === true && this.eval(e.r, b) === true;
      case 'or':
        return this.eval(e.l, b) === true || this.eval(e.r, b) === true;
      case 'xor':
        return (this.eval(e.l, b) === true) !== (this.eval(e.r, b) === true);
      case 'isnull':
        return e.negate ? this.eval(e.e, b) !== null : this.eval(e.e, b) === null;
      case 'cmp': {
        const l = this.eval(e.l, b);
        const r = this.eval(e.r, b);
        if (l === null || r === null) return false;
        const bothNum = typeof l === 'number' && typeof r === 'number';
        const bothStr = typeof l === 'string' && typeof r === 'string';
        switch (e.op) {
          case '=':
            return (bothNum || bothStr || (typeof l === 'boolean' && typeof r === 'boolean')) && l === r;
          case '<>':
            return (bothNum || bothStr || (typeof l === 'boolean' && typeof r === 'boolean')) && l !== r;
          case '<':
            return (bothNum || bothStr) && (l as number) < (r as number);
          case '<=':
            return (bothNum || bothStr) && (l as number) <= (r as number);
          case '>':
            return (bothNum || bothStr) && (l as number) > (r as number);
          case '>=':
            return (bothNum || bothStr) && (l as number) >= (r as number);
          case 'IN':
            return Array.isArray(r) && !Array.isArray(l) && r.includes(l);
          case 'STARTS WITH':
            return bothStr && (l as string).startsWith(r as string);
          case 'ENDS WITH':
            return bothStr && (l as string).endsWith(r as string);
          case 'CONTAINS':
            return bothStr && (l as string).includes(r as string);
          case '=~':
            return typeof l === 'string' && this.regex(String(r), l);
        }
        return false;
      }
      case 'agg':
        throw new Error('naive: aggregate in a scalar position');
    }
  }

  private project(q: Query, bindings: Array<Map<string, string>>, limit: number): NaiveTable {
    const cell = (e: Expr, b: Map<string, string>): NaiveCell => (e.t === 'var' ? { id: b.get(e.v)! } : this.eval(e, b));
    const isAgg = (e: Expr) => e.t === 'agg';
    const aggregated = q.items.some((it) => isAgg(it.expr));
    type R = { cells: NaiveCell[]; keys: NaiveCell[] };
    let rows: R[] = [];
    const colOf = (o: Expr) => {
      if (o.t === 'var') {
        const a = q.items.findIndex((it) => it.name === o.v);
        if (a >= 0) return a;
      }
      return q.items.findIndex((it) => strip(it.expr) === strip(o));
    };
    if (!aggregated) {
      const seen = new Set<string>();
      for (const b of bindings) {
        const cells = q.items.map((it) => cell(it.expr, b));
        if (q.distinct) {
          const k = JSON.stringify(cells);
          if (seen.has(k)) continue;
          seen.add(k);
        }
        rows.push({ cells, keys: q.order.map((o) => (colOf(o.expr) >= 0 ? cells[colOf(o.expr)]! : cell(o.expr, b))) });
      }
    } else {
      const groups = new Map<string, { key: NaiveCell[]; members: Array<Map<string, string>> }>();
      for (const b of bindings) {
        const key = q.items.map((it) => (isAgg(it.expr) ? null : cell(it.expr, b)));
        const k = JSON.stringify(key);
        if (!groups.has(k)) groups.set(k, { key, members: [] });
        groups.get(k)!.members.push(b);
      }
      if (!groups.size && q.items.every((it) => isAgg(it.expr))) groups.set('', { key: q.items.map(() => null), members: [] });
      for (const g of groups.values()) {
        const cells = q.items.map((it, i) => {
          const e = it.expr;
          if (e.t !== 'agg') return g.key[i]!;
          let vals = g.members.map((b) => (e.arg ? cell(e.arg, b) : true)).filter((v) => v !== null);
          if (e.distinct) vals = [...new Map(vals.map((v) => [JSON.stringify(v), v])).values()];
          const nums = vals.filter((v): v is number => typeof v === 'number');
          switch (e.fn) {
            case 'count':
              return vals.length;
            case 'sum':
              return nums.reduce((a, x) => a + x, 0);
            case 'avg':
              return nums.length ? nums.reduce((a, x) => a + x, 0) / nums.length : null;
            case 'min':
            case 'max': {
              const sc = vals.filter((v) => typeof v === 'number' || typeof v === 'string');
              if (!sc.length) return null;
              const s = [...sc].sort((a, x) => this.cmp(a, x));
              return (e.fn === 'min' ? s[0] : s[s.length - 1]) as Value;
            }
            case 'collect':
              return [...vals].sort((a, x) => this.cmp(a, x)).map((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v.id : v)) as Value;
          }
        });
        rows.push({ cells, keys: q.order.map((o) => cells[colOf(o.expr)]!) });
      }
    }
    rows.sort((x, y) => {
      for (let i = 0; i < q.order.length; i++) {
        const c = this.cmp(x.keys[i]!, y.keys[i]!);
        if (c !== 0) return q.order[i]!.desc ? -c : c;
      }
      for (let i = 0; i < x.cells.length; i++) {
        const c = this.cmp(x.cells[i]!, y.cells[i]!);
        if (c !== 0) return c;
      }
      return 0;
    });
    const total = rows.length;
    rows = rows.slice(q.skip, q.skip + limit);
    return { columns: q.items.map((it) => it.name), rows: rows.map((r) => r.cells), total };
  }

  /** null last; boolean < number < string < list < node; nodes by (file, line, id). */
  cmp(a: NaiveCell, b: NaiveCell): number {
    const t = (c: NaiveCell) => (c === null ? 9 : typeof c === 'boolean' ? 1 : typeof c === 'number' ? 2 : typeof c === 'string' ? 3 : Array.isArray(c) ? 4 : 5);
    if (t(a) !== t(b)) return t(a) - t(b);
    if (a === null) return 0;
    if (typeof a === 'boolean' || typeof a === 'number') return Number(a) - Number(b);
    if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
    if (Array.isArray(a)) {
      const bb = b as Value[];
      for (let i = 0; i < Math.min(a.length, bb.length); i++) {
        const c = this.cmp(a[i]!, bb[i]!);
        if (c) return c;
      }
      return a.length - bb.length;
    }
    const x = (a as { id: string }).id;
    const y = (b as { id: string }).id;
    const key = (id: string): [string, number, string] => [String(this.prop(id, 'file') ?? ''), (this.prop(id, 'line') as number | null) ?? 0, id];
    const [fx, lx, ix] = key(x);
    const [fy, ly, iy] = key(y);
    if (fx !== fy) return fx < fy ? -1 : 1;
    if (lx !== ly) return lx - ly;
    return ix < iy ? -1 : ix > iy ? 1 : 0;
  }
}

function eq(a: Value, b: Value): boolean {
  return a !== null && b !== null && typeof a === typeof b && !Array.isArray(a) && a === b;
}

function strip(e: Expr): string {
  return JSON.stringify(e, (k, v: unknown) => (k === 'pos' ? undefined : v));
}
