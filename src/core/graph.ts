/**
 * `CoreGraph`: a graph held in the WASM core (out- and in-CSR, relation byte per edge, optional
 * weights) and its kernels. Node ids are dense 0..n-1; relation masks are u32 with bit r for
 * relation r (src/graph/model.ts). Browser-safe.
 */
import type { Core } from './core.ts';
import { ALL_RELATIONS, DIRECTION_CODE, NO_LIMIT, Status, type Direction } from './constants.ts';
import { CoreError, GraphFreedError, NodeRangeError } from './errors.ts';
import { readF64, readI32, readU32, readU8, type U32Input } from './marshal.ts';
import {
  betweenness, detectCommunities, modularity,
  type BetweennessOptions, type CommunityOptions, type CommunityResult, type LeidenOptions, type ModularityOptions,
} from './communities.ts';

export interface GraphInput {
  /** Node count; ids are 0..n-1. */
  n: number;
  /** Edge i goes src[i] -> dst[i]. Self-loops and parallel edges are kept. */
  src: Uint32Array | ArrayLike<number>;
  dst: Uint32Array | ArrayLike<number>;
  /** Relation id (0..31) per edge; default all 0. */
  rel?: Uint8Array | ArrayLike<number>;
  /** Non-negative finite weight per edge (Dijkstra); default unweighted. */
  weight?: Float64Array | ArrayLike<number>;
}

export interface BfsOptions {
  /** Stop after this many hops (nodes further away read -1). Default: no limit. */
  maxDepth?: number;
  /** Follow only edges whose relation bit is set. Default: all. */
  relMask?: number;
  /** Edge direction to follow. Default 'out'. */
  direction?: Direction;
}

export interface PathOptions {
  relMask?: number;
  /** Ignore edge direction. Default false. */
  undirected?: boolean;
  /** Longest path (in edges) to accept; longer ones give null. Default: no limit. */
  maxHops?: number;
}

export interface DijkstraOptions {
  /** Follow only out-edges whose relation bit is set. Default: all. */
  relMask?: number;
}

export interface ReachOptions {
  /** Levels to walk backwards (0..255); 0 gives only the seeds. */
  k: number;
  relMask?: number;
}

export interface ReachResult {
  /**
   * Reached nodes: seeds first (deduplicated, in given order), then level by level. Within a level
   * the order is the core's (discovery order, or ascending id for levels it expanded bottom-up);
   * it is the same on every run for the same graph.
   */
  nodes: Uint32Array;
  /** Hops from the nearest seed, per entry of `nodes`. */
  depth: Uint8Array;
  /** Relation of an edge from the node to one a level closer (the one the walk used); NO_VIA (255) for seeds. */
  via: Uint8Array;
}

export interface PageRankOptions {
  /** Damping factor; default 0.85. */
  alpha?: number;
  /** Maximum power iterations; default 1000. With tolerance 0, exactly this many. */
  iterations?: number;
  /** Stop when the L1 change of an iteration is below this; default 1e-11. */
  tolerance?: number;
  /**
   * Personalized PageRank: seed node ids (teleport and dangling mass go uniformly to the distinct
   * seeds), or a Float64Array of n non-negative teleport weights (normalized here).
   */
  personalization?: number[] | Uint32Array | Float64Array;
  /** Count only edges with these relations (out-degrees too). Default: all. */
  relMask?: number;
}

export interface DegreeOptions {
  relMask?: number;
}

export interface ComponentsResult {
  count: number;
  /** Canonical: components numbered 0, 1, 2, ... in order of their smallest node id. */
  label: Uint32Array;
}

/** `via` value of a seed in reverseReach. */
export const NO_VIA = 255;

function mask(relMask: number | undefined): number {
  return relMask === undefined ? ALL_RELATIONS : relMask >>> 0;
}

function limit(v: number | undefined, what: string, action: string): number {
  if (v === undefined || v === Infinity) return NO_LIMIT;
  if (!Number.isInteger(v) || v < 0) {
    throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: ${what} must be a non-negative integer, got ${v}`);
  }
  return Math.min(v, NO_LIMIT - 1);
}

function direction(d: Direction | undefined, action: string): number {
  if (d === undefined) return DIRECTION_CODE.out;
  const c = DIRECTION_CODE[d];
  if (c === undefined) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: direction must be 'out', 'in' or 'both', got ${String(d)}`);
  return c;
}

