// The module's exports: the whole ABI. Numbers only (i32/u32/f64 and u32 offsets into memory),
// zero imports. Every export validates its arguments here; kernels trust their input.
// Returns: >= 0 success (handle, count, iterations), < 0 a status from abi.ts.
// The export list is golden: test/golden/wasm-exports.txt (regenerate when it changes).

import {
  ABI_MAJOR, ABI_MINOR, OK, E_BAD_HANDLE, E_BAD_ARG, E_NODE_RANGE, E_TOO_MANY_GRAPHS, E_NULL,
  E_CAPACITY, DIR_BOTH, trapLine, trapColumn, trapMessage, trapFile,
} from './abi';
import { alloc, release } from './mem';
import { resolve, register, unregister } from './handles';
import { CsrGraph, CHUNK_EDGES, buildCsr, freeCsr } from './csr';
import { bfsInto } from './bfs';
import { pathInto } from './path';
import { dijkstraInto } from './dijkstra';
import { reachRevInto } from './reach';
import { pagerankInto } from './pagerank';
import { degreeInto } from './degree';
import { weakInto, strongInto } from './components';

// Validation of ptr[lo..hi): CHECK_IDS u32 < n, CHECK_RELS u8 <= 31, CHECK_WEIGHTS finite f64 >= 0.
// One function for the three, chunked (see the speed note in csr.ts); false on the first bad value.
// @ts-ignore: decorator
@inline const CHECK_IDS: u32 = 0;
// @ts-ignore: decorator
@inline const CHECK_RELS: u32 = 1;
// @ts-ignore: decorator
@inline const CHECK_WEIGHTS: u32 = 2;
function valid(kind: u32, ptr: usize, lo: u32, hi: u32, n: u32): bool {
  if (kind == CHECK_IDS) {
    for (let i = lo; i < hi; i++) if (load<u32>(ptr + (<usize>i << 2)) >= n) return false;
  } else if (kind == CHECK_RELS) {
    for (let i = lo; i < hi; i++) if (load<u8>(ptr + i) > 31) return false;
  } else {
    for (let i = lo; i < hi; i++) {
      const w = load<f64>(ptr + (<usize>i << 3));
      if (!(w >= 0) || !isFinite(w)) return false;
    }
  }
  return true;
}

function allValid(kind: u32, ptr: usize, count: u32, n: u32): bool {
  if (!valid(kind, ptr, 0, min(count, CHUNK_EDGES), n)) return false;
  for (let lo = CHUNK_EDGES; lo < count; lo += CHUNK_EDGES) {
    if (!valid(kind, ptr, lo, min(lo + CHUNK_EDGES, count), n)) return false;
  }
  return true;
}

// Checks that every u32 in ptr[0..count) is < n.
function idsInRange(ptr: usize, count: u32, n: u32): bool {
  return allValid(CHECK_IDS, ptr, count, n);
}

/** ABI version: major << 16 | minor. */
export function syn_abi_version(): i32 {
  return (ABI_MAJOR << 16) | ABI_MINOR;
}

/** Allocate `bytes` of core memory for the host (16-byte aligned). Traps when memory is exhausted. */
export function syn_alloc(bytes: u32): usize {
  return alloc(<usize>bytes);
}

/** Free a block from syn_alloc; 0 is ignored. */
export function syn_free(ptr: usize): void {
  release(ptr);
}

const TRAP_INFO: usize = memory.data(16);

/** Where the last abort happened: pointer to u32[4] = line, column, message, file (AS strings:
 *  UTF-16LE, byte length as u32 at ptr - 4; 0 = none). Read it after a trap, before rebuilding. */
export function syn_trap_info(): usize {
  store<u32>(TRAP_INFO, trapLine);
  store<u32>(TRAP_INFO, trapColumn, 4);
  store<u32>(TRAP_INFO, <u32>trapMessage, 8);
  store<u32>(TRAP_INFO, <u32>trapFile, 12);
  return TRAP_INFO;
}

/**
 * Build a graph (out- and in-CSR) from `m` edges src[i] -> dst[i] (u32 arrays), with optional
 * relation bytes rel[i] (0..31; 0 = pointer absent, all relation 0) and optional weights
 * weight[i] (f64 >= 0; 0 = pointer absent). The core copies; the host frees its buffers after.
 * Returns a handle > 0.
 */
