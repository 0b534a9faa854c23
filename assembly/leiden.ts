// Leiden community detection.
// Returns: as Louvain (louvain.ts): community count, canonical labels in `out`, modularity
//   (resolution 1) in `outQ`. Every community is connected in the undirected simple view.
// Algorithm: Traag, Waltman, van Eck, "From Louvain to Leiden: guaranteeing well-connected
//   communities", Sci. Rep. 9, 5233 (2019), Algorithm A.2: fast local moving (queue-based, shared
//   with louvain.ts) gives P; the refinement phase then starts from singletons inside each
//   community S of P and merges a node v, if v is still alone and well connected to S
//   (w(v, S-v) >= gamma k_v (K_S - k_v) / 2W), into a well-connected sub-community C of S
//   (E(C, S-C) >= gamma K_C (K_S - K_C) / 2W) with a non-negative gain. The paper draws C at
//   random with probability ~ exp(gain / theta); here, as in GVE-Leiden (Sahu 2023), the choice is
//   greedy: the strongest eligible C among those within a window of the best gain
//   (REFINE_SHARE), which grows fewer, larger sub-communities. Since a node only joins
//   sub-communities it has an edge to, every refined community is connected. The graph is
//   aggregated by the refined partition and P is carried over as the initial partition of the
//   aggregate; level 0 is not refined but aggregated by P itself, as Louvain does (see
//   REFINE_FROM_LEVEL); stop when local moving leaves every aggregate node alone. `iterations`
//   > 1 repeats the whole procedure from the previous result (as igraph's n_iterations), never
//   lowering the quality. Last, as in Louvain, the level-0 nodes move once more, and communities
//   are split into their connected parts (splitting a disconnected community only raises
//   modularity), so the guarantee holds.
// Speed: no refinement of the level-0 graph (REFINE_FROM_LEVEL); levels that start from a
//   partition skip nodes that cannot gain (moveNodesFast `skipStable`); the refinement scans each
//   node's edges about once (a candidate's weight to its community is computed when first
//   needed); the connected-parts split is a union-find in node order that also yields the
//   modularity. Measured at 2^16 (min of 7, alternating): time 1.17x Louvain's on R-MAT and 1.2x
//   on the planted graph (was 1.9x and 1.75x). Q: equal on the planted graph; on R-MAT seed 1
//   (the bench's) 0.1307 vs 0.1304 at 2^16 and 0.1203 vs 0.1201 at 2^18, but one seed of three
//   at each scale ends 0.0001-0.0003 below Louvain (before these changes seeds at 2^10-2^14 did
//   too: Leiden is not always above Louvain).
// Cost: like Louvain plus one O(e') refinement pass per aggregated level (e' its entries) and
//   one O(e) split pass. Memory: Louvain's + 36n bytes.
// Determinism: the seed fixes the node orders.

import { CsrGraph } from './csr';
import { alloc, release } from './mem';
import { rngSeed } from './rng';
import { UGraph, buildUndirectedSimple, freeUGraph } from './modularity';
import {
  MAX_LEVELS, SCAN_BUDGET, WINDOW, Q_GIVEN,
  wsAlloc, wsNw, wsGain, wsTouched, wsQueue, wsComm, wsTot, wsGlobal, wsN, wsDropped, wsFloor,
  seededOrder, initSingletons, initFromComm, moveNodesFast, renumber, renumberActive, resetFloor,
  aggregate, composeGlobal, finish,
} from './louvain';

