// Reverse k-hop reachability ("what is affected if X changes").
// Returns: count written to `outNodes`/`outDepth`/`outVia`: seeds first (deduplicated, in given
//   order, depth 0, via 255), then hop by hop: every node with a path of at most k matching edges
//   to a seed, with its depth and the relation of the edge it was reached through.
// Algorithm: level-synchronous BFS backwards, direction-optimizing as in bfs.ts (Beamer et al.):
//   a level whose frontier has few in-edges is expanded top-down over the in-CSR (new nodes in
//   frontier order x in-edge order, via = relation of that in-edge); a level whose frontier's
//   in-edges exceed the unexplored edges / ALPHA is expanded bottom-up: every unreached node scans
//   its out-edges for the first one (in out-CSR order) into the frontier (new nodes by ascending
//   id, via = relation of that out-edge). `outNodes` doubles as the BFS queue.
// Encoding: a visited bitset; depth and via are written once, at discovery.
// Cost: O(n/32 + m') for the m' matching edges examined (bottom-up levels: O(n) + far fewer
//   edges on skewed graphs). Deterministic for a given graph.

import { CsrGraph, CHUNK_NODES } from './csr';

/** Frontier nodes per chunk call (see the speed note in csr.ts). */
// @ts-ignore: decorator
@inline const CHUNK: u32 = 1024;
/** Bottom-up when the frontier's in-edges exceed unexplored edges / ALPHA. Lower than BFS's 15:
 *  with a depth limit, nodes that stay unreached scan all their out-edges for nothing. */
// @ts-ignore: decorator
@inline const ALPHA: u64 = 4;
import { release } from './mem';
import { bitsetAlloc, bitGet, bitSet, bitClearAll } from './bitset';
import { ALL_RELATIONS } from './abi';

// @ts-ignore: decorator
@inline export const NO_VIA: u8 = 255;

export function reachRevInto(g: CsrGraph, seeds: usize, count: u32, k: u32, mask: u32, outNodes: usize, outDepth: usize, outVia: usize): i32 {
  const checkRel = mask != ALL_RELATIONS;
  const seen = bitsetAlloc(g.n);
  let tail: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const s = load<u32>(seeds + (<usize>i << 2));
    if (bitGet(seen, s)) continue;
    bitSet(seen, s);
    store<u32>(outNodes + (<usize>tail << 2), s);
    store<u8>(outDepth + tail, 0);
    store<u8>(outVia + tail, NO_VIA);
    tail++;
  }
  let head: u32 = 0;
  let remaining: u64 = <u64>g.m;
  let front: usize = 0;
  const n = g.n;
  for (let level: u32 = 0; level < k && head < tail; level++) {
    const end = tail;
    let scout: u64 = 0;
    for (let i = head; i < end; i++) {
      const v = load<u32>(outNodes + (<usize>i << 2));
      scout += <u64>(load<u32>(g.inOff + (<usize>v << 2), 4) - load<u32>(g.inOff + (<usize>v << 2)));
    }
    if (scout > remaining / ALPHA) {
      if (front == 0) front = bitsetAlloc(n);
      else bitClearAll(front, n);
      for (let i = head; i < end; i++) bitSet(front, load<u32>(outNodes + (<usize>i << 2)));
      tail = upRange(g, mask, checkRel, seen, front, level, outNodes, outDepth, outVia, 0, min(CHUNK_NODES, n), tail);
      for (let lo = CHUNK_NODES; lo < n; lo += CHUNK_NODES) {
        tail = upRange(g, mask, checkRel, seen, front, level, outNodes, outDepth, outVia, lo, min(lo + CHUNK_NODES, n), tail);
      }
    } else {
      tail = levelRange(g, mask, checkRel, seen, level, outNodes, outDepth, outVia, head, min(head + CHUNK, end), tail);
      for (let lo = head + CHUNK; lo < end; lo += CHUNK) {
        tail = levelRange(g, mask, checkRel, seen, level, outNodes, outDepth, outVia, lo, min(lo + CHUNK, end), tail);
      }
    }
    remaining = remaining > scout ? remaining - scout : 0;
    head = end;
  }
  release(front);
  release(seen);
  return <i32>tail;
}

// Expand frontier entries lo..hi of outNodes (all at depth `level`) over in-edges; appends the
// newly reached nodes at `tail` and returns the new tail.
function levelRange(
  g: CsrGraph, mask: u32, checkRel: bool, seen: usize, level: u32,
  outNodes: usize, outDepth: usize, outVia: usize, lo: u32, hi: u32, tail: u32,
): u32 {
  const inOff = g.inOff;
  const inSrc = g.inSrc;
  const inRel = g.inRel;
  for (let i = lo; i < hi; i++) {
    const v = load<u32>(outNodes + (<usize>i << 2));
    const b = load<u32>(inOff + (<usize>v << 2));
    const e1 = load<u32>(inOff + (<usize>v << 2), 4);
    for (let e = b; e < e1; e++) {
      const r = load<u8>(inRel + e);
      if (checkRel && ((mask >>> r) & 1) == 0) continue;
      const u = load<u32>(inSrc + (<usize>e << 2));
      if (bitGet(seen, u)) continue;
      bitSet(seen, u);
      store<u32>(outNodes + (<usize>tail << 2), u);
      store<u8>(outDepth + tail, <u8>(level + 1));
      store<u8>(outVia + tail, r);
      tail++;
    }
  }
  return tail;
}

// Bottom-up level: every unreached node u in lo..hi with an out-edge (in `mask`) into the frontier
// bitmap `front` is appended at `tail` (depth level+1, via = that edge's relation). Returns the
// new tail.
function upRange(
  g: CsrGraph, mask: u32, checkRel: bool, seen: usize, front: usize, level: u32,
  outNodes: usize, outDepth: usize, outVia: usize, lo: u32, hi: u32, tail: u32,
): u32 {
  const outOff = g.outOff;
  const outTgt = g.outTgt;
  const outRel = g.outRel;
  for (let u = lo; u < hi; u++) {
    if (bitGet(seen, u)) continue;
    const b = load<u32>(outOff + (<usize>u << 2));
    const e1 = load<u32>(outOff + (<usize>u << 2), 4);
    for (let e = b; e < e1; e++) {
      const r = load<u8>(outRel + e);
      if (checkRel && ((mask >>> r) & 1) == 0) continue;
      if (!bitGet(front, load<u32>(outTgt + (<usize>e << 2)))) continue;
      bitSet(seen, u);
      store<u32>(outNodes + (<usize>tail << 2), u);
      store<u8>(outDepth + tail, <u8>(level + 1));
      store<u8>(outVia + tail, r);
      tail++;
      break;
    }
  }
  return tail;
}
