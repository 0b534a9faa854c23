// Louvain community detection, and the machinery Leiden shares (workspace, local moving,
// renumbering, aggregation).
// Returns: community count; `out` (u32[n], caller-owned) holds canonical labels (communities
//   numbered in order of their smallest node id); modularity (resolution 1) of the result is
//   written to `outQ` (f64, NaN when the graph has no edges).
// Algorithm: Blondel, Guillaume, Lambiotte, Lefebvre, "Fast unfolding of communities in large
//   networks", J. Stat. Mech. 2008, on the undirected simple view (modularity.ts). Each level moves
//   nodes greedily to a neighbouring community with the best modularity gain (with resolution
//   gamma; among gains within a small window of the best, the strongest community: see WINDOW),
//   then aggregates communities into the nodes of the next level, until a level moves nothing.
//   Local moving is queue-based ("fast local move", Traag, Waltman, van Eck 2019, also used by
//   Ozaki et al. 2016): every node once in a seeded order (random blocks of consecutive ids, see
//   seededOrder), then only the neighbours of nodes that moved; a node whose best gain is negative
//   may leave for an empty community. A final pass moves the level-0 nodes once more from the
//   multi-level result (multi-level refinement, Rotta and Noack 2011, at level 0 only): on skewed
//   graphs (R-MAT) it raises the modularity by ~5%, since aggregation freezes nodes in
//   communities that later merges made a worse fit; nodes that provably cannot gain are skipped
//   after a cheap count (moveNodesFast `skipStable`). The modularity reported is kept up to date
//   by the moves (wsIn) instead of recomputed over the edges.
// Encoding: per-node neighbour-community weights in a dense f64 accumulator plus a touched list
//   (no hash maps); levels are UGraph CSRs, each built from the previous by a counting sort of
//   nodes by community and one pass over their edges.
// Cost: O(m) per local-moving pass and per aggregation; memory ~ 56n bytes of workspace plus the
//   level graphs (12 bytes per adjacency entry after level 0, 4 at level 0).
// Speed, measured at 2^16 against graphology-communities-louvain (same process, alternating,
//   min of 7 runs each, load ~3-5): R-MAT 8.3x -> 11.2x, planted partition 5.2x -> 11.8x; in
//   bench/run.ts (medians) 13-15x. Modularity: planted equal (the planted partition, 0.73255);
//   R-MAT seeds 1-3 0.1304-0.1320 (was 0.1321-0.1341; graphology 0.1273), 0.1201-0.1207 at 2^18
//   (was 0.1204-0.1212).
// Determinism: same graph, mask, resolution and seed -> the same labels (the seed fixes the node
//   order; within the window the strongest community wins, ties keep the current community, else
//   the first neighbour community met).

import { CsrGraph } from './csr';
import { alloc, allocFill, release } from './mem';
import { rngSeed, rngShuffle } from './rng';
import { UGraph, NONE, newUGraph, freeUGraph, buildUndirectedSimple, modularityOf, canonicalize } from './modularity';

// @ts-ignore: decorator
@inline export const MAX_LEVELS: u32 = 128;
// Local moving stops re-queueing once it has scanned SCAN_BUDGET x the level's adjacency entries
// (the queue still drains): on skewed graphs hubs are otherwise rescanned after each of their many
// neighbours' moves. Measured at 2^16 (seed 1): budget 1 vs 3 scans 4.3M vs 7.8M entries on
// R-MAT (~1.4x faster, Q 0.1321 vs 0.1326, graphology 0.1273) and equal Q on the planted graph;
// budget 2 lost planted-partition quality, so 1 it is.
// @ts-ignore: decorator
@inline export const SCAN_BUDGET: f64 = 1;
// Window of the larger-community preference in local moving (moveNodesFast): a node u may pick
// a community up to min(WINDOW * k_u, WINDOW_SHARE * 2W) stronger than the best one, i.e. give up
// at most gamma k_u / 2W times that much gain. Measured at 2^16 (seeds 1-6): on the planted graph
// the level-1 graph shrinks from 21652 nodes / 1.41M entries to a few hundred nodes, Louvain
// ~1.7x faster, Q equal (0.73255, every seed found the 64 blocks); R-MAT Q 0.1304-0.1320 (seeds
// 1-3; 0.1341 with no window, graphology 0.1273) and 0.1201-0.1207 at 2^18 (0.1197-0.1212).
// Tried: a window that is a fixed share of 2W (2.5e-4) alone grows with the graph and lowered
// R-MAT Q to 0.129 at 2^16 and 0.114 at 2^18; WINDOW * k_u alone (no share cap) spans several
// edges on small graphs and fell below the karate and sbm-11 targets; a 1% share cap did too.
// @ts-ignore: decorator
@inline export const WINDOW: f64 = 16;
// @ts-ignore: decorator
@inline export const WINDOW_SHARE: f64 = 1e-3;