// The refinement's window: v joins the largest eligible sub-community whose gain is within
// min(REFINE_SHARE * gamma * k_v, REFINE_CAP) of the best (the penalty of REFINE_SHARE * 2W more
// strength, capped in edge-weight units). Measured at 2^16 (seeds 1-4): 4e-3 vs 2.5e-4 cut
// Leiden ~8% on the planted graph (fewer, larger sub-communities to aggregate), Q equal there
// and within +-0.0004 on R-MAT.
// @ts-ignore: decorator
@inline const REFINE_SHARE: f64 = 4e-3;
// @ts-ignore: decorator
@inline const REFINE_CAP: f64 = 0.5;
// The first level that refines P; level 0 aggregates by P itself, as Louvain does. Refining the
// level-0 graph is a full extra pass over its edges (plus a larger aggregate), the biggest part
// of Leiden's cost over Louvain's. Measured at 2^16 (seeds 1-6, with an earlier local-moving
// window), refining from level 1 instead of level 0: Leiden/Louvain time 1.2-1.3x instead of
// 1.6-1.8x on the planted graph and 1.3x instead of 1.3-1.5x on R-MAT; Q >= our Louvain's on
// every seed (R-MAT +0.0001 to +0.0004 instead of +0.0015 to +0.003; planted equal). The
// connectivity guarantee does not depend on it (the final split, below).
// @ts-ignore: decorator
@inline const REFINE_FROM_LEVEL: u32 = 1;

// Refinement scratch (capacity = level-0 node count).
let rfPart: usize = 0; // u32[N] refined community of each node
let rfTot: usize = 0;  // f64[N] strength of each refined community
let rfSize: usize = 0; // u32[N]
let rfExt: usize = 0;  // f64[N] weight from a refined community to the rest of its P community (NaN: unknown)
let rfGain: usize = 0; // f64[N] candidate gains of the node being refined

/** Weight from node u to the other nodes of community S (u's community of P). */
function extOf(g: UGraph, u: u32, S: u32): f64 {
  const off = g.off, adj = g.adj, wt = g.wt, comm = wsComm;
  let ext: f64 = 0;
  for (let e = load<u32>(off + (<usize>u << 2)), e1 = load<u32>(off + (<usize>u << 2), 4); e < e1; e++) {
    if (load<u32>(comm + (<usize>load<u32>(adj + (<usize>e << 2)) << 2)) == S) {
      ext += wt != 0 ? load<f64>(wt + (<usize>e << 3)) : 1.0;
    }
  }
  return ext;
}

