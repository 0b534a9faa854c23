import { OTHER_RELATION_ID, RELATIONS, type NodeId } from '../graph/model.ts';
import type { GraphIndex } from '../query/graph-index.ts';
import { CALL_MASK, IMPACT_MASK } from '../query/relations.ts';
import { compareText } from './labels.ts';

/**
 * What the explorer asks of the graph, answered on the WASM core (neighbourhood BFS, shortest path,
 * reverse impact, PageRank) and the query engine's index (edges, labels, communities). Plain data out,
 * no DOM, so the same functions are tested in Node and run in the browser.
 */

/** The core graph operations the explorer uses (the shape of `CoreGraph` in src/core). */
export interface ExplorerCore {
  bfs(source: number, opts?: { maxDepth?: number; relMask?: number; direction?: 'out' | 'in' | 'both' }): Int32Array;
  shortestPath(s: number, t: number, opts?: { relMask?: number; undirected?: boolean; maxHops?: number }): Uint32Array | null;
  reverseReach(seeds: ArrayLike<number>, opts: { k: number; relMask?: number }): { nodes: Uint32Array; depth: Uint8Array; via: Uint8Array };
  pagerank(opts?: { alpha?: number; iterations?: number; tolerance?: number }): Float64Array;
  leiden(opts?: { resolution?: number; seed?: number }): { membership: Uint32Array; count: number };
}


export interface EdgeRef {
  /** Edge index in the index's link list. */
  edge: number;
  /** The node on the other end. */
  other: NodeId;
  relation: string;
  line: string;
}

/** A focused symbol with its callers (negative columns) and callees (positive columns). */
export interface Focus {
  center: NodeId;
  /** Column -1: callers, -2: their callers (of expanded callers), 1: callees, 2: theirs, ... */
  columns: Map<number, NodeId[]>;
  /** Call edges among the shown nodes (every relation when the centre has no call edge). */
  edges: number[];
  /** For each shown node: how many of its callers (left side) or callees (right side) are not shown. */
  more: Map<NodeId, number>;
  /** Callers (side -1) and callees (side 1) a column could not hold. */
  omitted: { callers: number; callees: number };
  /** false when the centre has no call edges and the columns hold its other links instead. */
  calls: boolean;
}

export interface Neighbourhood {
  center: NodeId;
  nodes: NodeId[];
  /** Edge indices between the shown nodes. */
  edges: number[];
  /** Nodes within the hop limit before the cap. */
  reached: number;
  capped: boolean;
}

/** Everything the explorer computes once per loaded graph. */
export class ExplorerGraph {
  readonly pagerank: Float64Array;
  /** The largest PageRank value (node sizes are relative to it). */
  readonly maxPagerank: number;

  constructor(
    readonly ix: GraphIndex,
    readonly core: ExplorerCore,
  ) {
    this.pagerank = ix.n > 0 ? core.pagerank({ iterations: 30, tolerance: 1e-9 }) : new Float64Array(0);
    if (ix.n > 0 && ix.communities.size === 0) this.detectCommunities();
    let max = 0;
    for (const x of this.pagerank) if (x > max) max = x;
    this.maxPagerank = max;
  }

  /**
   * A graph without community assignments (an older or hand-made graph.json) gets them here, in the
   * page, from the core's Leiden (fixed seed, so a reload shows the same colours).
   */
  private detectCommunities(): void {
    const { membership } = this.core.leiden({ seed: 1 });
    const { ix } = this;
    for (let v = 0; v < ix.n; v++) {
      const c = membership[v]!;
      ix.community[v] = c;
      const members = ix.communities.get(c);
      if (members) members.push(v);
      else ix.communities.set(c, [v]);
    }
  }

  /** Callers (incoming call-like edges), sorted by label then line. */
  callers(v: NodeId): EdgeRef[] {
    return this.edgesOf(v, 'in', CALL_MASK);
  }