// Workspace (capacity = level-0 node count), shared by every level and by leiden.ts.
export let wsN: u32 = 0;
export let wsNw: usize = 0;      // f64[N] neighbour-community weights; all zero between uses
export let wsTouched: usize = 0; // u32[N] communities with nw != 0
export let wsQueue: usize = 0;   // u32[N] ring buffer of nodes to visit (also order scratch)
export let wsInQ: usize = 0;     // u8[N]
export let wsEmpty: usize = 0;   // u32[N] stack of empty community ids
export let wsEmptyTop: u32 = 0;
export let wsComm: usize = 0;    // u32[N] community of each node of the current level
export let wsTot: usize = 0;     // f64[N] strength of each community
export let wsSize: usize = 0;    // u32[N] nodes in each community
export let wsMap: usize = 0;     // u32[N] relabel scratch
export let wsGlobal: usize = 0;  // u32[N] level-0 node -> node of the current level
export let wsIn: usize = 0;      // f64[N] 2 x internal weight of each community, kept by moves
export let wsGain: usize = 0;    // f64[N] candidate gains of the node being moved (window mode)
// Level nodes that can never merge again (alone, no edges: isolated nodes, finished components)
// leave the level graphs: wsGlobal gives them final labels counted down from N - 1; labels >=
// wsFloor are such final labels (renumberActive, composeGlobal).
export let wsFloor: u32 = 0;
let wsFloorPrev: u32 = 0; // wsFloor before the last renumberActive
export let wsDropped: u32 = 0; // nodes the last renumberActive dropped

export function wsAlloc(n: u32): void {
  wsN = n;
  const b4 = <usize>n << 2;
  const b8 = <usize>n << 3;
  wsNw = allocFill(b8, 0);
  wsTouched = alloc(b4);
  wsQueue = alloc(b4);
  wsInQ = allocFill(<usize>n, 0);
  wsEmpty = alloc(b4);
  wsEmptyTop = 0;
  wsComm = alloc(b4);
  wsTot = alloc(b8);
  wsSize = alloc(b4);
  wsMap = alloc(b4);
  wsGlobal = alloc(b4);
  wsIn = allocFill(b8, 0);
  wsGain = alloc(b8);
  wsFloor = n;
  wsFloorPrev = n;
  wsDropped = 0;
  for (let i: u32 = 0; i < n; i++) store<u32>(wsGlobal + (<usize>i << 2), i);
}

export function wsFree(): void {
  release(wsNw);
  release(wsTouched);
  release(wsQueue);
  release(wsInQ);
  release(wsEmpty);
  release(wsComm);
  release(wsTot);
  release(wsSize);
  release(wsMap);
  release(wsGlobal);
  release(wsIn);
  release(wsGain);
  wsN = 0;
}

// Nodes per block of the visiting order (seededOrder). Measured at 2^16: blocks of 16 and 64
// both cut Louvain ~10-17% and Leiden ~20% on both bench graphs; 256 and 1024 lowered R-MAT Q
// (0.1277-0.1294 and 0.1262-0.1281 vs 0.1290-0.1300 with 16, seeds 1-4), and with 64 Leiden fell
// below Louvain on one seed.
// @ts-ignore: decorator
@inline const ORDER_BLOCK: u32 = 16;