// Refine the partition P (wsComm, strengths wsTot) of level graph g into rfPart. Returns the
// number of merges made. A singleton's weight to the rest of its community is computed when it
// is visited (from the same scan that weighs the candidates) or, for a singleton candidate not yet
// visited, on demand; so the level's edges are scanned about once, not twice.
function refine(g: UGraph, gamma: f64): u32 {
  const n = g.n;
  const off = g.off, adj = g.adj, wt = g.wt, k = g.k;
  const comm = wsComm, tot = wsTot, nw = wsNw, touched = wsTouched, order = wsQueue;
  // module globals read into locals: the loops below then keep them in registers
  const part = rfPart, rtot = rfTot, rsize = rfSize, rext = rfExt, rgain = rfGain;
  const scale = gamma / g.total;
  for (let v: u32 = 0; v < n; v++) {
    store<u32>(part + (<usize>v << 2), v);
    store<u32>(rsize + (<usize>v << 2), 1);
    store<f64>(rtot + (<usize>v << 3), load<f64>(k + (<usize>v << 3)));
  }
  memory.fill(rext, 0xFF, <usize>n << 3); // NaN
  seededOrder(order, n);
  let merges: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const v = load<u32>(order + (<usize>i << 2));
    const pv = <usize>v << 2;
    if (load<u32>(part + pv) != v || load<u32>(rsize + pv) != 1) continue; // no longer alone
    const S = load<u32>(comm + pv);
    const kv = load<f64>(k + (<usize>v << 3));
    const KS = load<f64>(tot + (<usize>S << 3));
    const b = load<u32>(off + pv);
    const e1 = load<u32>(off + pv, 4);
    let t: u32 = 0;
    let extV: f64 = 0;
    for (let e = b; e < e1; e++) {
      const u = load<u32>(adj + (<usize>e << 2));
      if (load<u32>(comm + (<usize>u << 2)) != S) continue;
      const w: f64 = wt != 0 ? load<f64>(wt + (<usize>e << 3)) : 1.0;
      extV += w;
      const c = load<u32>(part + (<usize>u << 2));
      const p = nw + (<usize>c << 3);
      const old = load<f64>(p);
      store<u32>(touched + (<usize>t << 2), c);
      t += <u32>(old == 0);
      store<f64>(p, old + w);
    }
    store<f64>(rext + (<usize>v << 3), extV);
    let chosen = v;
    if (extV >= kv * (KS - kv) * scale) { // v well connected to S
      // candidate gains (v alone gains 0); -Infinity = not eligible
      let maxGain: f64 = 0;
      for (let j: u32 = 0; j < t; j++) {
        const c = load<u32>(touched + (<usize>j << 2));
        const gain = load<f64>(nw + (<usize>c << 3)) - kv * load<f64>(rtot + (<usize>c << 3)) * scale;
        store<f64>(rgain + (<usize>j << 3), gain >= 0 ? gain : -Infinity);
        if (gain > maxGain) maxGain = gain;
      }
      const lim = max<f64>(maxGain - min<f64>(REFINE_SHARE * kv * gamma, REFINE_CAP), 0);
      // the largest candidate within the window that is well connected to S (usually the first)
      for (;;) {
        let pick: i32 = -1;
        let pickTot: f64 = -1;
        for (let j: u32 = 0; j < t; j++) {
          if (!(load<f64>(rgain + (<usize>j << 3)) >= lim)) continue;
          const Kc = load<f64>(rtot + (<usize>load<u32>(touched + (<usize>j << 2)) << 3));
          if (Kc > pickTot) { pickTot = Kc; pick = <i32>j; }
        }
        if (pick < 0) break;
        const c = load<u32>(touched + (<usize>pick << 2));
        let extC = load<f64>(rext + (<usize>c << 3));
        if (extC != extC) { // a singleton not visited yet
          extC = extOf(g, c, S);
          store<f64>(rext + (<usize>c << 3), extC);
        }
        if (extC >= pickTot * (KS - pickTot) * scale) { chosen = c; break; }
        store<f64>(rgain + (<usize>pick << 3), -Infinity);
      }
    }
    if (chosen != v) {
      const pc = <usize>chosen;
      store<u32>(part + pv, chosen);
      store<u32>(rsize + (pc << 2), load<u32>(rsize + (pc << 2)) + 1);
      store<u32>(rsize + pv, 0);
      store<f64>(rtot + (pc << 3), load<f64>(rtot + (pc << 3)) + kv);
      store<f64>(rtot + (<usize>v << 3), 0);
      store<f64>(rext + (pc << 3), load<f64>(rext + (pc << 3)) + extV - 2 * load<f64>(nw + (pc << 3)));
      merges++;
    }
    for (let j: u32 = 0; j < t; j++) store<f64>(nw + (<usize>load<u32>(touched + (<usize>j << 2)) << 3), 0);
  }
  return merges;
}

/** Root of v in the union-find forest `parent` (path halving). */
// @ts-ignore: decorator
@inline function findRoot(parent: usize, v: u32): u32 {
  let p = load<u32>(parent + (<usize>v << 2));
  while (p != v) {
    const gp = load<u32>(parent + (<usize>p << 2));
    store<u32>(parent + (<usize>v << 2), gp);
    v = gp;
    p = load<u32>(parent + (<usize>v << 2));
  }
  return v;
}

