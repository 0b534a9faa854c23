// Reverse k-hop reachability ("what is affected if X changes").
// Returns: count written to `outNodes`/`outDepth`/`outVia`: seeds first (deduplicated, in given
//   order, depth 0, via 255), then hop by hop: every node with a path of at most k matching edges
//   to a seed, with its depth and the relation of the edge it was first reached through.
// Algorithm: level-synchronous BFS over the in-CSR, following only edges whose relation bit is in
//   `mask`; stops after `k` levels. `outNodes` doubles as the BFS queue.
// Encoding: a visited bitset; depth and via are written once, at discovery.
// Cost: O(n/32 + m') for the m' matching in-edges of reached nodes. Deterministic: in-CSR order.

import { CsrGraph } from './csr';

/** Frontier nodes per chunk call (see the speed note in csr.ts). */
// @ts-ignore: decorator
@inline const CHUNK: u32 = 1024;
import { release } from './mem';
import { bitsetAlloc, bitGet, bitSet } from './bitset';
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
  for (let level: u32 = 0; level < k && head < tail; level++) {
    const end = tail;
    tail = levelRange(g, mask, checkRel, seen, level, outNodes, outDepth, outVia, head, min(head + CHUNK, end), tail);
    for (let lo = head + CHUNK; lo < end; lo += CHUNK) {
      tail = levelRange(g, mask, checkRel, seen, level, outNodes, outDepth, outVia, lo, min(lo + CHUNK, end), tail);
    }
    head = end;
  }
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