  /** Callees (outgoing call-like edges), sorted by label then line. */
  callees(v: NodeId): EdgeRef[] {
    return this.edgesOf(v, 'out', CALL_MASK);
  }

  private edgesOf(v: NodeId, dir: 'in' | 'out', mask: number): EdgeRef[] {
    const { ix } = this;
    const off = dir === 'in' ? ix.inOff : ix.outOff;
    const list = dir === 'in' ? ix.inEdges : ix.outEdges;
    const out: EdgeRef[] = [];
    for (let i = off[v]!; i < off[v + 1]!; i++) {
      const e = list[i]!;
      if (!((mask >>> ix.g.rel[e]!) & 1)) continue;
      out.push({ edge: e, other: dir === 'in' ? ix.g.src[e]! : ix.g.dst[e]!, relation: ix.relName(e), line: ix.edgeLine[e] ? `L${ix.edgeLine[e]}` : '' });
    }
    return out.sort((a, b) => ix.label(a.other).localeCompare(ix.label(b.other)) || a.line.localeCompare(b.line, undefined, { numeric: true }));
  }

  /**
   * The 1-2 hop neighbourhood of `v` in both directions (core BFS), capped to `cap` nodes: the
   * closest first, then by PageRank, so a hub shows its most important neighbours.
   */
  neighbourhood(v: NodeId, hops: number, cap: number): Neighbourhood {
    const dist = this.core.bfs(v, { maxDepth: hops, direction: 'both' });
    const reachedNodes: NodeId[] = [];
    for (let u = 0; u < dist.length; u++) if (dist[u]! >= 0) reachedNodes.push(u);
    const pr = this.pagerank;
    reachedNodes.sort((a, b) => dist[a]! - dist[b]! || pr[b]! - pr[a]! || a - b);
    const nodes = reachedNodes.slice(0, cap);
    return { center: v, nodes, edges: this.edgesAmong(nodes), reached: reachedNodes.length, capped: reachedNodes.length > cap };
  }

  /**
   * The focus view: `v`, its callers on the left and callees on the right (one hop), and one hop
   * further out from every node in `expand`, each column holding at most `perColumn` nodes (most
   * central first, then shown by label under their parent's row). A node is shown once, on the
   * side it was reached first.
   */
  focus(v: NodeId, expand: ReadonlySet<NodeId>, perColumn: number, maxDepth = 3): Focus {
    const { ix } = this;
    const hasCalls = this.callers(v).length + this.callees(v).length > 0;
    const mask = hasCalls ? CALL_MASK : ~0;
    const columns = new Map<number, NodeId[]>([[0, [v]]]);
    const side = new Map<NodeId, number>([[v, 0]]);
    const pr = this.pagerank;
    const cut = new Map<-1 | 1, Set<NodeId>>([[-1, new Set()], [1, new Set()]]);
    // Depth by depth, both sides at each depth, so expanding a node never moves one already shown.
    const frontier = new Map<-1 | 1, NodeId[]>([[-1, [v]], [1, [v]]]);
    for (let depth = 1; depth <= maxDepth; depth++) {
      for (const dir of [-1, 1] as const) {
        const column: NodeId[] = [];
        const parentRow = new Map<NodeId, number>();
        frontier.get(dir)!.forEach((u, row) => {
          if (u !== v && !expand.has(u)) return;
          const others = this.linked(u, dir, mask).filter((w) => !side.has(w) && !parentRow.has(w));
          others.sort((a, b) => pr[b]! - pr[a]! || a - b);
          for (const w of others) {
            if (column.length >= perColumn) {
              cut.get(dir)!.add(w);
              continue;
            }
            parentRow.set(w, row);
            column.push(w);
          }
        });
        column.sort((a, b) => parentRow.get(a)! - parentRow.get(b)! || compareText(ix.label(a).toLowerCase(), ix.label(b).toLowerCase()) || a - b);
        for (const w of column) side.set(w, dir * depth);
        if (column.length) columns.set(dir * depth, column);
        frontier.set(dir, column);
      }
    }
    const shown = [...side.keys()];
    const omitted = { callers: [...cut.get(-1)!].filter((u) => !side.has(u)).length, callees: [...cut.get(1)!].filter((u) => !side.has(u)).length };
    const more = new Map<NodeId, number>();
    for (const u of shown) {
      if (u === v) continue;
      const dir = Math.sign(side.get(u)!) as -1 | 1;
      const hidden = this.linked(u, dir, mask).filter((w) => !side.has(w)).length;
      if (hidden) more.set(u, hidden);
    }
    const edges = this.edgesAmong(shown).filter((e) => (mask >>> ix.g.rel[e]!) & 1);
    return { center: v, columns, edges, more, omitted, calls: hasCalls };
  }

