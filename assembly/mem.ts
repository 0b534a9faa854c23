// Core-owned memory: one allocator for the host's buffers (syn_alloc/syn_free) and the kernels'
// scratch arrays. The runtime is `minimal` (TLSF underneath, no GC ever runs because nothing
// managed is allocated), so `heap.free` really returns memory. Kernels allocate only through
// these helpers, never managed objects.
//
// Out of memory: TLSF traps when `memory.grow` fails; the host turns that into CoreTrap and
// rebuilds the instance.

/** Allocate `bytes` (at least 1), 16-byte aligned, uninitialized. */
export function alloc(bytes: usize): usize {
  return heap.alloc(bytes > 0 ? bytes : 1);
}

/** Allocate `bytes` filled with `value`. */
export function allocFill(bytes: usize, value: u8): usize {
  const p = heap.alloc(bytes > 0 ? bytes : 1);
  memory.fill(p, value, bytes);
  return p;
}

/** Free a block from `alloc`; 0 is ignored. */
export function release(ptr: usize): void {
  if (ptr != 0) heap.free(ptr);
}
