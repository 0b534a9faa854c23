// Graph handles: slot index + generation, never raw pointers, so a stale or doubly freed handle
// is refused with E_BAD_HANDLE instead of touching freed memory.
//
// ---------------------------------------------------------------------------------------------
// FOR KERNEL AUTHORS (communities, ...): how to read a graph from a handle, inside the module.
//
//   import { resolve } from './handles';
//   import { CsrGraph } from './csr';
//   const gp = resolve(handle);              // usize; 0 means bad/stale handle -> return E_BAD_HANDLE
//   if (gp == 0) return E_BAD_HANDLE;
//   const g = changetype<CsrGraph>(gp);
//   g.n, g.m                                 // u32 node count, u32 edge count (parallel edges, loops kept)
//   g.outOff   // usize -> u32[n+1]: out-edges of v are indices outOff[v] .. outOff[v+1]-1
//   g.outTgt   // usize -> u32[m]:   target of each out-edge
//   g.outRel   // usize -> u8[m]:    relation (0..31) of each out-edge
//   g.weight   // usize -> f64[m]:   weight of each out-edge (out-CSR order), or 0 if built without weights
//   g.inOff    // usize -> u32[n+1]: in-edges of v are indices inOff[v] .. inOff[v+1]-1
//   g.inSrc    // usize -> u32[m]:   source of each in-edge
//   g.inRel    // usize -> u8[m]:    relation of each in-edge
//   Read with e.g. load<u32>(g.outOff + (<usize>v << 2)), load<u8>(g.outRel + e).
//   Within one node, edges keep input order (stable counting sort): results are deterministic.
//   The arrays are read-only for kernels. Scratch memory: alloc/allocFill/release from './mem'.
//   Validate node ids (< g.n) in the export (index.ts) before calling a kernel.
// ---------------------------------------------------------------------------------------------

// @ts-ignore: decorator
@inline const SLOT_BITS: u32 = 12;
// @ts-ignore: decorator
@inline export const MAX_GRAPHS: u32 = 1 << SLOT_BITS; // live graphs at once
// @ts-ignore: decorator
@inline const GEN_MASK: u32 = 0x7FFFF; // 19 bits: handle = gen << 12 | slot, always > 0

// Slot table: per slot [graph pointer u32, generation u32]. Generation 0 never appears in a handle.
const TABLE: usize = memory.data(<i32>(MAX_GRAPHS * 8));

/** The graph pointer of a live handle, or 0. */
export function resolve(handle: i32): usize {
  if (handle <= 0) return 0;
  const h = <u32>handle;
  const slot = h & (MAX_GRAPHS - 1);
  const gen = h >>> SLOT_BITS;
  const rec = TABLE + (<usize>slot << 3);
  const ptr = <usize>load<u32>(rec);
  if (ptr == 0 || load<u32>(rec, 4) != gen) return 0;
  return ptr;
}

/** Register a graph pointer; returns its handle (> 0) or 0 when the table is full. */
export function register(ptr: usize): i32 {
  for (let slot: u32 = 0; slot < MAX_GRAPHS; slot++) {
    const rec = TABLE + (<usize>slot << 3);
    if (load<u32>(rec) == 0) {
      let gen = (load<u32>(rec, 4) + 1) & GEN_MASK;
      if (gen == 0) gen = 1;
      store<u32>(rec, <u32>ptr);
      store<u32>(rec, gen, 4);
      return <i32>((gen << SLOT_BITS) | slot);
    }
  }
  return 0;
}

/** Unregister a handle; returns the graph pointer it held, or 0 if it was not live. */
export function unregister(handle: i32): usize {
  const ptr = resolve(handle);
  if (ptr == 0) return 0;
  const rec = TABLE + (<usize>(<u32>handle & (MAX_GRAPHS - 1)) << 3);
  store<u32>(rec, 0); // keep the generation: the next handle in this slot differs
  return ptr;
}
