// Dense bitsets over node ids: u32 words, bit v of word v >> 5. Used as BFS frontiers and
// visited sets. Allocate with bitsetAlloc (zeroed), free with release (mem.ts).

import { allocFill } from './mem';

/** Bytes of a bitset for `n` bits (a whole number of u32 words, at least one). */
// @ts-ignore: decorator
@inline export function bitsetBytes(n: u32): usize {
  return ((<usize>n + 31) >> 5) << 2;
}

export function bitsetAlloc(n: u32): usize {
  return allocFill(bitsetBytes(n), 0);
}

// @ts-ignore: decorator
@inline export function bitGet(bits: usize, v: u32): bool {
  return ((load<u32>(bits + (<usize>(v >> 5) << 2)) >>> (v & 31)) & 1) != 0;
}

// @ts-ignore: decorator
@inline export function bitSet(bits: usize, v: u32): void {
  const p = bits + (<usize>(v >> 5) << 2);
  store<u32>(p, load<u32>(p) | (<u32>1 << (v & 31)));
}

export function bitClearAll(bits: usize, n: u32): void {
  memory.fill(bits, 0, bitsetBytes(n));
}
