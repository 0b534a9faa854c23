// Single-pair shortest path (unweighted), directed or undirected, with a hop limit.
// Returns: the number of nodes written to `out` (s first, t last), 0 when there is no path of at
//   most maxHops edges, E_CAPACITY when the path does not fit `cap`.
// Algorithm: bidirectional level-synchronous BFS: forward from s over out-edges, backward from t
//   over in-edges (both adjacencies each way when undirected); each round expands the whole level
//   of the side with the smaller frontier. The first round that discovers a node seen by the other
//   side fixes the length D = levelF + levelB + 1 (every shorter path would have met earlier); the
//   meeting node is the smallest id among those completing a length-D path.
// Determinism: parents are the first discoverer in queue (CSR) order, side choice depends only on
//   frontier sizes, and the meeting tie-break is by id: the same graph gives the same path.
// Encoding: dist i32 per side (-1 unseen), parent u32 per side.
// Cost: O(n) to initialise, plus the edges of the levels expanded (often far fewer than m).

import { CsrGraph } from './csr';
import { alloc, allocFill, release } from './mem';
import { E_CAPACITY, ALL_RELATIONS } from './abi';

/** Frontier nodes per expand call (see the speed note in csr.ts). */
// @ts-ignore: decorator
@inline const CHUNK: u32 = 1024;

// Frontier state of one side, kept in module globals to avoid managed objects.
let meetNode: u32 = 0;
let meetLen: i32 = 0;

// Expand one adjacency of a level: nodes queue[head..end) at distance `level`; append discoveries
// at `tail`; returns the new tail. Records meetings with the other side (distO).
function expand(
  off: usize, adj: usize, rel: usize, mask: u32, checkRel: bool,
  queue: usize, head: u32, end: u32, tail: u32, level: i32,
  dist: usize, par: usize, distO: usize,
): u32 {
  for (let i = head; i < end; i++) {
    const u = load<u32>(queue + (<usize>i << 2));
    const b = load<u32>(off + (<usize>u << 2));
    const e1 = load<u32>(off + (<usize>u << 2), 4);
    for (let e = b; e < e1; e++) {
      if (checkRel && ((mask >>> load<u8>(rel + e)) & 1) == 0) continue;
      const v = load<u32>(adj + (<usize>e << 2));
      const pd = dist + (<usize>v << 2);
      if (load<i32>(pd) >= 0) continue;
      store<i32>(pd, level + 1);
      store<u32>(par + (<usize>v << 2), u);
      store<u32>(queue + (<usize>tail << 2), v);
      tail++;
      const o = load<i32>(distO + (<usize>v << 2));
      if (o >= 0) {
        const len = level + 1 + o;
        if (meetLen < 0 || len < meetLen || (len == meetLen && v < meetNode)) {
          meetLen = len;
          meetNode = v;
        }
      }
    }
  }
  return tail;
}

export function pathInto(g: CsrGraph, s: u32, t: u32, mask: u32, undirected: bool, maxHops: u32, out: usize, cap: u32): i32 {
  if (s == t) {
    if (cap < 1) return E_CAPACITY;
    store<u32>(out, s);
    return 1;
  }
  const n = g.n;
  const checkRel = mask != ALL_RELATIONS;
  const nb = <usize>n << 2;
  const distF = allocFill(nb, 0xFF);
  const distB = allocFill(nb, 0xFF);
  const parF = alloc(nb);
  const parB = alloc(nb);
  const qF = alloc(nb);
  const qB = alloc(nb);
  store<i32>(distF + (<usize>s << 2), 0);
  store<i32>(distB + (<usize>t << 2), 0);
  store<u32>(qF, s);
  store<u32>(qB, t);
  let hF: u32 = 0, tF: u32 = 1, hB: u32 = 0, tB: u32 = 1;
  let lF: i32 = 0, lB: i32 = 0;
  meetLen = -1;
  meetNode = 0;
  while (hF < tF && hB < tB) {
    if (<u64>(lF + lB) >= <u64>maxHops) break;
    if (tF - hF <= tB - hB) {
      const end = tF;
      for (let lo = hF; lo < end; lo += CHUNK) {
        const hi = min(lo + CHUNK, end);
        tF = expand(g.outOff, g.outTgt, g.outRel, mask, checkRel, qF, lo, hi, tF, lF, distF, parF, distB);
        if (undirected) tF = expand(g.inOff, g.inSrc, g.inRel, mask, checkRel, qF, lo, hi, tF, lF, distF, parF, distB);
      }
      hF = end;
      lF++;
    } else {
      const end = tB;
      for (let lo = hB; lo < end; lo += CHUNK) {
        const hi = min(lo + CHUNK, end);
        tB = expand(g.inOff, g.inSrc, g.inRel, mask, checkRel, qB, lo, hi, tB, lB, distB, parB, distF);
        if (undirected) tB = expand(g.outOff, g.outTgt, g.outRel, mask, checkRel, qB, lo, hi, tB, lB, distB, parB, distF);
      }
      hB = end;
      lB++;
    }
    if (meetLen >= 0) break;
  }
  let result: i32 = 0;
  if (meetLen >= 0) {
    const count = <u32>meetLen + 1;
    assert(<u64>meetLen <= <u64>maxHops);
    if (count > cap) {
      result = E_CAPACITY;
    } else {
      // s .. meet: walk forward parents from meet back to s, writing right to left.
      let v = meetNode;
      let i = <u32>load<i32>(distF + (<usize>v << 2));
      while (true) {
        store<u32>(out + (<usize>i << 2), v);
        if (i == 0) break;
        v = load<u32>(parF + (<usize>v << 2));
        i--;
      }
      // meet .. t: walk backward parents.
      v = meetNode;
      i = <u32>load<i32>(distF + (<usize>v << 2));
      while (v != t) {
        v = load<u32>(parB + (<usize>v << 2));
        i++;
        store<u32>(out + (<usize>i << 2), v);
      }
      result = <i32>count;
    }
  }
  release(distF);
  release(distB);
  release(parF);
  release(parB);
  release(qF);
  release(qB);
  return result;
}