export class CoreGraph {
  readonly core: Core;
  readonly n: number;
  readonly m: number;
  readonly weighted: boolean;
  #handle: number;
  readonly #epoch: number;

  private constructor(core: Core, handle: number, n: number, m: number, weighted: boolean) {
    this.core = core;
    this.#handle = handle;
    this.#epoch = core.epoch;
    this.n = n;
    this.m = m;
    this.weighted = weighted;
    core.track(this, handle);
  }

  /** @internal Use `core.graph(input)`. */
  static build(core: Core, input: GraphInput): CoreGraph {
    const action = 'build graph';
    const { n, src, dst, rel, weight } = input;
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) {
      throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: n must be an integer in 0..2^31-1, got ${n}`);
    }
    const m = src.length;
    if (dst.length !== m) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: src has ${m} entries but dst has ${dst.length}`);
    if (rel && rel.length !== m) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: rel has ${rel.length} entries, src has ${m}`);
    if (weight && weight.length !== m) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: weight has ${weight.length} entries, src has ${m}`);
    // Plain arrays would be truncated/wrapped by the typed-array copy: check them here.
    for (const [name, arr] of [['src', src], ['dst', dst]] as const) {
      if (arr instanceof Uint32Array) continue;
      for (let i = 0; i < m; i++) {
        const v = arr[i]!;
        if (!Number.isInteger(v) || v < 0 || v >= n) throw new NodeRangeError(`${action} (${name}[${i}])`, v, n);
      }
    }
    if (rel && !(rel instanceof Uint8Array)) {
      for (let i = 0; i < m; i++) {
        const r = rel[i]!;
        if (!Number.isInteger(r) || r < 0 || r > 31) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: rel[${i}] = ${r} is not a relation id 0..31`);
      }
    }
    const handle = core.scratch(action, (s) => {
      const ps = s.u32(src);
      const pd = s.u32(dst);
      const pr = rel ? s.u8(rel) : 0;
      const pw = weight ? s.f64(weight) : 0;
      const h = core.exports.syn_graph_build(n, m, ps, pd, pr, pw);
      if (h >= 0) return h;
      // Find the offending entry for the message (typed-array input, checked in the core).
      if (h === Status.E_NODE_RANGE) {
        for (let i = 0; i < m; i++) {
          if (src[i]! >= n) throw new NodeRangeError(`${action} (src[${i}])`, src[i]!, n);
          if (dst[i]! >= n) throw new NodeRangeError(`${action} (dst[${i}])`, dst[i]!, n);
        }
      }
      if (h === Status.E_BAD_ARG) {
        for (let i = 0; rel && i < m; i++) {
          if (rel[i]! > 31) throw new CoreError(h, `Cannot ${action}: rel[${i}] = ${rel[i]} is not a relation id 0..31`);
        }
        for (let i = 0; weight && i < m; i++) {
          const w = weight[i]!;
          if (!(w >= 0) || !Number.isFinite(w)) throw new CoreError(h, `Cannot ${action}: weight[${i}] = ${w}; weights must be finite and >= 0`);
        }
      }
      return core.call(action, () => h);
    });
    return new CoreGraph(core, handle, n, m, weight !== undefined);
  }

  /** The live handle (throws GraphFreedError when freed or from before a core reset). */
  handle(action = 'use graph'): number {
    if (this.#handle === 0) throw new GraphFreedError(action);
    if (this.#epoch !== this.core.epoch) {
      throw new GraphFreedError(action, 'the core was reset after a trap, which dropped this graph');
    }
    return this.#handle;
  }

  /** True after free() (or after a core reset). */
  get freed(): boolean {
    return this.#handle === 0 || this.#epoch !== this.core.epoch;
  }

  /** Bytes held in the core by this graph's arrays. */
  bytes(): number {
    const h = this.handle('measure graph');
    return this.core.call('measure graph', (x) => x.syn_graph_bytes(h));
  }

  #node(v: number, action: string): number {
    if (!Number.isInteger(v) || v < 0 || v >= this.n) throw new NodeRangeError(action, v, this.n);
    return v;
  }

  #nodes(vs: number | U32Input, action: string): U32Input {
    const list = typeof vs === 'number' ? [vs] : vs;
    for (let i = 0; i < list.length; i++) this.#node(list[i]!, action);
    return list;
  }

  /** Hop distances from `source` (one id or several: multi-source), -1 = unreachable. */
  bfs(source: number | U32Input, opts: BfsOptions = {}): Int32Array {
    const action = 'run bfs';
    const h = this.handle(action);
    const sources = this.#nodes(source, action);
    const dir = direction(opts.direction, action);
    const depth = limit(opts.maxDepth, 'maxDepth', action);
    const n = this.n;
    const core = this.core;
    return core.scratch(action, (s) => {
      const ps = s.u32(sources);
      const out = s.alloc(4 * n);
      core.call(action, (x) => x.syn_bfs(h, ps, sources.length, mask(opts.relMask), depth, dir, out));
      return readI32(core.exports, out, n);
    });
  }

  /**
   * A shortest path s -> t (bidirectional BFS) as node ids s..t, or null when there is none within
   * maxHops. Deterministic: the same graph gives the same path every run.
   */
  shortestPath(s: number, t: number, opts: PathOptions = {}): Uint32Array | null {
    const action = 'find shortest path';
    const h = this.handle(action);
    this.#node(s, action);
    this.#node(t, action);
    const hops = limit(opts.maxHops, 'maxHops', action);
    const cap = Math.min(this.n, hops === NO_LIMIT ? this.n : hops + 1);
    const core = this.core;
    return core.scratch(action, (sc) => {
      const out = sc.alloc(4 * Math.max(cap, 1));
      const c = core.call(action, (x) => x.syn_path(h, s, t, mask(opts.relMask), opts.undirected ? 1 : 0, hops, out, cap));
      return c === 0 ? null : readU32(core.exports, out, c);
    });
  }

  /**
   * Weighted distances from `source` along out-edges (unit weights if built without),
   * Infinity = unreachable; for parallel edges the lightest wins.
   */
  dijkstra(source: number, opts: DijkstraOptions = {}): Float64Array {
    const action = 'run dijkstra';
    const h = this.handle(action);
    this.#node(source, action);
    const n = this.n;
    const core = this.core;
    return core.scratch(action, (s) => {
      const out = s.alloc(8 * n);
      core.call(action, (x) => x.syn_dijkstra(h, source, mask(opts.relMask), out));
      return readF64(core.exports, out, n);
    });
  }

  /** Everything that reaches a seed within k hops (walks in-edges): the "affected" set. */
  reverseReach(seeds: number | U32Input, opts: ReachOptions): ReachResult {
    const action = 'run reverseReach';
    const h = this.handle(action);
    const list = this.#nodes(seeds, action);
    const k = opts.k;
    if (!Number.isInteger(k) || k < 0 || k > 255) {
      throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: k must be an integer in 0..255, got ${k}`);
    }
    const n = this.n;
    const core = this.core;
    return core.scratch(action, (s) => {
      const ps = s.u32(list);
      const nodes = s.alloc(4 * n);
      const depth = s.alloc(n);
      const via = s.alloc(n);
      const c = core.call(action, (x) => x.syn_reach_rev(h, ps, list.length, k, mask(opts.relMask), nodes, depth, via, n));
      const x = core.exports;
      return { nodes: readU32(x, nodes, c), depth: readU8(x, depth, c), via: readU8(x, via, c) };
    });
  }

  /** PageRank (or personalized PageRank) scores; sums to 1 (conventions: test/fixtures/graph-fixtures/README.md). */
  pagerank(opts: PageRankOptions = {}): Float64Array {
    const action = 'run pagerank';
    const h = this.handle(action);
    const alpha = opts.alpha ?? 0.85;
    const iterations = opts.iterations ?? 1000;
    const tolerance = opts.tolerance ?? 1e-11;
    if (!(alpha >= 0 && alpha <= 1)) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: alpha must be in [0, 1], got ${alpha}`);
    if (!Number.isInteger(iterations) || iterations < 0 || iterations > 0x7fffffff) {
      throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: iterations must be a non-negative integer, got ${iterations}`);
    }
    if (!(tolerance >= 0)) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: tolerance must be >= 0, got ${tolerance}`);
    const n = this.n;
    let teleport: Float64Array | null = null;
    const p = opts.personalization;
    if (p !== undefined) {
      teleport = new Float64Array(n);
      if (p instanceof Float64Array) {
        if (p.length !== n) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: a personalization weight vector needs n = ${n} entries, got ${p.length}`);
        let sum = 0;
        for (let i = 0; i < n; i++) {
          const w = p[i]!;
          if (!(w >= 0) || !Number.isFinite(w)) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: personalization[${i}] = ${w}; weights must be finite and >= 0`);
          sum += w;
        }
        if (!(sum > 0)) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: personalization weights sum to 0; give at least one positive weight`);
        for (let i = 0; i < n; i++) teleport[i] = p[i]! / sum;
      } else {
        this.#nodes(p, action);
        if (p.length === 0) throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: personalization is empty; give at least one seed node id`);
        let distinct = 0;
        for (let i = 0; i < p.length; i++) if (teleport[p[i]!] === 0) { teleport[p[i]!] = 1; distinct++; }
        for (let i = 0; i < n; i++) if (teleport[i] !== 0) teleport[i] = 1 / distinct;
      }
    }
    const core = this.core;
    return core.scratch(action, (s) => {
      const pt = teleport ? s.f64(teleport) : 0;
      const out = s.alloc(8 * n);
      core.call(action, (x) => x.syn_pagerank(h, alpha, iterations, tolerance, mask(opts.relMask), pt, out));
      return readF64(core.exports, out, n);
    });
  }

  /** In- and out-degree of every node, with multiplicity (a self-loop adds 1 to each). */
  degree(opts: DegreeOptions = {}): { out: Uint32Array; in: Uint32Array } {
    const action = 'compute degree';
    const h = this.handle(action);
    const n = this.n;
    const core = this.core;
    return core.scratch(action, (s) => {
      const po = s.alloc(4 * n);
      const pi = s.alloc(4 * n);
      core.call(action, (x) => x.syn_degree(h, mask(opts.relMask), po, pi));
      const x = core.exports;
      return { out: readU32(x, po, n), in: readU32(x, pi, n) };
    });
  }

  /** Weakly or strongly connected components with canonical labels. */
  components(kind: 'weak' | 'strong' = 'weak', opts: DegreeOptions = {}): ComponentsResult {
    const action = `compute ${kind} components`;
    const h = this.handle(action);
    if (kind !== 'weak' && kind !== 'strong') {
      throw new CoreError(Status.E_BAD_ARG, `Cannot compute components: kind must be 'weak' or 'strong', got ${String(kind)}`);
    }
    const n = this.n;
    const core = this.core;
    return core.scratch(action, (s) => {
      const out = s.alloc(4 * n);
      const count = core.call(action, (x) => x.syn_components(h, kind === 'strong' ? 1 : 0, mask(opts.relMask), out));
      return { count, label: readU32(core.exports, out, n) };
    });
  }

  // --- communities ---

  /**
   * Louvain communities (Blondel et al. 2008) maximizing modularity at `resolution` on the
   * undirected simple view; deterministic for a seed. See src/core/communities.ts.
   */
  louvain(opts: CommunityOptions = {}): CommunityResult {
    return detectCommunities(this, 'louvain', opts);
  }

  /**
   * Leiden communities (Traag et al. 2019): like louvain(), usually higher modularity, and every
   * community is connected.
   */
  leiden(opts: LeidenOptions = {}): CommunityResult {
    return detectCommunities(this, 'leiden', opts);
  }

  /**
   * Newman modularity of a partition (labels: any non-negative integers) on the undirected simple
   * view; NaN when that view has no edges.
   */
  modularity(membership: ArrayLike<number>, opts: ModularityOptions = {}): number {
    return modularity(this, membership, opts);
  }

  /**
   * Betweenness centrality (Brandes) on the directed simple graph, normalized as networkx's
   * `betweenness_centrality(G, normalized=True)`; exact, or estimated from `samples` seeded pivots.
   */
  betweenness(opts: BetweennessOptions = {}): Float64Array {
    return betweenness(this, opts);
  }


  /** Release the graph's core memory. A second free() throws GraphFreedError. */
  free(): void {
    const h = this.handle('free graph');
    this.#handle = 0;
    this.core.untrack(this);
    this.core.call('free graph', (x) => x.syn_graph_free(h));
  }
}