/**
 * u32[n] at `ptr` = 0..n-1 in a seeded random order of blocks of ORDER_BLOCK consecutive ids
 * (each block in id order). A fully shuffled order makes every visit fetch a node's adjacency
 * from a random place of a multi-megabyte array (a cache miss per node, measured ~13 ns per
 * adjacency entry on a 2.1M-entry level vs ~5 ns in id order); blocks keep the walk sequential
 * and the seed still decides the order. Scratch: wsMap.
 */
export function seededOrder(ptr: usize, n: u32): void {
  const nb = (n + ORDER_BLOCK - 1) / ORDER_BLOCK;
  for (let b: u32 = 0; b < nb; b++) store<u32>(wsMap + (<usize>b << 2), b);
  rngShuffle(wsMap, nb);
  let at: usize = ptr;
  for (let i: u32 = 0; i < nb; i++) {
    const b0 = load<u32>(wsMap + (<usize>i << 2)) * ORDER_BLOCK;
    const b1 = min<u32>(b0 + ORDER_BLOCK, n);
    for (let v = b0; v < b1; v++) { store<u32>(at, v); at += 4; }
  }
}

/** Every node of `g` in its own community. */
export function initSingletons(g: UGraph): void {
  const n = g.n;
  memory.copy(wsTot, g.k, <usize>n << 3);
  for (let i: u32 = 0; i < n; i++) {
    store<u32>(wsComm + (<usize>i << 2), i);
    store<u32>(wsSize + (<usize>i << 2), 1);
  }
  wsEmptyTop = 0;
}

/** Recompute tot, size and the empty stack for the labels in wsComm (each < g.n). */
export function initFromComm(g: UGraph): void {
  const n = g.n;
  memory.fill(wsTot, 0, <usize>n << 3);
  memory.fill(wsSize, 0, <usize>n << 2);
  for (let i: u32 = 0; i < n; i++) {
    const c = <usize>load<u32>(wsComm + (<usize>i << 2));
    store<f64>(wsTot + (c << 3), load<f64>(wsTot + (c << 3)) + load<f64>(g.k + (<usize>i << 3)));
    store<u32>(wsSize + (c << 2), load<u32>(wsSize + (c << 2)) + 1);
  }
  wsEmptyTop = 0;
  for (let c: u32 = n; c > 0; c--) {
    if (load<u32>(wsSize + (<usize>(c - 1) << 2)) == 0) {
      store<u32>(wsEmpty + (<usize>wsEmptyTop << 2), c - 1);
      wsEmptyTop++;
    }
  }
}

