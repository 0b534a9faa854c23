/**
 * Community detection (Louvain, Leiden), modularity and betweenness centrality on a `CoreGraph`:
 * argument checks and marshalling for the `syn_louvain`, `syn_leiden`, `syn_modularity` and
 * `syn_betweenness` exports (kernels in assembly/louvain.ts, leiden.ts, modularity.ts,
 * betweenness.ts). `CoreGraph` exposes these as methods. Browser-safe.
 *
 * Communities live on the graph's undirected simple view: arc direction ignored, parallel and
 * reciprocal arcs collapsed into one edge of weight 1, self-loops dropped (edge weights are not
 * used). This is the `undirectedSimple` convention of the shared graph fixtures.
 */
import type { CoreGraph } from './graph.ts';
import { ALL_RELATIONS, Status } from './constants.ts';
import { CoreError } from './errors.ts';
import { readF64, readU32 } from './marshal.ts';

export interface CommunityOptions {
  /**
   * Resolution gamma > 0 of the modularity being optimized: above 1 gives more, smaller
   * communities, below 1 fewer, larger ones. Default 1.
   */
  resolution?: number;
  /** Seed of the node order (and of Leiden's random merges): an integer 0..2^32-1. Default 1. */
  seed?: number;
  /** Use only edges whose relation bit is set. Default: all. */
  relMask?: number;
}

export interface LeidenOptions extends CommunityOptions {
  /** Run Leiden this many times, each starting from the previous result (1..1000). Default 1. */
  iterations?: number;
}

export interface CommunityResult {
  /** Community of each node; canonical: numbered 0, 1, 2, ... in order of their smallest node id. */
  membership: Uint32Array;
  /** Number of communities (isolated nodes are communities of their own). */
  count: number;
  /**
   * Newman modularity (resolution 1, whatever `resolution` was used) of `membership`: equal to
   * `g.modularity(membership, { relMask })`. NaN when the undirected simple view has no edges.
   */
  modularity: number;
}

export interface ModularityOptions {
  /** Resolution gamma >= 0. Default 1 (Newman modularity). */
  resolution?: number;
  relMask?: number;
}

export interface BetweennessOptions {
  /**
   * Number of pivot (source) nodes for the sampled estimate; omitted, 0 or >= n: exact (cost
   * O(n * m), so sample on graphs of more than ~10^4 nodes: error ~ 1/sqrt(samples)).
   */
  samples?: number;
  /** Seed of the pivot sample: an integer 0..2^32-1. Default 1. */
  seed?: number;
  /** Divide by (n-1)(n-2), the number of ordered pairs a node can lie between. Default true. */
  normalized?: boolean;
  relMask?: number;
}

function relMask(m: number | undefined): number {
  return m === undefined ? ALL_RELATIONS : m >>> 0;
}

function seedOf(seed: number | undefined, action: string): number {
  if (seed === undefined) return 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: seed must be an integer in 0..2^32-1, got ${seed}`);
  }
  return seed;
}

function resolutionOf(r: number | undefined, action: string, allowZero: boolean): number {
  if (r === undefined) return 1;
  if (!Number.isFinite(r) || r < 0 || (!allowZero && r === 0)) {
    throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: resolution must be a finite number ${allowZero ? '>= 0' : '> 0'}, got ${r}`);
  }
  return r;
}

/** Louvain (`algo` 'louvain') or Leiden communities. */
export function detectCommunities(g: CoreGraph, algo: 'louvain' | 'leiden', opts: LeidenOptions = {}): CommunityResult {
  const action = `run ${algo}`;
  const h = g.handle(action);
  const gamma = resolutionOf(opts.resolution, action, false);
  const seed = seedOf(opts.seed, action);
  const iterations = opts.iterations ?? 1;
  if (algo === 'leiden' && (!Number.isInteger(iterations) || iterations < 1 || iterations > 1000)) {
    throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: iterations must be an integer in 1..1000, got ${iterations}`);
  }
  const mask = relMask(opts.relMask);
  const n = g.n;
  const core = g.core;
  return core.scratch(action, (s) => {
    const pm = s.alloc(4 * n);
    const pq = s.alloc(8);
    const count = core.call(action, (x) =>
      algo === 'louvain'
        ? x.syn_louvain(h, mask, gamma, seed, pm, pq)
        : x.syn_leiden(h, mask, gamma, seed, iterations, pm, pq),
    );
    const x = core.exports;
    return { membership: readU32(x, pm, n), count, modularity: readF64(x, pq, 1)[0]! };
  });
}

/**
 * Newman modularity of a partition: `membership[v]` is v's community, any non-negative integer
 * label. NaN when the undirected simple view has no edges.
 */
export function modularity(g: CoreGraph, membership: ArrayLike<number>, opts: ModularityOptions = {}): number {
  const action = 'compute modularity';
  const h = g.handle(action);
  const n = g.n;
  if (membership.length !== n) {
    throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: membership has ${membership.length} entries, the graph has n = ${n} nodes`);
  }
  const gamma = resolutionOf(opts.resolution, action, true);
  // Labels go to the core as dense ids < n (the kernel indexes per-community arrays by label).
  const dense = new Uint32Array(n);
  const ids = new Map<number, number>();
  for (let v = 0; v < n; v++) {
    const c = membership[v]!;
    if (!Number.isInteger(c) || c < 0) {
      throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: membership[${v}] = ${c}; labels must be non-negative integers`);
    }
    let id = ids.get(c);
    if (id === undefined) {
      id = ids.size;
      ids.set(c, id);
    }
    dense[v] = id;
  }
  const core = g.core;
  return core.scratch(action, (s) => {
    const pm = s.u32(dense);
    const pq = s.alloc(8);
    core.call(action, (x) => x.syn_modularity(h, relMask(opts.relMask), pm, gamma, pq));
    return readF64(core.exports, pq, 1)[0]!;
  });
}

/**
 * Betweenness centrality of every node on the directed simple graph (parallel arcs collapsed,
 * self-loops ignored, unweighted, endpoints excluded): networkx's
 * `betweenness_centrality(G, normalized=True)` on the DiGraph by default. With `samples` = k < n,
 * only k seeded random sources are used and the sums are scaled up as networkx 3.x does for `k`
 * (by (n-1)/k, or (n-1)/(k-1) for the sampled sources themselves), an estimate of the exact values.
 */
export function betweenness(g: CoreGraph, opts: BetweennessOptions = {}): Float64Array {
  const action = 'compute betweenness';
  const h = g.handle(action);
  const samples = opts.samples ?? 0;
  if (!Number.isInteger(samples) || samples < 0) {
    throw new CoreError(Status.E_BAD_ARG, `Cannot ${action}: samples must be a non-negative integer, got ${samples}`);
  }
  const seed = seedOf(opts.seed, action);
  const n = g.n;
  const k = Math.min(samples, n);
  const core = g.core;
  return core.scratch(action, (s) => {
    const out = s.alloc(8 * n);
    core.call(action, (x) => x.syn_betweenness(h, relMask(opts.relMask), k, seed, opts.normalized === false ? 0 : 1, out));
    return readF64(core.exports, out, n);
  });
}