  /** Distinct nodes linked to `v` by a relation in `mask`: its sources (dir -1) or targets (dir 1). */
  private linked(v: NodeId, dir: -1 | 1, mask: number): NodeId[] {
    const { ix } = this;
    const off = dir < 0 ? ix.inOff : ix.outOff;
    const list = dir < 0 ? ix.inEdges : ix.outEdges;
    const out = new Set<NodeId>();
    for (let i = off[v]!; i < off[v + 1]!; i++) {
      const e = list[i]!;
      if (!((mask >>> ix.g.rel[e]!) & 1)) continue;
      const other = dir < 0 ? ix.g.src[e]! : ix.g.dst[e]!;
      if (other !== v) out.add(other);
    }
    return [...out];
  }

  /** Edge indices with both ends in `nodes`. */
  edgesAmong(nodes: readonly NodeId[]): number[] {
    const { ix } = this;
    const inSet = new Uint8Array(ix.n);
    for (const u of nodes) inSet[u] = 1;
    const edges: number[] = [];
    for (const u of nodes) {
      for (let i = ix.outOff[u]!; i < ix.outOff[u + 1]!; i++) {
        const e = ix.outEdges[i]!;
        if (inSet[ix.g.dst[e]!]) edges.push(e);
      }
    }
    return edges;
  }

  /**
   * Shortest path from `s` to `t` on the core (bidirectional BFS), over every relation. Like the
   * `shortest_path` tool it ignores edge direction by default ("how are these connected"); with
   * `directed` it follows edges forward only. Each hop names the relation of an edge joining the
   * two nodes and whether it runs backwards.
   */
  path(s: NodeId, t: NodeId, opts: { directed?: boolean; maxHops?: number } = {}): { nodes: NodeId[]; hops: { relation: string; reversed: boolean; edge: number }[]; directed: boolean } | null {
    const directed = opts.directed === true;
    const p = this.core.shortestPath(s, t, { maxHops: opts.maxHops ?? 8, undirected: !directed });
    if (!p) return null;
    const nodes = Array.from(p);
    const hops = [];
    for (let i = 0; i + 1 < nodes.length; i++) hops.push(this.hop(nodes[i]!, nodes[i + 1]!));
    return { nodes, hops, directed };
  }

  private hop(a: NodeId, b: NodeId): { relation: string; reversed: boolean; edge: number } {
    const { ix } = this;
    for (let i = ix.outOff[a]!; i < ix.outOff[a + 1]!; i++) {
      const e = ix.outEdges[i]!;
      if (ix.g.dst[e] === b) return { relation: ix.relName(e), reversed: false, edge: e };
    }
    for (let i = ix.outOff[b]!; i < ix.outOff[b + 1]!; i++) {
      const e = ix.outEdges[i]!;
      if (ix.g.dst[e] === a) return { relation: ix.relName(e), reversed: true, edge: e };
    }
    throw new RangeError(`Cannot describe hop: no edge joins ${a} and ${b}`);
  }