// Relabel so each community of `comm` becomes one community per connected part: out[v] = the
// smallest node of v's part. Returns the modularity (resolution 1) of the result, computed on the
// way (finish() then needs no pass of its own).
// Algorithm: union-find over same-community edges, in node order (the adjacency is read
//   sequentially; a BFS from each part visits nodes in an order that misses the cache on every
//   node's adjacency, measured ~2x slower); the root of a set is always its smallest node. Each
//   part's internal weight and strength are sums of integer weights (exact) and are summed in
//   canonical order (parts by smallest node) with modularityOf's expression: the result equals
//   modularityOf's bit for bit.
// Scratch: wsGain, wsTot (overwritten), wsNw (left zero). Cost O(e alpha(n)).
function splitDisconnected(g: UGraph, comm: usize, out: usize): f64 {
  const n = g.n;
  const off = g.off, adj = g.adj, wt = g.wt, lp = g.loop, k = g.k;
  const parent = out, own = wsGain, pl = wsNw, pd = wsTot;
  for (let v: u32 = 0; v < n; v++) store<u32>(parent + (<usize>v << 2), v);
  for (let u: u32 = 0; u < n; u++) {
    const c = load<u32>(comm + (<usize>u << 2));
    let l: f64 = lp != 0 ? 2 * load<f64>(lp + (<usize>u << 3)) : 0;
    for (let e = load<u32>(off + (<usize>u << 2)), e1 = load<u32>(off + (<usize>u << 2), 4); e < e1; e++) {
      const v = load<u32>(adj + (<usize>e << 2));
      if (load<u32>(comm + (<usize>v << 2)) != c) continue;
      l += wt != 0 ? load<f64>(wt + (<usize>e << 3)) : 1.0;
      if (v < u) {
        const ru = findRoot(parent, u);
        const rv = findRoot(parent, v);
        if (ru < rv) store<u32>(parent + (<usize>rv << 2), ru);
        else if (rv < ru) store<u32>(parent + (<usize>ru << 2), rv);
      }
    }
    store<f64>(own + (<usize>u << 3), l);
  }
  for (let u: u32 = 0; u < n; u++) {
    const r = findRoot(parent, u);
    store<u32>(parent + (<usize>u << 2), r); // == out[u]
    if (r == u) store<f64>(pd + (<usize>u << 3), 0);
    store<f64>(pl + (<usize>r << 3), load<f64>(pl + (<usize>r << 3)) + load<f64>(own + (<usize>u << 3)));
    store<f64>(pd + (<usize>r << 3), load<f64>(pd + (<usize>r << 3)) + load<f64>(k + (<usize>u << 3)));
  }
  if (g.total == 0) {
    for (let u: u32 = 0; u < n; u++) store<f64>(pl + (<usize>u << 3), 0);
    return NaN;
  }
  const m = g.total * 0.5;
  const norm = 1.0 / (g.total * g.total);
  let q: f64 = 0;
  for (let u: u32 = 0; u < n; u++) {
    if (load<u32>(out + (<usize>u << 2)) != u) continue;
    const l = load<f64>(pl + (<usize>u << 3));
    const d = load<f64>(pd + (<usize>u << 3));
    store<f64>(pl + (<usize>u << 3), 0);
    if (d == 0 && l == 0) continue;
    q += (l * 0.5) / m - 1.0 * d * d * norm;
  }
  return q;
}

