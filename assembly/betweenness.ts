// Betweenness centrality.
// Returns: the number of pivots (BFS sources) used; `out` (f64[n], caller-owned) holds each node's
//   betweenness on the directed simple graph: arcs whose relation bit is in `mask`, parallel arcs
//   collapsed, self-loops ignored, unweighted, endpoints excluded. This is networkx's
//   betweenness_centrality(G, normalized, endpoints=False) on the DiGraph.
// Scaling: with `normalized`, divided by (n-1)(n-2) when n > 2. With k < n pivots the sums are
//   scaled up to estimate the exact values (Brandes and Pich, "Centrality estimation in large
//   networks", 2007), exactly as networkx 3.x does for `k` (see the end of betweennessInto).
// Algorithm: Brandes, "A faster algorithm for betweenness centrality", J. Math. Sociol. 2001: per
//   pivot s, a BFS counting shortest paths sigma, then dependencies accumulated in reverse BFS
//   order: delta[v] = sum over successors w (dist[w] = dist[v] + 1) of sigma[v]/sigma[w] (1 +
//   delta[w]). Successors are re-found by scanning v's out-arcs, so no predecessor lists.
// Pivots: all nodes when samples == 0 or samples >= n; else the first `samples` entries of a
//   seeded Fisher-Yates shuffle of 0..n-1 (partial), so a seed fixes the sample.
// Cost: O(k m) time; (n+1)4 + 4m bytes for the simple arc list, 28n bytes of scratch.

import { CsrGraph } from './csr';
import { alloc, allocFill, release } from './mem';
import { rngSeed, rngBelow } from './rng';