  /** Reverse impact of `v` (core reverse k-hop walk over the impact relations), grouped by depth. */
  impact(v: NodeId, depth: number): { byDepth: { node: NodeId; relation: string }[][]; total: number } {
    const { nodes, depth: d, via } = this.core.reverseReach([v], { k: depth, relMask: IMPACT_MASK });
    const byDepth: { node: NodeId; relation: string }[][] = Array.from({ length: depth }, () => []);
    let total = 0;
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      if (node === v || d[i]! === 0) continue;
      byDepth[d[i]! - 1]!.push({ node, relation: relationName(via[i]!) });
      total++;
    }
    const ix = this.ix;
    for (const level of byDepth) level.sort((a, b) => ix.label(a.node).localeCompare(ix.label(b.node)) || a.node - b.node);
    return { byDepth, total };
  }

  /** Top nodes by degree (god nodes), files excluded. */
  godNodes(limit: number): NodeId[] {
    const { ix } = this;
    const ids: NodeId[] = [];
    for (let v = 0; v < ix.n; v++) if (ix.node(v).kind !== 'file') ids.push(v);
    return ids.sort((a, b) => ix.degree[b]! - ix.degree[a]! || a - b).slice(0, limit);
  }

  /** Communities by size, with their label from the graph metadata. */
  communities(): { id: number; label: string; size: number }[] {
    const labels = (this.ix.g.doc.graph.community_labels ?? {}) as Record<string, string>;
    return [...this.ix.communities.entries()]
      .map(([id, members]) => ({ id, label: labels[String(id)] ?? `community ${id}`, size: members.length }))
      .sort((a, b) => b.size - a.size || a.id - b.id);
  }

  /** Members of a community, most central first (PageRank). */
  communityMembers(id: number, cap: number): NodeId[] {
    const pr = this.pagerank;
    return [...(this.ix.communities.get(id) ?? [])].sort((a, b) => pr[b]! - pr[a]! || a - b).slice(0, cap);
  }

  /** The communities `id` shares edges with, most edges first. */
  coupledWith(id: number): { id: number; weight: number }[] {
    const { ix } = this;
    const weights = new Map<number, number>();
    for (let e = 0; e < ix.m; e++) {
      const a = ix.community[ix.g.src[e]!]!;
      const b = ix.community[ix.g.dst[e]!]!;
      if (a === b || (a !== id && b !== id)) continue;
      const other = a === id ? b : a;
      if (other >= 0) weights.set(other, (weights.get(other) ?? 0) + 1);
    }
    return [...weights.entries()].map(([c, weight]) => ({ id: c, weight })).sort((x, y) => y.weight - x.weight || x.id - y.id);
  }

  /**
   * The overview drawn for a graph too large to draw whole: one node per community (size = members)
   * and one edge per connected community pair (weight = edge count).
   */
  communityOverview(maxCommunities: number): { communities: { id: number; label: string; size: number }[]; links: { a: number; b: number; weight: number }[] } {
    const communities = this.communities().slice(0, maxCommunities);
    const shown = new Set(communities.map((c) => c.id));
    const { ix } = this;
    const weights = new Map<string, number>();
    for (let e = 0; e < ix.m; e++) {
      const a = ix.community[ix.g.src[e]!]!;
      const b = ix.community[ix.g.dst[e]!]!;
      if (a === b || a < 0 || b < 0 || !shown.has(a) || !shown.has(b)) continue;
      const key = a < b ? `${a} ${b}` : `${b} ${a}`;
      weights.set(key, (weights.get(key) ?? 0) + 1);
    }
    const links = [...weights.entries()].map(([key, weight]) => {
      const [a, b] = key.split(' ').map(Number) as [number, number];
      return { a, b, weight };
    });
    return { communities, links };
  }
}


function relationName(id: number): string {
  return id === OTHER_RELATION_ID ? 'other' : (RELATIONS[id] ?? 'other');
}
