// Weakly and strongly connected components with canonical labels.
// Returns: the number of components; `label` (u32[n]) numbers components 0, 1, 2, ... in order of
//   their smallest node id. Only edges whose relation bit is in `mask` count.
// Weak: union-find linking the larger root under the smaller (so every root is its component's
//   smallest id), with path halving, in the Afforest order (Sutton, Ben-Nun, Barak, "Optimizing
//   Parallel Graph Connectivity Computation via Subgraph Sampling", IPDPS 2018; gapbs cc.cc):
//   first the first two out-edges of every node, then find the most frequent root among sampled
//   nodes (the giant component); nodes already in it skip their remaining edges, the others unite
//   their remaining out-edges and all their in-edges (which covers edges from skipped nodes).
//   Labels in one ascending pass. Cost: O(m' α(n)), far fewer edges touched on skewed graphs.
// Strong: Tarjan's algorithm, iterative (an explicit call stack of node + edge cursor, so deep
//   graphs cannot overflow the wasm stack); then component ids are renumbered canonically.
//   Cost: O(n + m'). Both deterministic.

import { CsrGraph, CHUNK_NODES } from './csr';
import { alloc, allocFill, release } from './mem';
import { bitsetAlloc, bitGet, bitSet } from './bitset';
import { ALL_RELATIONS } from './abi';

// @ts-ignore: decorator
@inline function find(parent: usize, v: u32): u32 {
  while (true) {
    const p = load<u32>(parent + (<usize>v << 2));
    if (p == v) return v;
    const gp = load<u32>(parent + (<usize>p << 2));
    store<u32>(parent + (<usize>v << 2), gp);
    v = gp;
  }
}

// @ts-ignore: decorator
@inline function unite(parent: usize, u: u32, v: u32): void {
  let a = find(parent, u);
  let c = find(parent, v);
  if (a == c) return;
  if (a > c) { const t = a; a = c; c = t; }
  store<u32>(parent + (<usize>c << 2), a);
}

/** Out-edges per node united before sampling the giant component. */
// @ts-ignore: decorator
@inline const ROUNDS: u32 = 2;
// @ts-ignore: decorator
@inline const SAMPLES: u32 = 1024;
// @ts-ignore: decorator
@inline const NO_SKIP: u32 = 0xFFFFFFFF;

// Nodes lo..hi. When `skip` is NO_SKIP: unite u with its out-neighbour number `round` (sampling).
// Otherwise, for every u whose root is not `skip`: unite with out-neighbours ROUNDS.. and with all
// in-neighbours.
function uniteRange(g: CsrGraph, mask: u32, checkRel: bool, parent: usize, round: u32, skip: u32, lo: u32, hi: u32): void {
  for (let u = lo; u < hi; u++) {
    const b = load<u32>(g.outOff + (<usize>u << 2));
    const e1 = load<u32>(g.outOff + (<usize>u << 2), 4);
    if (skip == NO_SKIP) {
      const e = b + round;
      if (e >= e1) continue;
      if (checkRel && ((mask >>> load<u8>(g.outRel + e)) & 1) == 0) continue;
      unite(parent, u, load<u32>(g.outTgt + (<usize>e << 2)));
      continue;
    }
    if (find(parent, u) == skip) continue;
    for (let e = b + ROUNDS; e < e1; e++) {
      if (checkRel && ((mask >>> load<u8>(g.outRel + e)) & 1) == 0) continue;
      unite(parent, u, load<u32>(g.outTgt + (<usize>e << 2)));
    }
    const ib = load<u32>(g.inOff + (<usize>u << 2));
    const ie = load<u32>(g.inOff + (<usize>u << 2), 4);
    for (let e = ib; e < ie; e++) {
      if (checkRel && ((mask >>> load<u8>(g.inRel + e)) & 1) == 0) continue;
      unite(parent, u, load<u32>(g.inSrc + (<usize>e << 2)));
    }
  }
}

