// Single-source shortest paths on non-negative edge weights (out-edges).
// Returns: number of nodes reached; `dist` (f64[n], caller-owned) holds distances, +Infinity for
//   unreachable. Unweighted graphs use weight 1 per edge. Parallel edges: the lightest wins.
// Algorithm: Dijkstra with an indexed binary min-heap (decrease-key), keys (dist, node id).
// Encoding: pos[v] = heap slot + 1, 0 = not in heap; settled nodes leave the heap with pos = 0
//   and a finite dist, so `dist` plus `pos` is the whole state.
// Cost: O((n + m') log n). Deterministic (ties broken by node id).

import { CsrGraph } from './csr';
import { alloc, allocFill, release } from './mem';
import { ALL_RELATIONS } from './abi';

// @ts-ignore: decorator
@inline function less(dist: usize, a: u32, b: u32): bool {
  const da = load<f64>(dist + (<usize>a << 3));
  const db = load<f64>(dist + (<usize>b << 3));
  return da < db || (da == db && a < b);
}

function siftUp(heap: usize, pos: usize, dist: usize, i: u32): void {
  const v = load<u32>(heap + (<usize>i << 2));
  while (i > 0) {
    const p = (i - 1) >> 1;
    const u = load<u32>(heap + (<usize>p << 2));
    if (!less(dist, v, u)) break;
    store<u32>(heap + (<usize>i << 2), u);
    store<u32>(pos + (<usize>u << 2), i + 1);
    i = p;
  }
  store<u32>(heap + (<usize>i << 2), v);
  store<u32>(pos + (<usize>v << 2), i + 1);
}

function siftDown(heap: usize, pos: usize, dist: usize, size: u32): void {
  if (size == 0) return;
  const v = load<u32>(heap);
  let i: u32 = 0;
  while (true) {
    const l = (i << 1) + 1;
    if (l >= size) break;
    let c = l;
    let cu = load<u32>(heap + (<usize>l << 2));
    if (l + 1 < size) {
      const ru = load<u32>(heap + (<usize>(l + 1) << 2));
      if (less(dist, ru, cu)) { c = l + 1; cu = ru; }
    }
    if (!less(dist, cu, v)) break;
    store<u32>(heap + (<usize>i << 2), cu);
    store<u32>(pos + (<usize>cu << 2), i + 1);
    i = c;
  }
  store<u32>(heap + (<usize>i << 2), v);
  store<u32>(pos + (<usize>v << 2), i + 1);
}

/** Nodes settled per settle() call. */
// @ts-ignore: decorator
@inline const POPS: u32 = 4096;
let heapSize: u32 = 0;
let settled: u32 = 0;

// Settle up to `budget` nodes: pop the nearest, relax its out-edges.
function settle(g: CsrGraph, mask: u32, checkRel: bool, dist: usize, heap: usize, pos: usize, budget: u32): void {
  const w = g.weight;
  let size = heapSize;
  while (size > 0 && budget > 0) {
    budget--;
    const u = load<u32>(heap);
    store<u32>(pos + (<usize>u << 2), 0);
    size--;
    if (size > 0) {
      store<u32>(heap, load<u32>(heap + (<usize>size << 2)));
      siftDown(heap, pos, dist, size);
    }
    settled++;
    const du = load<f64>(dist + (<usize>u << 3));
    const b = load<u32>(g.outOff + (<usize>u << 2));
    const e1 = load<u32>(g.outOff + (<usize>u << 2), 4);
    for (let e = b; e < e1; e++) {
      if (checkRel && ((mask >>> load<u8>(g.outRel + e)) & 1) == 0) continue;
      const v = load<u32>(g.outTgt + (<usize>e << 2));
      const nd = du + (w != 0 ? load<f64>(w + (<usize>e << 3)) : 1.0);
      const pv = dist + (<usize>v << 3);
      if (nd < load<f64>(pv)) {
        const wasInf = load<f64>(pv) == Infinity;
        store<f64>(pv, nd);
        if (wasInf) {
          store<u32>(heap + (<usize>size << 2), v);
          siftUp(heap, pos, dist, size);
          size++;
        } else {
          const p = load<u32>(pos + (<usize>v << 2));
          if (p != 0) siftUp(heap, pos, dist, p - 1);
        }
      }
    }
  }
  heapSize = size;
}

export function dijkstraInto(g: CsrGraph, source: u32, mask: u32, dist: usize): i32 {
  const n = g.n;
  for (let v: u32 = 0; v < n; v++) store<f64>(dist + (<usize>v << 3), Infinity);
  const checkRel = mask != ALL_RELATIONS;
  const heap = alloc(<usize>n << 2);
  const pos = allocFill(<usize>n << 2, 0);
  store<f64>(dist + (<usize>source << 3), 0);
  store<u32>(heap, source);
  store<u32>(pos + (<usize>source << 2), 1);
  heapSize = 1;
  settled = 0;
  // chunked by pops: see the speed note in csr.ts
  settle(g, mask, checkRel, dist, heap, pos, POPS);
  while (heapSize > 0) settle(g, mask, checkRel, dist, heap, pos, POPS);
  const reached = <i32>settled;
  release(heap);
  release(pos);
  return reached;
}
