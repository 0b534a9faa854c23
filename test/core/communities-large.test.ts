// louvain() and leiden() on graphs large enough to take several levels and every speed path of
// the kernels (the larger-community window, the final pass's stability skip, the modularity kept
// by the moves, Leiden's refinement from level 1 and its union-find split): a planted partition
// (8192 nodes, 32 blocks) and a skewed random graph (R-MAT, 2^13 nodes), against the exact
// modularity of g.modularity() and the connectivity reference.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Core, type CoreGraph } from '../../src/core/index.ts';
import { refDisconnectedCommunities } from '../reference/communities.ts';
import type { EdgeList } from '../reference/graph.ts';

/** Seeded LCG in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

/** Planted partition: `k` blocks of `n / k` nodes (block = id % k, so blocks interleave in id
 *  order), ~degIn arcs per node inside its block and ~degOut across. */
function planted(n: number, k: number, degIn: number, degOut: number, seed: number) {
  const rnd = lcg(seed);
  const src: number[] = [];
  const dst: number[] = [];
  const size = n / k;
  for (let u = 0; u < n; u++) {
    const b = u % k;
    for (let i = 0; i < degIn; i++) {
      const v = b + k * Math.floor(rnd() * size);
      if (v !== u) { src.push(u); dst.push(v); }
    }
    for (let i = 0; i < degOut; i++) {
      const v = Math.floor(rnd() * n);
      if (v % k !== b) { src.push(u); dst.push(v); }
    }
  }
  const block = Uint32Array.from({ length: n }, (_, u) => u % k);
  return { n, src: Uint32Array.from(src), dst: Uint32Array.from(dst), block };
}

/** R-MAT (a, b, c = 0.57, 0.19, 0.19), 2^scale nodes, edgeFactor * 2^scale arcs. */
function rmat(scale: number, edgeFactor: number, seed: number) {
  const rnd = lcg(seed);
  const n = 1 << scale;
  const m = edgeFactor * n;
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  for (let e = 0; e < m; e++) {
    let u = 0;
    let v = 0;
    for (let bit = scale - 1; bit >= 0; bit--) {
      const r = rnd();
      if (r >= 0.57 && r < 0.76) v |= 1 << bit;
      else if (r >= 0.76 && r < 0.95) u |= 1 << bit;
      else if (r >= 0.95) { u |= 1 << bit; v |= 1 << bit; }
    }
    src[e] = u;
    dst[e] = v;
  }
  return { n, src, dst };
}

const asEdges = (x: { n: number; src: Uint32Array; dst: Uint32Array }): EdgeList => ({
  n: x.n,
  edges: Array.from(x.src, (s, i) => [s, x.dst[i]!, 0] as [number, number, number]),
});

let core: Core;
let pg: CoreGraph;
let rg: CoreGraph;
const P = planted(8192, 32, 10, 3, 7);
const R = rmat(13, 8, 11);

before(async () => {
  core = await Core.load();
  pg = core.graph(P);
  rg = core.graph(R);
});
after(() => {
  pg.free();
  rg.free();
});

for (const algo of ['louvain', 'leiden'] as const) {
  test(`${algo}: planted partition found, reported modularity exact, same labels for a seed`, () => {
    const qPlanted = pg.modularity(P.block);
    for (const seed of [1, 2, 3]) {
      const r = pg[algo]({ seed });
      assert.equal(r.modularity, pg.modularity(r.membership), `seed ${seed}: reported Q is not the graph's`);
      assert.ok(r.modularity >= qPlanted - 1e-9, `seed ${seed}: ${r.modularity} < planted ${qPlanted}`);
      assert.deepEqual(pg[algo]({ seed }).membership, r.membership);
    }
  });

  test(`${algo}: R-MAT 2^13 reported modularity exact, well above singletons, canonical labels`, () => {
    for (const seed of [1, 2]) {
      const r = rg[algo]({ seed });
      assert.equal(r.modularity, rg.modularity(r.membership));
      assert.ok(r.modularity > 0.12, `seed ${seed}: ${r.modularity}`);
      let next = 0;
      for (const c of r.membership) {
        assert.ok(c <= next, 'labels numbered in order of smallest node');
        if (c === next) next++;
      }
      assert.equal(next, r.count);
    }
  });
}

test('leiden: every community connected on both graphs; resolution changes the result', () => {
  for (const [g, x] of [[pg, P], [rg, R]] as const) {
    const r = g.leiden({ seed: 4 });
    assert.deepEqual(refDisconnectedCommunities(asEdges(x), r.membership), []);
  }
  const coarse = rg.leiden({ seed: 1, resolution: 0.2 });
  const fine = rg.leiden({ seed: 1, resolution: 5 });
  assert.ok(coarse.count < fine.count, `${coarse.count} vs ${fine.count}`);
});
