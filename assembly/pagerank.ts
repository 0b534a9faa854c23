// PageRank and personalized PageRank (conventions of shared/graph-fixtures/README.md, as
// networkx/igraph): x'[v] = alpha * sum_{u->v} x[u]/outdeg(u) + (1 - alpha + alpha*D) * p[v], where
// D is the rank on dangling nodes (no matching out-edge) and p the teleport vector (uniform 1/n,
// or the caller's `teleport` f64[n] summing to 1). Parallel edges count with multiplicity;
// self-loops are ordinary edges. Only edges whose relation bit is in `mask` exist.
// Returns: iterations run; `out` (f64[n]) holds x. Starts from 1/n; stops after `maxIter`
//   iterations or as soon as the L1 change of an iteration is < tol (tol 0: exactly maxIter).
// Algorithm: power iteration, pull direction over the in-CSR (sequential writes; gapbs pr.cc):
//   contributions c[u] = x[u]/outdeg(u) once per iteration, then one pass over the in-edges.
// Cost: O(n + m') per iteration. Deterministic (fixed summation order).

import { CsrGraph, CHUNK_NODES } from './csr';
import { alloc, allocFill, release } from './mem';
import { ALL_RELATIONS } from './abi';

export function pagerankInto(g: CsrGraph, alpha: f64, maxIter: u32, tol: f64, mask: u32, teleport: usize, out: usize): i32 {
  const n = g.n;
  if (n == 0) return 0;
  const checkRel = mask != ALL_RELATIONS;
  const nb8 = <usize>n << 3;
  // inverse out-degree (0 for dangling)
  const inv = alloc(nb8);
  for (let u: u32 = 0; u < n; u++) {
    let d: u32 = 0;
    const b = load<u32>(g.outOff + (<usize>u << 2));
    const e1 = load<u32>(g.outOff + (<usize>u << 2), 4);
    if (checkRel) {
      for (let e = b; e < e1; e++) if (((mask >>> load<u8>(g.outRel + e)) & 1) != 0) d++;
    } else {
      d = e1 - b;
    }
    store<f64>(inv + (<usize>u << 3), d > 0 ? 1.0 / <f64>d : 0.0);
  }
  let contrib = alloc(nb8);
  let cnext = alloc(nb8);
  let x = out;
  let xn = alloc(nb8);
  const uniform = 1.0 / <f64>n;
  for (let v: u32 = 0; v < n; v++) store<f64>(x + (<usize>v << 3), uniform);
  let dangling: f64 = 0;
  for (let u: u32 = 0; u < n; u++) {
    const iu = load<f64>(inv + (<usize>u << 3));
    if (iu == 0) dangling += uniform;
    store<f64>(contrib + (<usize>u << 3), uniform * iu);
  }
  let it: u32 = 0;
  const C = CHUNK_NODES;
  while (it < maxIter) {
    // One pass: pull into xn, and the next iteration's contributions and dangling mass.
    // Chunked: see the speed note in csr.ts.
    const base = 1.0 - alpha + alpha * dangling;
    nextDangling = 0;
    let diff = pullRange(g, mask, checkRel, alpha, base, uniform, teleport, inv, contrib, cnext, x, xn, 0, min(C, n));
    for (let lo = C; lo < n; lo += C) diff += pullRange(g, mask, checkRel, alpha, base, uniform, teleport, inv, contrib, cnext, x, xn, lo, min(lo + C, n));
    dangling = nextDangling;
    let t = x; x = xn; xn = t;
    t = contrib; contrib = cnext; cnext = t;
    it++;
    if (diff < tol) break;
  }
  if (x != out) {
    memory.copy(out, x, nb8);
    release(x);
  } else {
    release(xn);
  }
  release(cnext);
  release(inv);
  release(contrib);
  return <i32>it;
}

// Rank on dangling nodes of the iteration being computed (pullRange accumulates it).
let nextDangling: f64 = 0;

// xn[v] for v in lo..hi by pulling contributions over in-edges, plus cnext[v] = xn[v]/outdeg(v)
// and the dangling mass of xn; returns sum |xn[v] - x[v]|.
function pullRange(
  g: CsrGraph, mask: u32, checkRel: bool, alpha: f64, base: f64, uniform: f64, teleport: usize,
  inv: usize, contrib: usize, cnext: usize, x: usize, xn: usize, lo: u32, hi: u32,
): f64 {
  const inOff = g.inOff;
  const inSrc = g.inSrc;
  const inRel = g.inRel;
  let diff: f64 = 0;
  let dangling: f64 = 0;
  let b = load<u32>(inOff + (<usize>lo << 2));
  for (let v = lo; v < hi; v++) {
    const e1 = load<u32>(inOff + (<usize>v << 2), 4);
    let sum: f64 = 0;
    if (checkRel) {
      for (let e = b; e < e1; e++) {
        if (((mask >>> load<u8>(inRel + e)) & 1) == 0) continue;
        sum += load<f64>(contrib + (<usize>load<u32>(inSrc + (<usize>e << 2)) << 3));
      }
    } else {
      for (let e = b; e < e1; e++) sum += load<f64>(contrib + (<usize>load<u32>(inSrc + (<usize>e << 2)) << 3));
    }
    b = e1;
    const p = teleport != 0 ? load<f64>(teleport + (<usize>v << 3)) : uniform;
    const nv = alpha * sum + base * p;
    diff += abs(nv - load<f64>(x + (<usize>v << 3)));
    store<f64>(xn + (<usize>v << 3), nv);
    const iv = load<f64>(inv + (<usize>v << 3));
    if (iv == 0) dangling += nv;
    store<f64>(cnext + (<usize>v << 3), nv * iv);
  }
  nextDangling += dangling;
  return diff;
}
