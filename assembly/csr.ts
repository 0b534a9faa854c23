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
//
// SPEED NOTE (measured): V8 (Node, Chromium, Deno) runs a wasm function first in its baseline tier
// (Liftoff) and only uses the optimized (TurboFan) code from the function's NEXT call: there is no
// on-stack replacement. A kernel whose whole loop runs in one call stays 2-3x slower (PageRank at
// scale 18: 2.1 s vs 0.6 s). So cut long loops into chunk functions called many times (CHUNK_*
// below), and give each chunk function two call sites (first chunk, then the loop): binaryen
// inlines single-call-site functions (up to size 200 at -O3) straight back into the driver.
// ---------------------------------------------------------------------------------------------

import { alloc, allocFill, release } from './mem';

/** Edges per chunk call for loops over edges. */
// @ts-ignore: decorator
@inline export const CHUNK_EDGES: u32 = 1 << 16;
/** Nodes per chunk call for loops over nodes. */
// @ts-ignore: decorator
@inline export const CHUNK_NODES: u32 = 1 << 13;

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

  // Edge passes, chunked (see the speed note above): degree counts into off[v+1], prefix sums,
  // then the out scatter (targets, relations, weights) and the in scatter (sources, relations).
  const outOff = g.outOff;
  const inOff = g.inOff;
  const cursor = alloc(offBytes);
  bSrc = src; bDst = dst; bRel = rel; bWeight = weight; bCursor = cursor; bG = g;
  for (let pass: u32 = PASS_COUNT; pass <= PASS_IN; pass++) {
    if (pass == PASS_OUT) {
      for (let v: u32 = 1; v <= n; v++) {
        const p = <usize>v << 2;
        store<u32>(outOff + p, load<u32>(outOff + p) + load<u32>(outOff + p - 4));
        store<u32>(inOff + p, load<u32>(inOff + p) + load<u32>(inOff + p - 4));
      }
      memory.copy(cursor, outOff, offBytes);
    } else if (pass == PASS_IN) {
      memory.copy(cursor, inOff, offBytes);
    }
    edgePass(pass, 0, min(CHUNK_EDGES, m));
    for (let lo = CHUNK_EDGES; lo < m; lo += CHUNK_EDGES) edgePass(pass, lo, min(lo + CHUNK_EDGES, m));
    if (!ASC_NO_ASSERT && pass != PASS_COUNT) {
      // debug build: every cursor stopped exactly at the next node's first slot
      const off = pass == PASS_OUT ? outOff : inOff;
      for (let v: u32 = 0; v < n; v++) assert(load<u32>(cursor + (<usize>v << 2)) == load<u32>(off + (<usize>v << 2), 4));
    }
  }
  assert(load<u32>(outOff + (<usize>n << 2)) == m && load<u32>(inOff + (<usize>n << 2)) == m);
  release(cursor);
  return gp;
}

// Build state shared by the chunked edge passes.
let bSrc: usize = 0;
let bDst: usize = 0;
let bRel: usize = 0;
let bWeight: usize = 0;
let bCursor: usize = 0;
let bG: CsrGraph = changetype<CsrGraph>(0);

// @ts-ignore: decorator
@inline const PASS_COUNT: u32 = 0;
// @ts-ignore: decorator
@inline const PASS_OUT: u32 = 1;
// @ts-ignore: decorator
@inline const PASS_IN: u32 = 2;

// One pass over edges lo..hi. COUNT: degree counts into outOff[src+1], inOff[dst+1]. OUT / IN:
// counting-sort scatter by src (targets, relations, weights) / by dst (sources, relations).
// One function for the three passes: big enough that binaryen keeps it out of line.
function edgePass(pass: u32, lo: u32, hi: u32): void {
  const g = bG;
  const src = bSrc;
  const dst = bDst;
  const rel = bRel;
  const cursor = bCursor;
  if (pass == PASS_COUNT) {
    const outOff = g.outOff;
    const inOff = g.inOff;
    for (let e = lo; e < hi; e++) {
      const po = outOff + ((<usize>load<u32>(src + (<usize>e << 2)) + 1) << 2);
      store<u32>(po, load<u32>(po) + 1);
      const pi = inOff + ((<usize>load<u32>(dst + (<usize>e << 2)) + 1) << 2);
      store<u32>(pi, load<u32>(pi) + 1);
    }
  } else if (pass == PASS_OUT) {
    const adj = g.outTgt;
    const rels = g.outRel;
    const w = g.weight;
    const weight = bWeight;
    for (let e = lo; e < hi; e++) {
      const pc = cursor + (<usize>load<u32>(src + (<usize>e << 2)) << 2);
      const at = load<u32>(pc);
      store<u32>(pc, at + 1);
      store<u32>(adj + (<usize>at << 2), load<u32>(dst + (<usize>e << 2)));
      store<u8>(rels + at, rel != 0 ? load<u8>(rel + e) : 0);
      if (w != 0) store<f64>(w + (<usize>at << 3), load<f64>(weight + (<usize>e << 3)));
    }
  } else {
    const adj = g.inSrc;
    const rels = g.inRel;
    for (let e = lo; e < hi; e++) {
      const pc = cursor + (<usize>load<u32>(dst + (<usize>e << 2)) << 2);
      const at = load<u32>(pc);
      store<u32>(pc, at + 1);
      store<u32>(adj + (<usize>at << 2), load<u32>(src + (<usize>e << 2)));
      store<u8>(rels + at, rel != 0 ? load<u8>(rel + e) : 0);
    }
  }
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
