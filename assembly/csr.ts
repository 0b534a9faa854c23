// ---------------------------------------------------------------------------------------------
// FOR KERNEL AUTHORS: the graph layout. Get a CsrGraph from a handle with `resolve` (handles.ts):
//   const gp = resolve(handle); if (gp == 0) return E_BAD_HANDLE;
//   const g = changetype<CsrGraph>(gp);
// Fields (all pointers are usize into linear memory, read-only for kernels):
//   n: u32, m: u32                 node and edge counts
//   outOff u32[n+1], outTgt u32[m], outRel u8[m]   out-adjacency of v: outOff[v] .. outOff[v+1]-1
//   inOff  u32[n+1], inSrc  u32[m], inRel  u8[m]   in-adjacency of v:  inOff[v]  .. inOff[v+1]-1
//   weight f64[m] aligned with outTgt (out-CSR order), or 0 when the graph has no weights
//   bytes: u32                     bytes held by the arrays (memory accounting)
// Self-loops and parallel edges are kept (each occurrence is an edge). Within one node, edges keep
// their input order. Inline accessors below: outBegin(g, v), outEnd(g, v), inBegin, inEnd.
// ---------------------------------------------------------------------------------------------

import { alloc, allocFill, release } from './mem';

@unmanaged
export class CsrGraph {
  n: u32;
  m: u32;
  outOff: usize;
  outTgt: usize;
  outRel: usize;
  inOff: usize;
  inSrc: usize;
  inRel: usize;
  weight: usize;
  bytes: u32;
}

// @ts-ignore: decorator
@inline export function outBegin(g: CsrGraph, v: u32): u32 {
  return load<u32>(g.outOff + (<usize>v << 2));
}
// @ts-ignore: decorator
@inline export function outEnd(g: CsrGraph, v: u32): u32 {
  return load<u32>(g.outOff + (<usize>v << 2), 4);
}
// @ts-ignore: decorator
@inline export function inBegin(g: CsrGraph, v: u32): u32 {
  return load<u32>(g.inOff + (<usize>v << 2));
}
// @ts-ignore: decorator
@inline export function inEnd(g: CsrGraph, v: u32): u32 {
  return load<u32>(g.inOff + (<usize>v << 2), 4);
}

// Build both CSR directions from edge arrays.
// Returns: a CsrGraph pointer (caller registers it). Inputs are validated by the caller
//   (every src/dst < n); `rel` may be 0 (all edges relation 0), `weight` may be 0 (unweighted).
// Algorithm: counting sort by source (out) and by target (in), as gapbs's builder
//   (MakeCSR): degree count, exclusive prefix sum, scatter with a cursor array. Stable, so edges of
//   one node keep input order and every kernel is deterministic for a given input.
// Memory held: 2*(n+1)*4 + m*(4+1+4+1) bytes, + 8m with weights. Scratch: (n+1)*4, freed.
// Cost: O(n + m), four passes over the edges.
export function buildCsr(n: u32, m: u32, src: usize, dst: usize, rel: usize, weight: usize): usize {
  const gp = alloc(offsetof<CsrGraph>());
  const g = changetype<CsrGraph>(gp);
  g.n = n;
  g.m = m;
  const offBytes = (<usize>n + 1) << 2;
  g.outOff = allocFill(offBytes, 0);
  g.inOff = allocFill(offBytes, 0);
  g.outTgt = alloc(<usize>m << 2);
  g.inSrc = alloc(<usize>m << 2);
  g.outRel = alloc(<usize>m);
  g.inRel = alloc(<usize>m);
  g.weight = weight != 0 ? alloc(<usize>m << 3) : 0;
  g.bytes = <u32>(2 * <u64>offBytes + <u64>m * 10 + (weight != 0 ? <u64>m << 3 : 0));

  // degree counts into off[v+1]
  const outOff = g.outOff;
  const inOff = g.inOff;
  for (let e: u32 = 0; e < m; e++) {
    const s = load<u32>(src + (<usize>e << 2));
    const d = load<u32>(dst + (<usize>e << 2));
    const po = outOff + ((<usize>s + 1) << 2);
    store<u32>(po, load<u32>(po) + 1);
    const pi = inOff + ((<usize>d + 1) << 2);
    store<u32>(pi, load<u32>(pi) + 1);
  }
  // inclusive prefix sums -> off[v] = first edge of v
  for (let v: u32 = 1; v <= n; v++) {
    const p = <usize>v << 2;
    store<u32>(outOff + p, load<u32>(outOff + p) + load<u32>(outOff + p - 4));
    store<u32>(inOff + p, load<u32>(inOff + p) + load<u32>(inOff + p - 4));
  }

  const cursor = alloc(offBytes);
  // out scatter
  memory.copy(cursor, outOff, offBytes);
  const outTgt = g.outTgt;
  const outRel = g.outRel;
  const w = g.weight;
  for (let e: u32 = 0; e < m; e++) {
    const s = load<u32>(src + (<usize>e << 2));
    const pc = cursor + (<usize>s << 2);
    const at = load<u32>(pc);
    store<u32>(pc, at + 1);
    store<u32>(outTgt + (<usize>at << 2), load<u32>(dst + (<usize>e << 2)));
    store<u8>(outRel + at, rel != 0 ? load<u8>(rel + e) : 0);
    if (w != 0) store<f64>(w + (<usize>at << 3), load<f64>(weight + (<usize>e << 3)));
  }
  // in scatter
  memory.copy(cursor, inOff, offBytes);
  const inSrc = g.inSrc;
  const inRel = g.inRel;
  for (let e: u32 = 0; e < m; e++) {
    const d = load<u32>(dst + (<usize>e << 2));
    const pc = cursor + (<usize>d << 2);
    const at = load<u32>(pc);
    store<u32>(pc, at + 1);
    store<u32>(inSrc + (<usize>at << 2), load<u32>(src + (<usize>e << 2)));
    store<u8>(inRel + at, rel != 0 ? load<u8>(rel + e) : 0);
  }
  release(cursor);
  return gp;
}

/** Free every array of a graph and the graph record itself. */
export function freeCsr(gp: usize): void {
  const g = changetype<CsrGraph>(gp);
  release(g.outOff);
  release(g.outTgt);
  release(g.outRel);
  release(g.inOff);
  release(g.inSrc);
  release(g.inRel);
  release(g.weight);
  release(gp);
}
