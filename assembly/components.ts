// Weakly and strongly connected components with canonical labels.
// Returns: the number of components; `label` (u32[n]) numbers components 0, 1, 2, ... in order of
//   their smallest node id. Only edges whose relation bit is in `mask` count.
// Weak: union-find over the out-edges, linking the larger root under the smaller (so every root is
//   its component's smallest id) with path halving; labels in one ascending pass.
//   Cost: O(m' α(n)).
// Strong: Tarjan's algorithm, iterative (an explicit call stack of node + edge cursor, so deep
//   graphs cannot overflow the wasm stack); then component ids are renumbered canonically.
//   Cost: O(n + m'). Both deterministic.

import { CsrGraph } from './csr';
import { alloc, allocFill, release } from './mem';
import { bitsetAlloc, bitGet, bitSet } from './bitset';
import { ALL_RELATIONS } from './abi';

// @ts-ignore: decorator
@inline function find(parent: usize, v: u32): u32 {
  while (true) {
    const p = load<u32>(parent + (<usize>v << 2));
    if (p == v) return v;
    const gp = load<u32>(parent + (<usize>p << 2));
    store<u32>(parent + (<usize>v << 2), gp);
    v = gp;
  }
}

export function weakInto(g: CsrGraph, mask: u32, label: usize): i32 {
  const n = g.n;
  const checkRel = mask != ALL_RELATIONS;
  const parent = alloc(<usize>n << 2);
  for (let v: u32 = 0; v < n; v++) store<u32>(parent + (<usize>v << 2), v);
  for (let u: u32 = 0; u < n; u++) {
    const b = load<u32>(g.outOff + (<usize>u << 2));
    const e1 = load<u32>(g.outOff + (<usize>u << 2), 4);
    for (let e = b; e < e1; e++) {
      if (checkRel && ((mask >>> load<u8>(g.outRel + e)) & 1) == 0) continue;
      let a = find(parent, u);
      let c = find(parent, load<u32>(g.outTgt + (<usize>e << 2)));
      if (a == c) continue;
      if (a > c) { const t = a; a = c; c = t; }
      store<u32>(parent + (<usize>c << 2), a);
    }
  }
  let count: u32 = 0;
  for (let v: u32 = 0; v < n; v++) {
    const r = find(parent, v);
    if (r == v) {
      store<u32>(label + (<usize>v << 2), count);
      count++;
    } else {
      store<u32>(label + (<usize>v << 2), load<u32>(label + (<usize>r << 2)));
    }
  }
  release(parent);
  return <i32>count;
}

// @ts-ignore: decorator
@inline const UNSEEN: u32 = 0xFFFFFFFF;

export function strongInto(g: CsrGraph, mask: u32, label: usize): i32 {
  const n = g.n;
  const checkRel = mask != ALL_RELATIONS;
  const nb = <usize>n << 2;
  const index = allocFill(nb, 0xFF); // discovery index, UNSEEN
  const low = alloc(nb);
  const stack = alloc(nb); // Tarjan's node stack
  const onStack = bitsetAlloc(n);
  const callNode = alloc(nb); // DFS call stack: node and next edge
  const callEdge = alloc(nb);
  const comp = label; // raw component ids first, renumbered at the end
  let next: u32 = 0;
  let sp: u32 = 0; // Tarjan stack size
  let cp: u32 = 0; // call stack size
  let ncomp: u32 = 0;
  for (let root: u32 = 0; root < n; root++) {
    if (load<u32>(index + (<usize>root << 2)) != UNSEEN) continue;
    // push root
    store<u32>(index + (<usize>root << 2), next);
    store<u32>(low + (<usize>root << 2), next);
    next++;
    store<u32>(stack + (<usize>sp << 2), root); sp++;
    bitSet(onStack, root);
    store<u32>(callNode + (<usize>cp << 2), root);
    store<u32>(callEdge + (<usize>cp << 2), load<u32>(g.outOff + (<usize>root << 2)));
    cp++;
    while (cp > 0) {
      const u = load<u32>(callNode + (<usize>(cp - 1) << 2));
      let e = load<u32>(callEdge + (<usize>(cp - 1) << 2));
      const e1 = load<u32>(g.outOff + (<usize>u << 2), 4);
      let descended = false;
      while (e < e1) {
        const cur = e;
        e++;
        if (checkRel && ((mask >>> load<u8>(g.outRel + cur)) & 1) == 0) continue;
        const v = load<u32>(g.outTgt + (<usize>cur << 2));
        const iv = load<u32>(index + (<usize>v << 2));
        if (iv == UNSEEN) {
          store<u32>(callEdge + (<usize>(cp - 1) << 2), e);
          store<u32>(index + (<usize>v << 2), next);
          store<u32>(low + (<usize>v << 2), next);
          next++;
          store<u32>(stack + (<usize>sp << 2), v); sp++;
          bitSet(onStack, v);
          store<u32>(callNode + (<usize>cp << 2), v);
          store<u32>(callEdge + (<usize>cp << 2), load<u32>(g.outOff + (<usize>v << 2)));
          cp++;
          descended = true;
          break;
        } else if (bitGet(onStack, v)) {
          const pl = low + (<usize>u << 2);
          if (iv < load<u32>(pl)) store<u32>(pl, iv);
        }
      }
      if (descended) continue;
      // u is finished
      cp--;
      const lu = load<u32>(low + (<usize>u << 2));
      if (lu == load<u32>(index + (<usize>u << 2))) {
        while (true) {
          sp--;
          const w = load<u32>(stack + (<usize>sp << 2));
          const p = onStack + (<usize>(w >> 5) << 2);
          store<u32>(p, load<u32>(p) & ~(<u32>1 << (w & 31)));
          store<u32>(comp + (<usize>w << 2), ncomp);
          if (w == u) break;
        }
        ncomp++;
      }
      if (cp > 0) {
        const parent = load<u32>(callNode + (<usize>(cp - 1) << 2));
        const pl = low + (<usize>parent << 2);
        if (lu < load<u32>(pl)) store<u32>(pl, lu);
      }
    }
  }
  // canonical renumbering: by smallest node id
  const remap = allocFill(<usize>ncomp << 2, 0xFF);
  let count: u32 = 0;
  for (let v: u32 = 0; v < n; v++) {
    const c = load<u32>(comp + (<usize>v << 2));
    const pr = remap + (<usize>c << 2);
    let l = load<u32>(pr);
    if (l == UNSEEN) {
      l = count;
      store<u32>(pr, l);
      count++;
    }
    store<u32>(label + (<usize>v << 2), l);
  }
  release(remap);
  release(index);
  release(low);
  release(stack);
  release(onStack);
  release(callNode);
  release(callEdge);
  return <i32>count;
}
