// The library baseline: graphology, what a JavaScript user would pick instead of the core.
// Graphs keep node keys 0..n-1 in insertion order, so node index == core NodeId.
import { MultiDirectedGraph, UndirectedGraph } from 'graphology';
import louvainModule from 'graphology-communities-louvain';
import pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { singleSourceLength } from 'graphology-shortest-path/unweighted.js';
import type { AbstractGraph } from 'graphology-types';

export type GGraph = AbstractGraph;

// These two packages are CommonJS with `export default` typings: Node hands us module.exports,
// TypeScript expects { default }. Accept either.
function interop<T extends { default: unknown }>(mod: T): T['default'] {
  return ((mod as { default?: unknown }).default ?? mod) as T['default'];
}
const louvainLib = interop(louvainModule);
const pagerankLib = interop(pagerankModule);

/** Directed multigraph with self-loops: the same arcs as the core's CSR. */
export function buildDirected(n: number, src: Uint32Array, dst: Uint32Array): GGraph {
  const g = new MultiDirectedGraph({ allowSelfLoops: true });
  for (let v = 0; v < n; v++) g.addNode(v);
  for (let e = 0; e < src.length; e++) g.addEdge(src[e]!, dst[e]!);
  return g;
}

/** The undirected simple graph (direction ignored, duplicates merged, self-loops dropped), for Louvain. */
export function buildUndirectedSimple(n: number, src: Uint32Array, dst: Uint32Array): GGraph {
  const g = new UndirectedGraph({ allowSelfLoops: false });
  for (let v = 0; v < n; v++) g.addNode(v);
  for (let e = 0; e < src.length; e++) {
    const s = src[e]!;
    const d = dst[e]!;
    if (s !== d) g.mergeEdge(s, d);
  }
  return g;
}

/** BFS hop distances from `source` along out-arcs; -1 = unreachable. */
export function bfs(g: GGraph, n: number, source: number): Int32Array {
  const lengths = singleSourceLength(g, String(source)) as Record<string, number>;
  const dist = new Int32Array(n).fill(-1);
  for (const k in lengths) dist[Number(k)] = lengths[k]!;
  return dist;
}

/**
 * Exactly `iterations` PageRank power iterations. graphology throws "failed to converge"
 * when maxIterations runs out, so tolerance 0 plus a caught error gives a fixed count;
 * the iterations are done by then. Returns nothing (the benchmark times the work).
 */
export function pagerankIterations(g: GGraph, iterations = 20): void {
  try {
    pagerankLib(g, { alpha: 0.85, maxIterations: iterations, tolerance: 0, getEdgeWeight: null });
  } catch (err) {
    if (!(err instanceof Error) || !/failed to converge/.test(err.message)) throw err;
  }
}

/** graphology-communities-louvain on the undirected simple graph; membership by node index. */
export function louvain(g: GGraph, n: number, seed = 1): { membership: Uint32Array; count: number; modularity: number } {
  let s = seed >>> 0 || 1;
  const rng = (): number => {
    // xorshift32: seeded, so runs repeat
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
  const res = louvainLib.detailed(g, { rng, getEdgeWeight: null });
  const membership = new Uint32Array(n);
  for (const k in res.communities) membership[Number(k)] = res.communities[k]!;
  return { membership, count: res.count, modularity: res.modularity };
}