// Leiden on the undirected simple view of `cg` restricted to relations in `mask`.
export function leidenRun(cg: CsrGraph, mask: u32, gamma: f64, seed: u32, iterations: u32, out: usize, outQ: usize): u32 {
  rngSeed(<u64>seed);
  const g0 = buildUndirectedSimple(cg, mask);
  const n0 = g0.n;
  wsAlloc(n0);
  rfPart = alloc(<usize>n0 << 2);
  rfTot = alloc(<usize>n0 << 3);
  rfSize = alloc(<usize>n0 << 2);
  rfExt = alloc(<usize>n0 << 3);
  rfGain = alloc(<usize>n0 << 3);
  const pAgg = alloc(<usize>n0 << 2); // P label of each aggregate node
  const prev = alloc(<usize>n0 << 2); // result of the previous iteration (level-0 labels)
  let g = g0;
  for (let it: u32 = 0; it < max<u32>(iterations, 1); it++) {
    if (it == 0) {
      initSingletons(g0);
    } else {
      // restart from the previous result on the level-0 graph
      resetFloor();
      for (let i: u32 = 0; i < n0; i++) {
        const p = <usize>i << 2;
        store<u32>(wsComm + p, load<u32>(prev + p));
        store<u32>(wsGlobal + p, i);
      }
      initFromComm(g0);
    }
    g = g0;
    // A level that starts from a partition (after a refined aggregation, or a repeat iteration)
    // has most nodes already in their best community: moveNodesFast skips those cheaply.
    let fromPartition = it > 0;
    for (let level: u32 = 0; level < MAX_LEVELS; level++) {
      moveNodesFast(g, gamma, SCAN_BUDGET * <f64>g.e, WINDOW, fromPartition);
      const cP = renumber(g.n, wsComm);
      if (cP == g.n) break; // every node alone: done
      let cR = g.n;
      if (level >= REFINE_FROM_LEVEL) {
        initFromComm(g); // tot by the dense labels
        refine(g, gamma);
        cR = renumberActive(g, rfPart);
        if (cR + wsDropped == g.n) {
          // No merge inside any community (only possible in degenerate cases): undo the drops
          // (rfPart is rebuilt below), so the P path gives them their final labels once.
          wsFloor += wsDropped;
          cR = g.n;
        }
      }
      fromPartition = cR != g.n;
      if (cR == g.n) {
        // Level 0, or no merge inside any community: aggregate by P itself, as Louvain does,
        // so the level graph always shrinks.
        memory.copy(rfPart, wsComm, <usize>g.n << 2);
        cR = renumberActive(g, rfPart);
      }
      for (let u: u32 = 0; u < g.n; u++) {
        const r = load<u32>(rfPart + (<usize>u << 2));
        if (r < cR) store<u32>(pAgg + (<usize>r << 2), load<u32>(wsComm + (<usize>u << 2)));
      }
      composeGlobal(rfPart);
      const ng = aggregate(g, rfPart, cR);
      if (g != g0) freeUGraph(g);
      g = ng;
      // P labels of the aggregate nodes, dense again (dropped nodes may leave gaps)
      renumber(cR, pAgg, cP);
      memory.copy(wsComm, pAgg, <usize>cR << 2);
      initFromComm(g);
    }
    // level-0 labels of this iteration's result (final labels of dropped nodes as they are)
    for (let i: u32 = 0; i < n0; i++) {
      const p = <usize>i << 2;
      const x = load<u32>(wsGlobal + p);
      store<u32>(prev + p, x >= wsFloor ? x : load<u32>(wsComm + (<usize>x << 2)));
    }
    if (g != g0) freeUGraph(g);
    g = g0;
  }
  // Final pass, as in louvain.ts: level-0 nodes move again from the result (raises the quality),
  // then every community is split into its connected parts, which restores the connectivity
  // guarantee and can only raise modularity further (no edge joins the parts, so splitting
  // removes only the -gamma * D_a * D_b / 2W^2 penalty between them).
  memory.copy(wsComm, prev, <usize>n0 << 2);
  initFromComm(g0);
  moveNodesFast(g0, gamma, SCAN_BUDGET * <f64>g0.e, 0, true); // as Louvain's final pass
  const q = splitDisconnected(g0, wsComm, prev);
  // the final labels are in `prev`; make wsGlobal the identity and finish through `prev`
  for (let i: u32 = 0; i < wsN; i++) store<u32>(wsGlobal + (<usize>i << 2), i);
  const count = finish(g0, prev, out, outQ, Q_GIVEN, q);
  release(rfPart);
  release(rfTot);
  release(rfSize);
  release(rfExt);
  release(rfGain);
  release(pAgg);
  release(prev);
  return count;
}
