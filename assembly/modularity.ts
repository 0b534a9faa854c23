// The undirected simple view of a graph, and Newman modularity of a partition on it.
//
// Communities are defined on the undirected simple graph (as the fixtures' `undirectedSimple`
// modularity): arc direction ignored, parallel and reciprocal arcs collapsed into one edge of
// weight 1, self-loops dropped, only arcs whose relation bit is in `mask`. Louvain and Leiden
// (louvain.ts, leiden.ts) optimize modularity on this view and report it with modularityOf.
//
// UGraph is also the level graph of Louvain/Leiden: after aggregation the edges carry weights and
// nodes carry self-loop weights, so the same struct covers both (wt == 0: every weight is 1;
// loop == 0: no self-loops).

import { CsrGraph } from './csr';
import { alloc, allocFill, release } from './mem';

// @ts-ignore: decorator
@inline export const NONE: u32 = 0xFFFFFFFF;

@unmanaged
export class UGraph {
  /** Node count. */
  n: u32;
  /** Adjacency entries: every undirected edge {u, v}, u != v, appears at u and at v. */
  e: u32;
  /** u32[n+1]: neighbours of u are adj[off[u] .. off[u+1]). */
  off: usize;
  /** u32[e]. */
  adj: usize;
  /** f64[e] edge weights, or 0 when every weight is 1. */
  wt: usize;
  /** f64[n] self-loop weight of each node (an edge counted once), or 0 when there are none. */
  loop: usize;
  /** f64[n] strength: sum of incident edge weights + 2 * self-loop weight. */
  k: usize;
  /** Sum of all strengths (2W, W the total edge weight). */
  total: f64;
}

/** Allocate an empty UGraph record (arrays unset). */
export function newUGraph(n: u32): UGraph {
  const g = changetype<UGraph>(alloc(offsetof<UGraph>()));
  g.n = n;
  g.e = 0;
  g.off = 0;
  g.adj = 0;
  g.wt = 0;
  g.loop = 0;
  g.k = 0;
  g.total = 0;
  return g;
}

/** Free a UGraph and its arrays. */
export function freeUGraph(g: UGraph): void {
  release(g.off);
  release(g.adj);
  release(g.wt);
  release(g.loop);
  release(g.k);
  release(changetype<usize>(g));
}

// Undirected simple view of a CSR graph.
// Returns: a new UGraph with unit weights (wt = 0), no loops, k[u] = simple undirected degree.
// Algorithm: one pass over each node's out- and in-edges; a stamp array (stamp[v] == u once v is
//   recorded as u's neighbour) removes parallel and reciprocal duplicates without sorting. The
//   distinct neighbours go to a scratch array at u's slot outOff[u] + inOff[u] (an upper bound);
//   after the prefix sum of the counts they are moved to the final array with one sequential
//   copy per node (a second stamp pass over the arcs, as before, re-reads them at random).
// Order: neighbours of u in out-CSR order, then in-CSR order, first occurrence kept: deterministic.
// Cost: O(n + m) time, 4(n+1) + 4e + 8n bytes held, 4n + 4m' scratch (m' arcs in both CSRs).
export function buildUndirectedSimple(cg: CsrGraph, mask: u32): UGraph {
  const n = cg.n;
  const g = newUGraph(n);
  const checkRel = mask != 0xFFFFFFFF;
  const off = allocFill((<usize>n + 1) << 2, 0);
  const stamp = allocFill(<usize>n << 2, 0xFF);
  const oo = cg.outOff, ot = cg.outTgt, orl = cg.outRel;
  const io = cg.inOff, is = cg.inSrc, irl = cg.inRel;
  const arcs = load<u32>(oo + (<usize>n << 2)) + load<u32>(io + (<usize>n << 2));
  const tmp = alloc(<usize>arcs << 2);
  for (let u: u32 = 0; u < n; u++) {
    const pu = <usize>u << 2;
    const o0 = load<u32>(oo + pu), o1 = load<u32>(oo + pu, 4);
    const i0 = load<u32>(io + pu), i1 = load<u32>(io + pu, 4);
    const base = tmp + (<usize>(o0 + i0) << 2);
    let cnt: u32 = 0;
    for (let e = o0; e < o1; e++) {
      if (checkRel && ((mask >>> load<u8>(orl + e)) & 1) == 0) continue;
      const v = load<u32>(ot + (<usize>e << 2));
      const ps = stamp + (<usize>v << 2);
      if (v != u && load<u32>(ps) != u) { store<u32>(ps, u); store<u32>(base + (<usize>cnt << 2), v); cnt++; }
    }
    for (let e = i0; e < i1; e++) {
      if (checkRel && ((mask >>> load<u8>(irl + e)) & 1) == 0) continue;
      const v = load<u32>(is + (<usize>e << 2));
      const ps = stamp + (<usize>v << 2);
      if (v != u && load<u32>(ps) != u) { store<u32>(ps, u); store<u32>(base + (<usize>cnt << 2), v); cnt++; }
    }
    store<u32>(off + pu, cnt, 4);
  }
  release(stamp);
  for (let u: u32 = 1; u <= n; u++) {
    const p = off + (<usize>u << 2);
    store<u32>(p, load<u32>(p) + load<u32>(p - 4));
  }
  const total = load<u32>(off + (<usize>n << 2));
  const adj = alloc(<usize>total << 2);
  const k = alloc(<usize>n << 3);
  for (let u: u32 = 0; u < n; u++) {
    const pu = <usize>u << 2;
    const w0 = load<u32>(off + pu);
    const cnt = load<u32>(off + pu, 4) - w0;
    store<f64>(k + (<usize>u << 3), <f64>cnt);
    const from = tmp + (<usize>(load<u32>(oo + pu) + load<u32>(io + pu)) << 2);
    memory.copy(adj + (<usize>w0 << 2), from, <usize>cnt << 2);
  }
  release(tmp);
  g.e = total;
  g.off = off;
  g.adj = adj;
  g.k = k;
  g.total = <f64>total;
  return g;
}