export function betweennessInto(cg: CsrGraph, mask: u32, samples: u32, seed: u32, normalized: bool, out: usize): u32 {
  const n = cg.n;
  memory.fill(out, 0, <usize>n << 3);
  if (n == 0) return 0;
  const checkRel = mask != 0xFFFFFFFF;
  // directed simple adjacency: out-arcs in CSR order, first occurrence of each target kept
  const oo = cg.outOff, ot = cg.outTgt, orl = cg.outRel;
  const off = alloc((<usize>n + 1) << 2);
  const adj = alloc((<usize>max<u32>(cg.m, 1)) << 2);
  const stamp = allocFill(<usize>n << 2, 0xFF);
  let w: u32 = 0;
  for (let u: u32 = 0; u < n; u++) {
    const pu = <usize>u << 2;
    store<u32>(off + pu, w);
    for (let e = load<u32>(oo + pu), e1 = load<u32>(oo + pu, 4); e < e1; e++) {
      if (checkRel && ((mask >>> load<u8>(orl + e)) & 1) == 0) continue;
      const v = load<u32>(ot + (<usize>e << 2));
      const ps = stamp + (<usize>v << 2);
      if (v != u && load<u32>(ps) != u) { store<u32>(ps, u); store<u32>(adj + (<usize>w << 2), v); w++; }
    }
  }
  store<u32>(off + (<usize>n << 2), w);

  // pivots (reuse `stamp` as the permutation)
  let k = n;
  const pivots = stamp;
  for (let i: u32 = 0; i < n; i++) store<u32>(pivots + (<usize>i << 2), i);
  if (samples > 0 && samples < n) {
    k = samples;
    rngSeed(<u64>seed);
    for (let i: u32 = 0; i < k; i++) {
      const j = i + rngBelow(n - i);
      const pi = pivots + (<usize>i << 2);
      const pj = pivots + (<usize>j << 2);
      const t = load<u32>(pi);
      store<u32>(pi, load<u32>(pj));
      store<u32>(pj, t);
    }
  }

  const dist = allocFill(<usize>n << 2, 0xFF); // i32, -1 = unseen
  const sigma = allocFill(<usize>n << 3, 0);
  const delta = allocFill(<usize>n << 3, 0);
  const queue = alloc(<usize>n << 2);
  for (let p: u32 = 0; p < k; p++) {
    const s = load<u32>(pivots + (<usize>p << 2));
    store<i32>(dist + (<usize>s << 2), 0);
    store<f64>(sigma + (<usize>s << 3), 1);
    store<u32>(queue, s);
    let head: u32 = 0;
    let tail: u32 = 1;
    while (head < tail) {
      const v = load<u32>(queue + (<usize>head << 2));
      head++;
      const dn = load<i32>(dist + (<usize>v << 2)) + 1;
      const sv = load<f64>(sigma + (<usize>v << 3));
      for (let e = load<u32>(off + (<usize>v << 2)), e1 = load<u32>(off + (<usize>v << 2), 4); e < e1; e++) {
        const x = load<u32>(adj + (<usize>e << 2));
        const pd = dist + (<usize>x << 2);
        let dx = load<i32>(pd);
        if (dx < 0) {
          dx = dn;
          store<i32>(pd, dn);
          store<u32>(queue + (<usize>tail << 2), x);
          tail++;
        }
        if (dx == dn) {
          const px = sigma + (<usize>x << 3);
          store<f64>(px, load<f64>(px) + sv);
        }
      }
    }
    for (let i = tail; i > 0; i--) {
      const v = load<u32>(queue + (<usize>(i - 1) << 2));
      const dn = load<i32>(dist + (<usize>v << 2)) + 1;
      const sv = load<f64>(sigma + (<usize>v << 3));
      let d: f64 = 0;
      for (let e = load<u32>(off + (<usize>v << 2)), e1 = load<u32>(off + (<usize>v << 2), 4); e < e1; e++) {
        const x = load<u32>(adj + (<usize>e << 2));
        if (load<i32>(dist + (<usize>x << 2)) == dn) {
          d += (sv / load<f64>(sigma + (<usize>x << 3))) * (1 + load<f64>(delta + (<usize>x << 3)));
        }
      }
      store<f64>(delta + (<usize>v << 3), d);
      if (v != s) {
        const po = out + (<usize>v << 3);
        store<f64>(po, load<f64>(po) + d);
      }
    }
    for (let i: u32 = 0; i < tail; i++) {
      const v = load<u32>(queue + (<usize>i << 2));
      store<i32>(dist + (<usize>v << 2), -1);
      store<f64>(sigma + (<usize>v << 3), 0);
      store<f64>(delta + (<usize>v << 3), 0);
    }
  }
  // Scaling, as networkx 3.x `_rescale` (endpoints excluded): N = n - 1 targets per source.
  // Exact: normalized divides by (n-1)(n-2). Sampled: a non-pivot's sum covers k of its n-1
  // possible sources, a pivot's only k-1 (it is never its own source), so each is scaled up by
  // (n-1)/k or (n-1)/(k-1) before normalizing (networkx gives NaN for the pivot when k = 1; 0 here).
  if (n > 2) {
    const N = <f64>n - 1;
    let sNon: f64, sSrc: f64;
    if (k == n) {
      sNon = normalized ? 1.0 / (N * (N - 1)) : 1.0;
      sSrc = sNon;
    } else {
      const kf = <f64>k;
      sNon = normalized ? 1.0 / (kf * (N - 1)) : N / kf;
      sSrc = k > 1 ? (normalized ? 1.0 / ((kf - 1) * (N - 1)) : N / (kf - 1)) : 0;
      for (let p: u32 = 0; p < k; p++) store<i32>(dist + (<usize>load<u32>(pivots + (<usize>p << 2)) << 2), 0);
    }
    if (sNon != 1 || sSrc != 1) {
      for (let v: u32 = 0; v < n; v++) {
        const po = out + (<usize>v << 3);
        store<f64>(po, load<f64>(po) * (load<i32>(dist + (<usize>v << 2)) == 0 ? sSrc : sNon));
      }
    }
  }
  release(off);
  release(adj);
  release(stamp);
  release(dist);
  release(sigma);
  release(delta);
  release(queue);
  return k;
}