// The most frequent root among up to SAMPLES pseudo-random nodes (fixed seed: deterministic).
function frequentRoot(parent: usize, n: u32): u32 {
  // One sample per 16 nodes (at most SAMPLES), sorted (shellsort, Ciura gaps), then the longest
  // run: the cost grows with the graph, so tiny graphs pay microseconds, not a fixed ~1M steps
  // (measured: n = 10 went from 2.3 ms to ~10 us per call, the ABI floor).
  const s: u32 = min(SAMPLES, (n >>> 4) + 1);
  const samples = alloc(<usize>s << 2);
  let x: u32 = 0x9E3779B9;
  for (let i: u32 = 0; i < s; i++) {
    x = x * 1664525 + 1013904223;
    store<u32>(samples + (<usize>i << 2), find(parent, <u32>((<u64>x * <u64>n) >>> 32)));
  }
  for (let gi: i32 = 7; gi >= 0; gi--) {
    const gap: u32 = gi == 7 ? 701 : gi == 6 ? 301 : gi == 5 ? 132 : gi == 4 ? 57 : gi == 3 ? 23 : gi == 2 ? 10 : gi == 1 ? 4 : 1;
    for (let i = gap; i < s; i++) {
      const v = load<u32>(samples + (<usize>i << 2));
      let j = i;
      while (j >= gap && load<u32>(samples + (<usize>(j - gap) << 2)) > v) {
        store<u32>(samples + (<usize>j << 2), load<u32>(samples + (<usize>(j - gap) << 2)));
        j -= gap;
      }
      store<u32>(samples + (<usize>j << 2), v);
    }
  }
  // longest run; ties go to the smallest root (deterministic)
  let best: u32 = load<u32>(samples);
  let bestCount: u32 = 0;
  let i: u32 = 0;
  while (i < s) {
    const r = load<u32>(samples + (<usize>i << 2));
    let j = i + 1;
    while (j < s && load<u32>(samples + (<usize>j << 2)) == r) j++;
    if (j - i > bestCount) { bestCount = j - i; best = r; }
    i = j;
  }
  release(samples);
  return best;
}

export function weakInto(g: CsrGraph, mask: u32, label: usize): i32 {
  const n = g.n;
  const checkRel = mask != ALL_RELATIONS;
  const parent = alloc(<usize>n << 2);
  for (let v: u32 = 0; v < n; v++) store<u32>(parent + (<usize>v << 2), v);
  // chunked: see the speed note in csr.ts
  const C = CHUNK_NODES;
  for (let round: u32 = 0; round < ROUNDS; round++) {
    uniteRange(g, mask, checkRel, parent, round, NO_SKIP, 0, min(C, n));
    for (let lo = C; lo < n; lo += C) uniteRange(g, mask, checkRel, parent, round, NO_SKIP, lo, min(lo + C, n));
  }
  const giant = n > 0 ? frequentRoot(parent, n) : 0;
  uniteRange(g, mask, checkRel, parent, 0, giant, 0, min(C, n));
  for (let lo = C; lo < n; lo += C) uniteRange(g, mask, checkRel, parent, 0, giant, lo, min(lo + C, n));
  let count: u32 = 0;
  for (let v: u32 = 0; v < n; v++) {
    const r = find(parent, v);
    if (r == v) {
      store<u32>(label + (<usize>v << 2), count);
      count++;
    } else {
      store<u32>(label + (<usize>v << 2), load<u32>(label + (<usize>r << 2)));
    }
  }
  release(parent);
  return <i32>count;
}

// @ts-ignore: decorator
@inline const UNSEEN: u32 = 0xFFFFFFFF;
// Tarjan state (module globals: kernels run one at a time, and dfsSteps is called many times).
let tIndex: usize = 0;  // u32[n] discovery index, UNSEEN
let tLow: usize = 0;    // u32[n] lowlink
let tStack: usize = 0;  // u32[n] Tarjan's node stack
let tOnStack: usize = 0; // bitset
let tCallNode: usize = 0; // u32[n] DFS call stack: node
let tCallEdge: usize = 0; // u32[n] DFS call stack: next edge
let tNext: u32 = 0;
let tSp: u32 = 0;
let tCp: u32 = 0;
let tComp: u32 = 0;

/** Edges examined per dfsSteps call (see the speed note in csr.ts). */
// @ts-ignore: decorator
@inline const STEPS: u32 = 1 << 16;