export function syn_graph_build(n: u32, m: u32, src: usize, dst: usize, rel: usize, weight: usize): i32 {
  if (<i32>n < 0 || <i32>m < 0) return E_BAD_ARG;
  if (m > 0 && (src == 0 || dst == 0)) return E_NULL;
  if (!idsInRange(src, m, n) || !idsInRange(dst, m, n)) return E_NODE_RANGE;
  if (rel != 0 && !allValid(CHECK_RELS, rel, m, 32)) return E_BAD_ARG;
  if (weight != 0 && !allValid(CHECK_WEIGHTS, weight, m, 0)) return E_BAD_ARG;
  const gp = buildCsr(n, m, src, dst, rel, weight);
  const h = register(gp);
  if (h == 0) {
    freeCsr(gp);
    return E_TOO_MANY_GRAPHS;
  }
  return h;
}

/** Free a graph. A stale handle or a second free returns E_BAD_HANDLE. */
export function syn_graph_free(h: i32): i32 {
  const gp = unregister(h);
  if (gp == 0) return E_BAD_HANDLE;
  freeCsr(gp);
  return OK;
}

/** Node count of a graph. */
export function syn_graph_n(h: i32): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  return <i32>changetype<CsrGraph>(gp).n;
}

/** Edge count of a graph. */
export function syn_graph_m(h: i32): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  return <i32>changetype<CsrGraph>(gp).m;
}

/** Bytes held by a graph's arrays (both CSR directions, relation bytes, weights). */
export function syn_graph_bytes(h: i32): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  return <i32>changetype<CsrGraph>(gp).bytes;
}

/** Bytes of linear memory (for accounting; grows, never shrinks). */
export function syn_memory_bytes(): i32 {
  return memory.size() << 16;
}

/**
 * BFS from `count` sources (u32[count] at `sources`), following edges whose relation bit is in
 * `mask`, in direction `dir` (0 out, 1 in, 2 both), at most `maxDepth` hops (0xFFFFFFFF = no
 * limit). Writes i32[n] distances to `outDist` (-1 = unreachable). Returns nodes reached.
 */
export function syn_bfs(h: i32, sources: usize, count: u32, mask: u32, maxDepth: u32, dir: u32, outDist: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (dir > DIR_BOTH || <i32>count < 0) return E_BAD_ARG;
  if ((count > 0 && sources == 0) || (g.n > 0 && outDist == 0)) return E_NULL;
  if (!idsInRange(sources, count, g.n)) return E_NODE_RANGE;
  return bfsInto(g, sources, count, mask, maxDepth, dir, outDist);
}

/**
 * Shortest unweighted path s -> t (bidirectional BFS) over edges in `mask`, ignoring direction
 * when `undirected` != 0, of at most `maxHops` edges (0xFFFFFFFF = no limit). Writes the node ids
 * s..t to `outPath` (u32[cap]). Returns the node count, 0 when there is no such path.
 */
export function syn_path(h: i32, s: u32, t: u32, mask: u32, undirected: u32, maxHops: u32, outPath: usize, cap: u32): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (s >= g.n || t >= g.n) return E_NODE_RANGE;
  if (outPath == 0) return E_NULL;
  return pathInto(g, s, t, mask, undirected != 0, maxHops, outPath, cap);
}

/**
 * Dijkstra from `source` over out-edges in `mask`, on the graph's weights (1 per edge when built
 * without). Writes f64[n] distances to `outDist` (+Infinity = unreachable). Returns nodes reached.
 */
export function syn_dijkstra(h: i32, source: u32, mask: u32, outDist: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (source >= g.n) return E_NODE_RANGE;
  if (outDist == 0) return E_NULL;
  return dijkstraInto(g, source, mask, outDist);
}

/**
 * Reverse k-hop reachability from `count` seeds (u32 at `seeds`) over in-edges in `mask`, k <= 255.
 * Writes nodes (u32), depth (u8) and via relation (u8, 255 for seeds) per reached node; the
 * buffers must hold `cap` >= n entries. Returns the count written.
 */
export function syn_reach_rev(h: i32, seeds: usize, count: u32, k: u32, mask: u32, outNodes: usize, outDepth: usize, outVia: usize, cap: u32): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (k > 255 || <i32>count < 0) return E_BAD_ARG;
  if (cap < g.n) return E_CAPACITY;
  if ((count > 0 && seeds == 0) || (g.n > 0 && (outNodes == 0 || outDepth == 0 || outVia == 0))) return E_NULL;
  if (!idsInRange(seeds, count, g.n)) return E_NODE_RANGE;
  return reachRevInto(g, seeds, count, k, mask, outNodes, outDepth, outVia);
}

/**
 * PageRank with damping `alpha` over edges in `mask`: at most `iterations` power iterations, stopping
 * when the L1 change drops below `tolerance` (0: run all). `teleport` is f64[n] summing to 1 for
 * personalized PageRank, or 0 for uniform. Writes f64[n] to `outRank`. Returns iterations run.
 */
