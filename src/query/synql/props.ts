import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../engine.ts';
import { bareName } from '../tokens.ts';
import type { Scalar } from './ast.ts';
import { OWNERSHIP_RELATIONS, type Property } from './schema.ts';
import { relationId } from '../../graph/model.ts';

const OWNERSHIP_IDS: ReadonlySet<number> = new Set([...OWNERSHIP_RELATIONS].map(relationId));

/**
 * A node's SYNQL properties (docs/synql.md, "Properties"), read from the index. fan_in / fan_out /
 * members are counted on demand from the CSR and memoized per engine; test_count is the engine's
 * (graph/test-reach.ts, the definition god_nodes uses).
 */
export class NodeProps {
  private fanIn?: Int32Array;
  private fanOut?: Int32Array;
  private memberCount?: Int32Array;
  private readonly columns = new Map<Property, Scalar[]>();

  constructor(readonly engine: QueryEngine) {}

  /** A reader of one property (resolved once per compiled expression, not per row). */
  getter(prop: Property): (v: NodeId) => Scalar {
    switch (prop) {
      case 'fan_in':
        return (v) => this.fan(v, 'in');
      case 'fan_out':
        return (v) => this.fan(v, 'out');
      case 'test_count':
      case 'members':
        return (v) => this.get(v, prop);
      default: {
        // A node's own fields, read once into a column: the graph's node objects come in many
        // shapes, and a column read is several times cheaper than a field lookup on each.
        let col = this.columns.get(prop);
        if (!col) {
          col = new Array<Scalar>(this.engine.ix.n);
          for (let v = 0; v < col.length; v++) col[v] = this.get(v, prop);
          this.columns.set(prop, col);
        }
        const values = col;
        return (v) => values[v]!;
      }
    }
  }

  get(v: NodeId, prop: Property): Scalar {
    const ix = this.engine.ix;
    const node = ix.node(v);
    switch (prop) {
      case 'id':
        return node.id;
      case 'name':
        return typeof node.name === 'string' && node.name ? node.name : bareName(ix.label(v));
      case 'label':
        return ix.label(v);
      case 'kind':
        return node.kind ?? null;
      case 'visibility':
        return node.visibility ?? null;
      case 'file':
        return node.source_file ?? null;
      case 'line':
        return nodeLine(node);
      case 'loc':
        return nodeLoc(node);
      case 'fan_in':
        return this.fan(v, 'in');
      case 'fan_out':
        return this.fan(v, 'out');
      case 'community':
        return ix.community[v]! >= 0 ? ix.community[v]! : null;
      case 'test_count':
        return node.kind === 'file' ? null : this.engine.testCount(v);
      case 'params':
        return node.signature ? node.signature.params.length : null;
      case 'returns':
        return node.signature?.returns ?? null;
      case 'repo':
        return typeof node.repo === 'string' && node.repo ? node.repo : null;
      case 'members':
        return this.members(v);
      case 'language':
        return typeof node.language === 'string' ? node.language : null;
      case 'is_test':
        return node.is_test === true;
    }
  }

  /** Distinct other nodes linked in (or out) by a relation other than ownership. */
  fan(v: NodeId, dir: 'in' | 'out'): number {
    const memo = dir === 'in' ? (this.fanIn ??= new Int32Array(this.engine.ix.n).fill(-1)) : (this.fanOut ??= new Int32Array(this.engine.ix.n).fill(-1));
    if (memo[v]! >= 0) return memo[v]!;
    const ix = this.engine.ix;
    const off = dir === 'in' ? ix.inOff : ix.outOff;
    const edges = dir === 'in' ? ix.inEdges : ix.outEdges;
    const ends = dir === 'in' ? ix.g.src : ix.g.dst;
    const seen = new Set<number>();
    for (let k = off[v]!; k < off[v + 1]!; k++) {
      const e = edges[k]!;
      if (OWNERSHIP_IDS.has(ix.g.rel[e]!)) continue;
      const u = ends[e]!;
      if (u !== v) seen.add(u);
    }
    return (memo[v] = seen.size);
  }

  private members(v: NodeId): number {
    const ix = this.engine.ix;
    if (!ix.isType(v)) return 0;
    const memo = (this.memberCount ??= new Int32Array(ix.n).fill(-1));
    if (memo[v]! < 0) memo[v] = ix.members(v).length;
    return memo[v]!;
  }
}

export function nodeLine(node: { span?: { start_line: number }; source_location?: string }): number | null {
  if (node.span) return node.span.start_line;
  const m = /(\d+)/.exec(String(node.source_location ?? ''));
  return m ? Number(m[1]) : null;
}

export function nodeLoc(node: { span?: { start_line: number; end_line: number }; loc?: unknown; lines?: unknown }): number | null {
  if (node.span) return node.span.end_line - node.span.start_line + 1;
  if (typeof node.loc === 'number') return node.loc;
  if (typeof node.lines === 'number') return node.lines;
  return null;
}
