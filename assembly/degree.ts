// Degrees with multiplicity (a self-loop adds 1 to both; each parallel edge counts).
// Returns: n; writes u32[n] out-degrees to `outOut` and in-degrees to `outIn`, counting only edges
//   whose relation bit is in `mask`.
// Algorithm: offset differences of the two CSRs (all relations), else a pass over relation bytes.
// Cost: O(n) or O(n + m). Deterministic.

import { CsrGraph, CHUNK_NODES } from './csr';
import { ALL_RELATIONS } from './abi';

function degreesOf(off: usize, rel: usize, n: u32, mask: u32, out: usize): void {
  // chunked: see the speed note in csr.ts
  degreeRange(off, rel, mask, out, 0, min(CHUNK_NODES, n));
  for (let lo = CHUNK_NODES; lo < n; lo += CHUNK_NODES) degreeRange(off, rel, mask, out, lo, min(lo + CHUNK_NODES, n));
}

function degreeRange(off: usize, rel: usize, mask: u32, out: usize, lo: u32, hi: u32): void {
  const all = mask == ALL_RELATIONS;
  for (let v = lo; v < hi; v++) {
    const b = load<u32>(off + (<usize>v << 2));
    const e1 = load<u32>(off + (<usize>v << 2), 4);
    let d: u32 = 0;
    if (all) {
      d = e1 - b;
    } else {
      for (let e = b; e < e1; e++) if (((mask >>> load<u8>(rel + e)) & 1) != 0) d++;
    }
    store<u32>(out + (<usize>v << 2), d);
  }
}

export function degreeInto(g: CsrGraph, mask: u32, outOut: usize, outIn: usize): i32 {
  degreesOf(g.outOff, g.outRel, g.n, mask, outOut);
  degreesOf(g.inOff, g.inRel, g.n, mask, outIn);
  return <i32>g.n;
}