// Queue-based local moving on level graph g with the partition in wsComm/wsTot/wsSize.
// Gains are in edge-weight units: moving u into c gains nw[c] - gamma * tot[c] * k[u] / 2W
// (relative to u alone). `requeueEdges` bounds the re-queue work: once this many adjacency
// entries have been scanned, moves no longer queue their neighbours (the queue still drains).
// `window` > 0: among the communities whose gain is within the penalty of min(window * k[u],
//   WINDOW_SHARE * 2W) more strength of the best, u joins the one with the largest strength;
//   the move must still gain strictly over staying. The exact-best rule makes a node
//   facing equal edge counts prefer the smallest community (a singleton over a pair), so level 0
//   ends with communities of 2-3 nodes and the next level graph is barely smaller; preferring
//   the larger one grows communities in one level (see WINDOW for the measurements).
// `skipStable`: first count u's weight w into its own community; when w >= penalty and
//   2w >= k[u] - 2 loop[u] + penalty (penalty = gamma (tot[cu] - k[u]) k[u] / 2W), no other
//   community and no empty one can gain more than staying (their weight is at most the rest of
//   u's), so u is skipped without the full evaluation. Exact (same result as without), and
//   cheaper when most nodes already sit in their best community (final pass, Leiden's levels
//   that start from a partition).
// Every move also updates wsIn (the communities' internal weights), so a caller that set wsIn
// for the starting partition knows the final one's without another pass over the edges.
// Returns the number of moves made.
export function moveNodesFast(g: UGraph, gamma: f64, requeueEdges: f64, window: f64, skipStable: bool): u32 {
  const n = g.n;
  if (n == 0 || g.total == 0) return 0;
  const off = g.off, adj = g.adj, wt = g.wt, k = g.k, lp = g.loop;
  const comm = wsComm, tot = wsTot, size = wsSize, nw = wsNw, touched = wsTouched;
  const queue = wsQueue, inQ = wsInQ;
  const scale = gamma / g.total;
  seededOrder(queue, n);
  memory.fill(inQ, 1, <usize>n);
  let head: u32 = 0;
  let count: u32 = n;
  let moves: u32 = 0;
  // Safety net against float-rounding cycles: each pop that moves increases the quality, so this
  // bound is never reached in practice.
  let budget: u64 = <u64>n * 1000;
  let scanned: f64 = 0; // adjacency entries scanned so far
  while (count > 0 && budget > 0) {
    budget--;
    const u = load<u32>(queue + (<usize>head << 2));
    head++;
    if (head == n) head = 0;
    count--;
    store<u8>(inQ + u, 0);
    const pu = <usize>u << 2;
    const cu = load<u32>(comm + pu);
    const ku = load<f64>(k + (<usize>u << 3));
    const b = load<u32>(off + pu);
    const e1 = load<u32>(off + pu, 4);
    scanned += <f64>(e1 - b);
    const kuScale = ku * scale;
    if (skipStable) {
      let w: f64 = 0;
      if (wt == 0) {
        let cnt: u32 = 0;
        for (let e = b; e < e1; e++) {
          cnt += <u32>(load<u32>(comm + (<usize>load<u32>(adj + (<usize>e << 2)) << 2)) == cu);
        }
        w = <f64>cnt;
      } else {
        for (let e = b; e < e1; e++) {
          const same = load<u32>(comm + (<usize>load<u32>(adj + (<usize>e << 2)) << 2)) == cu;
          if (same) w += load<f64>(wt + (<usize>e << 3));
        }
      }
      const pen = (load<f64>(tot + (<usize>cu << 3)) - ku) * kuScale;
      const rest = lp != 0 ? ku - 2 * load<f64>(lp + (<usize>u << 3)) : ku;
      if (w >= pen && 2 * w >= rest + pen) continue;
    }
    let t: u32 = 0;
    // The touched list takes every community; the index advances only on its first weight
    // (no data-dependent branch).
    if (wt == 0) {
      for (let e = b; e < e1; e++) {
        const c = load<u32>(comm + (<usize>load<u32>(adj + (<usize>e << 2)) << 2));
        const p = nw + (<usize>c << 3);
        const old = load<f64>(p);
        store<u32>(touched + (<usize>t << 2), c);
        t += <u32>(old == 0);
        store<f64>(p, old + 1.0);
      }
    } else {
      for (let e = b; e < e1; e++) {
        const c = load<u32>(comm + (<usize>load<u32>(adj + (<usize>e << 2)) << 2));
        const p = nw + (<usize>c << 3);
        const old = load<f64>(p);
        store<u32>(touched + (<usize>t << 2), c);
        t += <u32>(old == 0);
        store<f64>(p, old + load<f64>(wt + (<usize>e << 3)));
      }
    }
    const ptc = tot + (<usize>cu << 3);
    const totCu = load<f64>(ptc) - ku;
    store<f64>(ptc, totCu);
    const nwCu = load<f64>(nw + (<usize>cu << 3));
    const stay = nwCu - totCu * kuScale;
    let best = cu;
    let bestGain = stay;
    let nwBest = nwCu;
    if (window > 0) {
      // pass 1: gains (in wsGain) and the best; pass 2: the largest community within the window
      const gains = wsGain;
      let top = stay;
      for (let i: u32 = 0; i < t; i++) {
        const c = load<u32>(touched + (<usize>i << 2));
        const gain = load<f64>(nw + (<usize>c << 3)) - load<f64>(tot + (<usize>c << 3)) * kuScale;
        store<f64>(gains + (<usize>i << 3), gain);
        if (gain > top) top = gain;
      }
      const lim = top - kuScale * min<f64>(window * ku, WINDOW_SHARE * g.total);
      let bestTot: f64 = stay >= lim ? totCu : -1;
      for (let i: u32 = 0; i < t; i++) {
        const c = load<u32>(touched + (<usize>i << 2));
        const p = nw + (<usize>c << 3);
        const gain = load<f64>(gains + (<usize>i << 3));
        const w = load<f64>(p);
        store<f64>(p, 0);
        if (c == cu || gain < lim || gain <= stay) continue;
        const tc = load<f64>(tot + (<usize>c << 3));
        if (tc > bestTot) { best = c; bestGain = gain; bestTot = tc; nwBest = w; }
      }
    } else {
      for (let i: u32 = 0; i < t; i++) {
        const c = load<u32>(touched + (<usize>i << 2));
        const p = nw + (<usize>c << 3);
        const w = load<f64>(p);
        const gain = w - load<f64>(tot + (<usize>c << 3)) * kuScale;
        store<f64>(p, 0);
        if (gain > bestGain) { best = c; bestGain = gain; nwBest = w; }
      }
    }
    const sizeCu = load<u32>(size + (<usize>cu << 2)) - 1;
    if (bestGain < 0 && sizeCu > 0 && wsEmptyTop > 0) {
      // Alone is better than anywhere: take an empty community.
      wsEmptyTop--;
      best = load<u32>(wsEmpty + (<usize>wsEmptyTop << 2));
      nwBest = 0;
    }
    const ptb = tot + (<usize>best << 3);
    store<f64>(ptb, load<f64>(ptb) + ku);
    if (best != cu) {
      store<u32>(size + (<usize>cu << 2), sizeCu);
      if (sizeCu == 0) { store<u32>(wsEmpty + (<usize>wsEmptyTop << 2), cu); wsEmptyTop++; }
      const psb = size + (<usize>best << 2);
      store<u32>(psb, load<u32>(psb) + 1);
      store<u32>(comm + pu, best);
      const own = lp != 0 ? load<f64>(lp + (<usize>u << 3)) : 0;
      const pic = wsIn + (<usize>cu << 3), pib = wsIn + (<usize>best << 3);
      store<f64>(pic, load<f64>(pic) - 2 * (nwCu + own));
      store<f64>(pib, load<f64>(pib) + 2 * (nwBest + own));
      moves++;
      if (scanned <= requeueEdges) for (let e = b; e < e1; e++) {
        const v = load<u32>(adj + (<usize>e << 2));
        if (load<u8>(inQ + v) == 0 && load<u32>(comm + (<usize>v << 2)) != best) {
          store<u8>(inQ + v, 1);
          let tail = head + count;
          if (tail >= n) tail -= n;
          store<u32>(queue + (<usize>tail << 2), v);
          count++;
        }
      }
    }
  }
  return moves;
}