// Newman modularity of a partition, with resolution gamma.
// Returns: Q = sum_c [ L_c / W - gamma * (D_c / 2W)^2 ], W the total edge weight, L_c the weight
//   of edges inside c (self-loops included), D_c the strength of c; NaN when W == 0. With unit
//   weights and gamma = 1 this is networkx's `modularity` on the undirected simple graph, computed
//   in the same order of operations per community.
// Input: `memb` u32[n] community labels, each < n (checked by the caller).
// Cost: O(n + e) time, 16n bytes scratch.
export function modularityOf(g: UGraph, memb: usize, gamma: f64): f64 {
  const n = g.n;
  if (g.total == 0) return NaN;
  const lin = allocFill(<usize>n << 3, 0); // 2 * L_c (each edge seen from both ends)
  const deg = allocFill(<usize>n << 3, 0);
  const off = g.off, adj = g.adj, wt = g.wt, lp = g.loop, k = g.k;
  for (let u: u32 = 0; u < n; u++) {
    const c = load<u32>(memb + (<usize>u << 2));
    const pc = <usize>c << 3;
    store<f64>(deg + pc, load<f64>(deg + pc) + load<f64>(k + (<usize>u << 3)));
    let s: f64 = lp != 0 ? 2 * load<f64>(lp + (<usize>u << 3)) : 0;
    for (let e = load<u32>(off + (<usize>u << 2)), e1 = load<u32>(off + (<usize>u << 2), 4); e < e1; e++) {
      const v = load<u32>(adj + (<usize>e << 2));
      if (load<u32>(memb + (<usize>v << 2)) == c) s += wt != 0 ? load<f64>(wt + (<usize>e << 3)) : 1.0;
    }
    store<f64>(lin + pc, load<f64>(lin + pc) + s);
  }
  const m = g.total * 0.5;
  const norm = 1.0 / (g.total * g.total);
  let q: f64 = 0;
  for (let c: u32 = 0; c < n; c++) {
    const d = load<f64>(deg + (<usize>c << 3));
    const l = load<f64>(lin + (<usize>c << 3));
    if (d == 0 && l == 0) continue;
    q += (l * 0.5) / m - gamma * d * d * norm;
  }
  release(lin);
  release(deg);
  return q;
}

/**
 * Relabel `memb` (u32[n], labels < n) canonically: communities numbered 0, 1, 2... in order of
 * their smallest node id, written to `out` (may equal `memb`). `map` is u32[n] scratch. Returns the
 * community count.
 */
export function canonicalize(n: u32, memb: usize, out: usize, map: usize): u32 {
  memory.fill(map, 0xFF, <usize>n << 2);
  let next: u32 = 0;
  for (let u: u32 = 0; u < n; u++) {
    const c = load<u32>(memb + (<usize>u << 2));
    const pm = map + (<usize>c << 2);
    let id = load<u32>(pm);
    if (id == NONE) { id = next++; store<u32>(pm, id); }
    store<u32>(out + (<usize>u << 2), id);
  }
  return next;
}
