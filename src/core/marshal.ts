/**
 * Copying typed arrays into and out of core memory. Views are made right before use and never
 * kept: any call that allocates may grow memory and detach older views. Browser-safe.
 */
import type { CoreExports } from './abi.ts';

export type U32Input = Uint32Array | ArrayLike<number>;

export function writeU32(x: CoreExports, ptr: number, data: U32Input): void {
  new Uint32Array(x.memory.buffer, ptr, data.length).set(data);
}
export function writeU8(x: CoreExports, ptr: number, data: Uint8Array | ArrayLike<number>): void {
  new Uint8Array(x.memory.buffer, ptr, data.length).set(data);
}
export function writeF64(x: CoreExports, ptr: number, data: Float64Array | ArrayLike<number>): void {
  new Float64Array(x.memory.buffer, ptr, data.length).set(data);
}

/** Copies out (the result outlives the next memory growth). */
export function readI32(x: CoreExports, ptr: number, len: number): Int32Array {
  return new Int32Array(x.memory.buffer, ptr, len).slice();
}
export function readU32(x: CoreExports, ptr: number, len: number): Uint32Array {
  return new Uint32Array(x.memory.buffer, ptr, len).slice();
}
export function readU8(x: CoreExports, ptr: number, len: number): Uint8Array {
  return new Uint8Array(x.memory.buffer, ptr, len).slice();
}
export function readF64(x: CoreExports, ptr: number, len: number): Float64Array {
  return new Float64Array(x.memory.buffer, ptr, len).slice();
}

/** Decodes an AssemblyScript string (UTF-16LE, byte length at ptr - 4); null for 0 or garbage. */
export function readAsString(x: CoreExports, ptr: number): string | null {
  const buf = x.memory.buffer;
  if (ptr < 4 || ptr >= buf.byteLength) return null;
  const bytes = new Uint32Array(buf.slice(ptr - 4, ptr))[0]!;
  if (bytes % 2 !== 0 || ptr + bytes > buf.byteLength || bytes > 4096) return null;
  return String.fromCharCode(...new Uint16Array(buf.slice(ptr, ptr + bytes)));
}