/** Relabel labels[0..n) (each < range) densely 0..c-1 in order of first appearance; returns c. */
export function renumber(n: u32, labels: usize, range: u32 = 0): u32 {
  memory.fill(wsMap, 0xFF, <usize>max<u32>(n, range) << 2);
  let next: u32 = 0;
  for (let u: u32 = 0; u < n; u++) {
    const pl = labels + (<usize>u << 2);
    const pm = wsMap + (<usize>load<u32>(pl) << 2);
    let id = load<u32>(pm);
    if (id == NONE) { id = next++; store<u32>(pm, id); }
    store<u32>(pl, id);
  }
  return next;
}

/** Forget the final labels given so far (a new run over the level-0 graph). */
export function resetFloor(): void {
  wsFloor = wsN;
  wsFloorPrev = wsN;
  wsDropped = 0;
}

/**
 * As renumber, for the partition the next level aggregates by: a node alone in its community
 * (per `part` itself) with no edges can never merge again, so it gets a final label (counted down
 * from wsFloor) instead of a dense one and leaves the level graphs. On R-MAT about a third of the
 * nodes are isolated and would otherwise be carried through every level. Sets wsDropped.
 * Scratch: wsEmpty (rebuilt by initSingletons / initFromComm before the next local moving).
 */
export function renumberActive(g: UGraph, labels: usize): u32 {
  const n = g.n, off = g.off, cnt = wsEmpty;
  memory.fill(cnt, 0, <usize>n << 2);
  for (let u: u32 = 0; u < n; u++) {
    const p = cnt + (<usize>load<u32>(labels + (<usize>u << 2)) << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
  memory.fill(wsMap, 0xFF, <usize>n << 2);
  wsFloorPrev = wsFloor;
  wsDropped = 0;
  let next: u32 = 0;
  for (let u: u32 = 0; u < n; u++) {
    const pl = labels + (<usize>u << 2);
    const l = load<u32>(pl);
    const edgeless = load<u32>(off + (<usize>u << 2)) == load<u32>(off + (<usize>u << 2), 4);
    if (edgeless && load<u32>(cnt + (<usize>l << 2)) == 1) {
      wsFloor--;
      wsDropped++;
      store<u32>(pl, wsFloor);
      // its internal weight, for the modularity kept by the final pass (louvainRun)
      store<f64>(wsIn + (<usize>wsFloor << 3), g.loop != 0 ? 2 * load<f64>(g.loop + (<usize>u << 3)) : 0);
      continue;
    }
    const pm = wsMap + (<usize>l << 2);
    let id = load<u32>(pm);
    if (id == NONE) { id = next++; store<u32>(pm, id); }
    store<u32>(pl, id);
  }
  return next;
}

// Aggregate g by `part` (u32[g.n], dense labels 0..c-1; labels >= c, from renumberActive, are
// left out): one node per community; the weight
// between two communities is the weight of the edges between them; a community's internal edges
// and its members' self-loops become its self-loop. Returns the new level graph.
// Cost: O(n + e), one pass over the edges; scratch 12e bytes (the arrays are then copied to
// exact size).
export function aggregate(g: UGraph, part: usize, c: u32): UGraph {
  const n = g.n;
  const off = g.off, adj = g.adj, wt = g.wt, lp = g.loop, k = g.k;
  // members of each community, by a counting sort
  const cstart = allocFill((<usize>c + 1) << 2, 0);
  for (let u: u32 = 0; u < n; u++) {
    const l = load<u32>(part + (<usize>u << 2));
    if (l >= c) continue;
    const p = cstart + ((<usize>l + 1) << 2);
    store<u32>(p, load<u32>(p) + 1);
  }
  for (let i: u32 = 1; i <= c; i++) {
    const p = cstart + (<usize>i << 2);
    store<u32>(p, load<u32>(p) + load<u32>(p - 4));
  }
  const members = alloc(<usize>n << 2);
  const cursor = wsMap;
  memory.copy(cursor, cstart, <usize>c << 2);
  for (let u: u32 = 0; u < n; u++) {
    const l = load<u32>(part + (<usize>u << 2));
    if (l >= c) continue;
    const pc = cursor + (<usize>l << 2);
    const at = load<u32>(pc);
    store<u32>(pc, at + 1);
    store<u32>(members + (<usize>at << 2), u);
  }
  // One pass over the members' edges, written into buffers of the old size (an upper bound),
  // then copied to exact-size arrays.
  const cap = max<u32>(g.e, 1);
  const tadj = alloc(<usize>cap << 2);
  const twt = alloc(<usize>cap << 3);
  const noff = alloc((<usize>c + 1) << 2);
  const nloop = alloc(<usize>c << 3);
  const nk = alloc(<usize>c << 3);
  const nw = wsNw, touched = wsTouched;
  let pos: u32 = 0;
  for (let C: u32 = 0; C < c; C++) {
    store<u32>(noff + (<usize>C << 2), pos);
    let t: u32 = 0;
    let inner: f64 = 0;
    let loops: f64 = 0;
    let kk: f64 = 0;
    for (let i = load<u32>(cstart + (<usize>C << 2)), i1 = load<u32>(cstart + (<usize>C << 2), 4); i < i1; i++) {
      const u = load<u32>(members + (<usize>i << 2));
      kk += load<f64>(k + (<usize>u << 3));
      if (lp != 0) loops += load<f64>(lp + (<usize>u << 3));
      // C itself is accumulated like any other community (no data-dependent branch in the
      // loop) and taken out below as the internal weight.
      const e0 = load<u32>(off + (<usize>u << 2)), e1 = load<u32>(off + (<usize>u << 2), 4);
      if (wt == 0) {
        for (let e = e0; e < e1; e++) {
          const D = load<u32>(part + (<usize>load<u32>(adj + (<usize>e << 2)) << 2));
          const p = nw + (<usize>D << 3);
          const old = load<f64>(p);
          if (old == 0) { store<u32>(touched + (<usize>t << 2), D); t++; }
          store<f64>(p, old + 1.0);
        }
      } else {
        for (let e = e0; e < e1; e++) {
          const D = load<u32>(part + (<usize>load<u32>(adj + (<usize>e << 2)) << 2));
          const p = nw + (<usize>D << 3);
          const old = load<f64>(p);
          if (old == 0) { store<u32>(touched + (<usize>t << 2), D); t++; }
          store<f64>(p, old + load<f64>(wt + (<usize>e << 3)));
        }
      }
    }
    for (let i: u32 = 0; i < t; i++) {
      const D = load<u32>(touched + (<usize>i << 2));
      const p = nw + (<usize>D << 3);
      if (D == C) {
        inner += load<f64>(p);
      } else {
        store<u32>(tadj + (<usize>pos << 2), D);
        store<f64>(twt + (<usize>pos << 3), load<f64>(p));
        pos++;
      }
      store<f64>(p, 0);
    }
    store<f64>(nloop + (<usize>C << 3), loops + inner * 0.5);
    store<f64>(nk + (<usize>C << 3), kk);
  }
  store<u32>(noff + (<usize>c << 2), pos);
  const ne = pos;
  const nadj = alloc(<usize>ne << 2);
  const nwt = alloc(<usize>ne << 3);
  memory.copy(nadj, tadj, <usize>ne << 2);
  memory.copy(nwt, twt, <usize>ne << 3);
  release(tadj);
  release(twt);
  release(members);
  release(cstart);
  const ng = newUGraph(c);
  ng.e = ne;
  ng.off = noff;
  ng.adj = nadj;
  ng.wt = nwt;
  ng.loop = nloop;
  ng.k = nk;
  ng.total = g.total;
  return ng;
}

/** wsGlobal[i] = part[wsGlobal[i]] for every level-0 node i not already final (labels >= the
 *  floor before the last renumberActive, which is >= the level's node count). */
export function composeGlobal(part: usize): void {
  const floor = wsFloorPrev;
  for (let i: u32 = 0; i < wsN; i++) {
    const p = wsGlobal + (<usize>i << 2);
    const x = load<u32>(p);
    if (x < floor) store<u32>(p, load<u32>(part + (<usize>x << 2)));
  }
}

// How finish() gets the modularity: a pass over the edges (modularityOf), from wsIn/wsTot of
// the communities wsGlobal names (kept by moveNodesFast), or a value the caller computed.
// @ts-ignore: decorator
@inline export const Q_PASS: u32 = 0;
// @ts-ignore: decorator
@inline export const Q_TRACKED: u32 = 1;
// @ts-ignore: decorator
@inline export const Q_GIVEN: u32 = 2;

/** Write canonical labels of wsGlobal (through `last`, u32 labels of the final level, or 0) to
 *  `out`, the modularity to `outQ` (see Q_PASS etc.); free the workspace and level-0 graph.
 *  Returns the count. */
export function finish(g0: UGraph, last: usize, out: usize, outQ: usize, qMode: u32, q: f64): u32 {
  const n = g0.n;
  if (last != 0) {
    for (let i: u32 = 0; i < n; i++) {
      const p = wsGlobal + (<usize>i << 2);
      store<u32>(p, load<u32>(last + (<usize>load<u32>(p) << 2)));
    }
  }
  const count = canonicalize(n, wsGlobal, out, wsMap);
  if (qMode == Q_PASS) q = modularityOf(g0, out, 1.0);
  else if (qMode == Q_TRACKED) q = trackedModularity(g0, count);
  store<f64>(outQ, q);
  wsFree();
  freeUGraph(g0);
  return count;
}

// Modularity (resolution 1) from the communities' internal weights (wsIn) and strengths (wsTot),
// wsMap mapping each community to its canonical label (canonicalize). The per-community values
// are sums of integer weights, hence exact, and they are summed in canonical order with
// modularityOf's expression: the result is bit-identical to modularityOf's, without its pass
// over the edges.
function trackedModularity(g0: UGraph, count: u32): f64 {
  if (g0.total == 0) return NaN;
  const n = g0.n;
  const lin = wsNw;   // all zero between uses
  const deg = wsGain;
  for (let c: u32 = 0; c < n; c++) {
    const cc = load<u32>(wsMap + (<usize>c << 2));
    if (cc == NONE) continue;
    store<f64>(lin + (<usize>cc << 3), load<f64>(wsIn + (<usize>c << 3)));
    store<f64>(deg + (<usize>cc << 3), load<f64>(wsTot + (<usize>c << 3)));
  }
  const m = g0.total * 0.5;
  const norm = 1.0 / (g0.total * g0.total);
  let q: f64 = 0;
  for (let c: u32 = 0; c < count; c++) {
    const d = load<f64>(deg + (<usize>c << 3));
    const l = load<f64>(lin + (<usize>c << 3));
    store<f64>(lin + (<usize>c << 3), 0);
    if (d == 0 && l == 0) continue;
    q += (l * 0.5) / m - 1.0 * d * d * norm;
  }
  return q;
}

// Louvain on the undirected simple view of `cg` restricted to relations in `mask`.
export function louvainRun(cg: CsrGraph, mask: u32, gamma: f64, seed: u32, out: usize, outQ: usize): u32 {
  rngSeed(<u64>seed);
  const g0 = buildUndirectedSimple(cg, mask);
  wsAlloc(g0.n);
  let g = g0;
  for (let level: u32 = 0; level < MAX_LEVELS; level++) {
    initSingletons(g);
    const moves = moveNodesFast(g, gamma, SCAN_BUDGET * <f64>g.e, WINDOW, false);
    if (moves == 0) break;
    const c = renumberActive(g, wsComm);
    if (c + wsDropped == g.n) { // no merge: every community is one node
      wsFloor += wsDropped; // this level's drops are not used
      break;
    }
    composeGlobal(wsComm);
    const ng = aggregate(g, wsComm, c);
    if (g != g0) freeUGraph(g);
    g = ng;
  }
  // The communities are the nodes of the last level g (wsGlobal maps each level-0 node to one),
  // their internal weights g's self-loops, and the dropped ones (labels >= wsFloor, internal
  // weights set by renumberActive); the labels in between are empty.
  memory.fill(wsIn, 0, <usize>wsFloor << 3);
  if (g.loop != 0) {
    for (let c: u32 = 0; c < g.n; c++) {
      store<f64>(wsIn + (<usize>c << 3), 2 * load<f64>(g.loop + (<usize>c << 3)));
    }
  }
  if (g != g0) freeUGraph(g);
  {
    // Final pass (multi-level refinement, Rotta and Noack 2011, at level 0 only): the level-0
    // nodes move again from the multi-level result; it can only raise the quality. Most nodes
    // already sit in their best community and are skipped after a cheap check.
    memory.copy(wsComm, wsGlobal, <usize>g0.n << 2);
    initFromComm(g0);
    moveNodesFast(g0, gamma, SCAN_BUDGET * <f64>g0.e, 0, true);
    memory.copy(wsGlobal, wsComm, <usize>g0.n << 2);
  }
  return finish(g0, 0, out, outQ, Q_TRACKED, 0);
}
