// Breadth-first search, single- or multi-source, with relation mask, direction and max depth.
// Returns: number of nodes reached (sources included); `dist` (i32[n], caller-owned) holds the hop
//   distance from the nearest source, -1 = unreachable (or beyond maxDepth).
// Algorithm: direction-optimizing BFS (Beamer, Asanovic, Patterson, "Direction-Optimizing
//   Breadth-First Search", SC'12; sbeamer/gapbs:src/bfs.cc): top-down steps over a sliding queue
//   while the frontier is small; bottom-up steps over bitmaps (each unvisited node looks for a
//   parent in the frontier and stops at the first) when the frontier's edges exceed the
//   unexplored edges / ALPHA; back to top-down when the frontier shrinks below n / BETA.
//   Bottom-up for direction `out` scans in-edges, for `in` out-edges, for `both` both.
// Encoding: dist < 0 is the visited set; frontier = queue window [head, tail) or bitmap.
// Cost: O(n + m') for the m' edges examined (bottom-up examines far fewer on skewed graphs).
// Determinism: distances are unique; no parent is reported, so step choice cannot show.

import { CsrGraph, CHUNK_NODES } from './csr';
import { alloc, release } from './mem';
import { bitsetAlloc, bitGet, bitSet, bitClearAll, bitsetBytes } from './bitset';
import { DIR_OUT, DIR_IN, DIR_BOTH, ALL_RELATIONS } from './abi';

// @ts-ignore: decorator
@inline const ALPHA: u64 = 15;
// @ts-ignore: decorator
@inline const BETA: u32 = 18;
/** Frontier nodes per top-down chunk call (see the speed note in csr.ts). */
// @ts-ignore: decorator
@inline const TD_CHUNK: u32 = 1024;

// @ts-ignore: decorator
@inline function degreeOf(g: CsrGraph, v: u32, dir: u32): u32 {
  const p = <usize>v << 2;
  let d: u32 = 0;
  if (dir != DIR_IN) d += load<u32>(g.outOff + p, 4) - load<u32>(g.outOff + p);
  if (dir != DIR_OUT) d += load<u32>(g.inOff + p, 4) - load<u32>(g.inOff + p);
  return d;
}

// One top-down step over one adjacency (off/adj/rel). Appends newly found nodes to the queue at
// `tail`; returns the new tail. Adds their degrees to `scout` (global below, avoids a tuple).
let scout: u64 = 0;

function topDown(
  off: usize, adj: usize, rel: usize, mask: u32, checkRel: bool,
  g: CsrGraph, dir: u32, dist: usize, queue: usize, head: u32, end: u32, tail: u32, depth: i32,
): u32 {
  for (let i = head; i < end; i++) {
    const u = load<u32>(queue + (<usize>i << 2));
    const b = load<u32>(off + (<usize>u << 2));
    const e1 = load<u32>(off + (<usize>u << 2), 4);
    for (let e = b; e < e1; e++) {
      if (checkRel && ((mask >>> load<u8>(rel + e)) & 1) == 0) continue;
      const v = load<u32>(adj + (<usize>e << 2));
      const pd = dist + (<usize>v << 2);
      if (load<i32>(pd) < 0) {
        store<i32>(pd, depth + 1);
        store<u32>(queue + (<usize>tail << 2), v);
        tail++;
        scout += degreeOf(g, v, dir);
      }
    }
  }
  return tail;
}

// Does v have a frontier neighbour through adjacency (off/adj/rel)?
// @ts-ignore: decorator
@inline function hasParent(off: usize, adj: usize, rel: usize, mask: u32, checkRel: bool, front: usize, v: u32): bool {
  const b = load<u32>(off + (<usize>v << 2));
  const e1 = load<u32>(off + (<usize>v << 2), 4);
  for (let e = b; e < e1; e++) {
    if (checkRel && ((mask >>> load<u8>(rel + e)) & 1) == 0) continue;
    if (bitGet(front, load<u32>(adj + (<usize>e << 2)))) return true;
  }
  return false;
}