// @ts-ignore: decorator
@inline function tVisit(g: CsrGraph, v: u32): void {
  store<u32>(tIndex + (<usize>v << 2), tNext);
  store<u32>(tLow + (<usize>v << 2), tNext);
  tNext++;
  store<u32>(tStack + (<usize>tSp << 2), v);
  tSp++;
  bitSet(tOnStack, v);
  store<u32>(tCallNode + (<usize>tCp << 2), v);
  store<u32>(tCallEdge + (<usize>tCp << 2), load<u32>(g.outOff + (<usize>v << 2)));
  tCp++;
}

// Run the DFS until the call stack is empty or `budget` edges were examined.
function dfsSteps(g: CsrGraph, mask: u32, checkRel: bool, comp: usize, budget: u32): void {
  while (tCp > 0 && budget > 0) {
    const u = load<u32>(tCallNode + (<usize>(tCp - 1) << 2));
    let e = load<u32>(tCallEdge + (<usize>(tCp - 1) << 2));
    const e1 = load<u32>(g.outOff + (<usize>u << 2), 4);
    let descended = false;
    while (e < e1) {
      const cur = e;
      e++;
      budget = budget > 0 ? budget - 1 : 0;
      if (checkRel && ((mask >>> load<u8>(g.outRel + cur)) & 1) == 0) continue;
      const v = load<u32>(g.outTgt + (<usize>cur << 2));
      const iv = load<u32>(tIndex + (<usize>v << 2));
      if (iv == UNSEEN) {
        store<u32>(tCallEdge + (<usize>(tCp - 1) << 2), e);
        tVisit(g, v);
        descended = true;
        break;
      } else if (bitGet(tOnStack, v)) {
        const pl = tLow + (<usize>u << 2);
        if (iv < load<u32>(pl)) store<u32>(pl, iv);
      }
    }
    if (descended) continue;
    // u is finished
    tCp--;
    const lu = load<u32>(tLow + (<usize>u << 2));
    if (lu == load<u32>(tIndex + (<usize>u << 2))) {
      while (true) {
        tSp--;
        const w = load<u32>(tStack + (<usize>tSp << 2));
        const p = tOnStack + (<usize>(w >> 5) << 2);
        store<u32>(p, load<u32>(p) & ~(<u32>1 << (w & 31)));
        store<u32>(comp + (<usize>w << 2), tComp);
        if (w == u) break;
      }
      tComp++;
    }
    if (tCp > 0) {
      const parent = load<u32>(tCallNode + (<usize>(tCp - 1) << 2));
      const pl = tLow + (<usize>parent << 2);
      if (lu < load<u32>(pl)) store<u32>(pl, lu);
    }
  }
}

export function strongInto(g: CsrGraph, mask: u32, label: usize): i32 {
  const n = g.n;
  const checkRel = mask != ALL_RELATIONS;
  const nb = <usize>n << 2;
  tIndex = allocFill(nb, 0xFF);
  tLow = alloc(nb);
  tStack = alloc(nb);
  tOnStack = bitsetAlloc(n);
  tCallNode = alloc(nb);
  tCallEdge = alloc(nb);
  tNext = 0;
  tSp = 0;
  tCp = 0;
  tComp = 0;
  const comp = label; // raw component ids first, renumbered below
  for (let root: u32 = 0; root < n; root++) {
    if (load<u32>(tIndex + (<usize>root << 2)) != UNSEEN) continue;
    tVisit(g, root);
    dfsSteps(g, mask, checkRel, comp, STEPS);
    while (tCp > 0) dfsSteps(g, mask, checkRel, comp, STEPS);
  }
  const ncomp = tComp;
  // canonical renumbering: by smallest node id
  const remap = allocFill(<usize>ncomp << 2, 0xFF);
  let count: u32 = 0;
  for (let v: u32 = 0; v < n; v++) {
    const c = load<u32>(comp + (<usize>v << 2));
    const pr = remap + (<usize>c << 2);
    let l = load<u32>(pr);
    if (l == UNSEEN) {
      l = count;
      store<u32>(pr, l);
      count++;
    }
    store<u32>(label + (<usize>v << 2), l);
  }
  release(remap);
  release(tIndex);
  release(tLow);
  release(tStack);
  release(tOnStack);
  release(tCallNode);
  release(tCallEdge);
  return <i32>count;
}