export function syn_pagerank(h: i32, alpha: f64, iterations: u32, tolerance: f64, mask: u32, teleport: usize, outRank: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (!(alpha >= 0 && alpha <= 1) || !(tolerance >= 0) || <i32>iterations < 0) return E_BAD_ARG;
  if (g.n > 0 && outRank == 0) return E_NULL;
  return pagerankInto(g, alpha, iterations, tolerance, mask, teleport, outRank);
}

/** Out- and in-degree (with multiplicity) over edges in `mask`, into u32[n] each. Returns n. */
export function syn_degree(h: i32, mask: u32, outOut: usize, outIn: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (g.n > 0 && (outOut == 0 || outIn == 0)) return E_NULL;
  return degreeInto(g, mask, outOut, outIn);
}

/**
 * Connected components over edges in `mask`: weak (strong == 0) or strong. Writes canonical labels
 * (numbered by smallest node id) to u32[n] `outLabel`. Returns the component count.
 */
export function syn_components(h: i32, strong: u32, mask: u32, outLabel: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (g.n > 0 && outLabel == 0) return E_NULL;
  return strong != 0 ? strongInto(g, mask, outLabel) : weakInto(g, mask, outLabel);
}

// --- communities ---
// Louvain / Leiden / modularity / betweenness (assembly/louvain.ts, leiden.ts, modularity.ts,
// betweenness.ts). Communities live on the undirected simple view of the arcs whose relation bit
// is in `mask` (direction ignored, parallel and reciprocal arcs collapsed, self-loops dropped).
import { louvainRun } from './louvain';
import { leidenRun } from './leiden';
import { buildUndirectedSimple, modularityOf, freeUGraph } from './modularity';
import { betweennessInto } from './betweenness';

/**
 * Louvain communities with resolution `gamma` (> 0), seeded. Writes u32[n] canonical labels
 * (numbered in order of smallest node id) to `outMemb` and the modularity (resolution 1; NaN
 * without edges) as one f64 to `outQ`. Returns the community count.
 */
export function syn_louvain(h: i32, mask: u32, gamma: f64, seed: u32, outMemb: usize, outQ: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (!(gamma > 0) || !isFinite(gamma)) return E_BAD_ARG;
  if ((g.n > 0 && outMemb == 0) || outQ == 0) return E_NULL;
  return <i32>louvainRun(g, mask, gamma, seed, outMemb, outQ);
}

/**
 * Leiden communities (connected by construction), as syn_louvain; `iterations` >= 1 repeats the
 * algorithm from its previous result.
 */
export function syn_leiden(h: i32, mask: u32, gamma: f64, seed: u32, iterations: u32, outMemb: usize, outQ: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (!(gamma > 0) || !isFinite(gamma) || iterations == 0 || iterations > 1000) return E_BAD_ARG;
  if ((g.n > 0 && outMemb == 0) || outQ == 0) return E_NULL;
  return <i32>leidenRun(g, mask, gamma, seed, iterations, outMemb, outQ);
}

/**
 * Newman modularity (resolution `gamma` >= 0) of the partition `memb` (u32[n], labels < n) on the
 * undirected simple view. Writes one f64 to `outQ` (NaN when the view has no edges). Returns OK.
 */
export function syn_modularity(h: i32, mask: u32, memb: usize, gamma: f64, outQ: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (!(gamma >= 0) || !isFinite(gamma)) return E_BAD_ARG;
  if ((g.n > 0 && memb == 0) || outQ == 0) return E_NULL;
  if (!idsInRange(memb, g.n, g.n)) return E_BAD_ARG;
  const ug = buildUndirectedSimple(g, mask);
  store<f64>(outQ, modularityOf(ug, memb, gamma));
  freeUGraph(ug);
  return OK;
}

/**
 * Betweenness centrality (Brandes) on the directed simple graph of the arcs in `mask`, written as
 * f64[n] to `out`. `samples` = 0 or >= n: exact; else that many seeded pivots, scaled to estimate
 * the exact values. `normalized` != 0 divides by (n-1)(n-2). Returns the pivot count.
 */
export function syn_betweenness(h: i32, mask: u32, samples: u32, seed: u32, normalized: u32, out: usize): i32 {
  const gp = resolve(h);
  if (gp == 0) return E_BAD_HANDLE;
  const g = changetype<CsrGraph>(gp);
  if (normalized > 1) return E_BAD_ARG;
  if (g.n > 0 && out == 0) return E_NULL;
  return <i32>betweennessInto(g, mask, samples, seed, normalized != 0, out);
}