// One bottom-up step over nodes lo..hi; returns the number of nodes found (marked in `next`).
function bottomUpRange(g: CsrGraph, dir: u32, mask: u32, checkRel: bool, dist: usize, front: usize, next: usize, depth: i32, lo: u32, hi: u32): u32 {
  let awake: u32 = 0;
  for (let v = lo; v < hi; v++) {
    const pd = dist + (<usize>v << 2);
    if (load<i32>(pd) >= 0) continue;
    // For direction out, a parent u has u -> v: look at v's in-edges. For in, v's out-edges.
    let found = false;
    if (dir != DIR_IN) found = hasParent(g.inOff, g.inSrc, g.inRel, mask, checkRel, front, v);
    if (!found && dir != DIR_OUT) found = hasParent(g.outOff, g.outTgt, g.outRel, mask, checkRel, front, v);
    if (found) {
      store<i32>(pd, depth + 1);
      bitSet(next, v);
      awake++;
    }
  }
  return awake;
}

export function bfsInto(g: CsrGraph, sources: usize, count: u32, mask: u32, maxDepth: u32, dir: u32, dist: usize): i32 {
  const n = g.n;
  memory.fill(dist, 0xFF, <usize>n << 2);
  if (n == 0) return 0;
  const checkRel = mask != ALL_RELATIONS;
  const queue = alloc(<usize>n << 2);
  let head: u32 = 0;
  let tail: u32 = 0;
  scout = 0;
  for (let i: u32 = 0; i < count; i++) {
    const s = load<u32>(sources + (<usize>i << 2));
    const pd = dist + (<usize>s << 2);
    if (load<i32>(pd) < 0) {
      store<i32>(pd, 0);
      store<u32>(queue + (<usize>tail << 2), s);
      tail++;
      scout += degreeOf(g, s, dir);
    }
  }
  let reached: u32 = tail;
  let edgesToCheck: u64 = dir == DIR_BOTH ? (<u64>g.m) << 1 : <u64>g.m;
  let front: usize = 0;
  let next: usize = 0;
  let depth: i32 = 0;
  while (head < tail && <u32>depth < maxDepth) {
    if (scout > edgesToCheck / ALPHA) {
      // bottom-up phase
      if (front == 0) {
        front = bitsetAlloc(n);
        next = bitsetAlloc(n);
      } else {
        bitClearAll(front, n);
      }
      for (let i = head; i < tail; i++) bitSet(front, load<u32>(queue + (<usize>i << 2)));
      let awake: u32 = tail - head;
      let old: u32 = 0;
      do {
        old = awake;
        bitClearAll(next, n);
        // chunked: see the speed note in csr.ts
        awake = bottomUpRange(g, dir, mask, checkRel, dist, front, next, depth, 0, min(CHUNK_NODES, n));
        for (let lo = CHUNK_NODES; lo < n; lo += CHUNK_NODES) {
          awake += bottomUpRange(g, dir, mask, checkRel, dist, front, next, depth, lo, min(lo + CHUNK_NODES, n));
        }
        const t = front; front = next; next = t;
        depth++;
        reached += awake;
      } while (awake > 0 && <u32>depth < maxDepth && (awake >= old || awake > n / BETA));
      // back to a queue holding the frontier (the bits of `front`)
      head = 0;
      tail = 0;
      scout = 0;
      const words = <u32>(bitsetBytes(n) >> 2);
      for (let w: u32 = 0; w < words; w++) {
        let bits = load<u32>(front + (<usize>w << 2));
        while (bits != 0) {
          const v = (w << 5) | <u32>ctz(bits);
          bits &= bits - 1;
          store<u32>(queue + (<usize>tail << 2), v);
          tail++;
          scout += degreeOf(g, v, dir);
        }
      }
    } else {
      // top-down step
      edgesToCheck = edgesToCheck > scout ? edgesToCheck - scout : 0;
      scout = 0;
      const end = tail;
      for (let lo = head; lo < end; lo += TD_CHUNK) {
        const hi = min(lo + TD_CHUNK, end);
        if (dir != DIR_IN) tail = topDown(g.outOff, g.outTgt, g.outRel, mask, checkRel, g, dir, dist, queue, lo, hi, tail, depth);
        if (dir != DIR_OUT) tail = topDown(g.inOff, g.inSrc, g.inRel, mask, checkRel, g, dir, dist, queue, lo, hi, tail, depth);
      }
      reached += tail - end;
      assert(tail <= n);
      head = end;
      depth++;
    }
  }
  release(queue);
  release(front);
  release(next);
  return <i32>reached;
}
