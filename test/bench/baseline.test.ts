// The plain-JS benchmark baseline must be correct, or its ratios mean nothing:
// check every kernel in bench/baseline-csr.ts against the shared graph fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildCsr, bfs, reverseReach, weakComponents, pagerank, degree, modularity, louvain } from '../../bench/baseline-csr.ts';
import { rmat, plantedByDegree } from '../../bench/gen.ts';
import { graphFixturesDir } from '../runtimes/helpers.ts';

const FIXTURES = graphFixturesDir() + '/';

interface Fixture {
  name: string;
  n: number;
  m: number;
  edges: [number, number][];
  outDegree: number[];
  inDegree: number[];
  bfs: { source: number; dist: number[] }[];
  reverseKHop: { seed: number; k: number; nodes: number[] }[];
  pagerank: { alpha: number; x: number[]; x20: number[] };
  weakComponents: { count: number; label: number[] };
  modularity: { partition: string; membership: number[]; undirectedSimple: number | null }[];
  communityQualityTargets?: { igraphMultilevel: { modularity: number } };
}

const files: string[] = JSON.parse(readFileSync(FIXTURES + 'index.json', 'utf8')).files;
const fixtures: Fixture[] = files.map((f) => JSON.parse(readFileSync(FIXTURES + f, 'utf8')));

function csrOf(f: Fixture) {
  return buildCsr(f.n, Uint32Array.from(f.edges, (e) => e[0]), Uint32Array.from(f.edges, (e) => e[1]));
}

test('fixtures are all loaded', () => {
  assert.equal(fixtures.length, 11);
});

for (const f of fixtures) {
  test(`baseline matches fixture ${f.name}`, () => {
    const g = csrOf(f);
    assert.equal(g.m, f.m);
    const deg = degree(g);
    assert.deepEqual(Array.from(deg.out), f.outDegree);
    assert.deepEqual(Array.from(deg.in), f.inDegree);
    for (const b of f.bfs) assert.deepEqual(Array.from(bfs(g, b.source)), b.dist, `bfs from ${b.source}`);
    for (const r of f.reverseKHop) {
      const got = reverseReach(g, [r.seed], r.k);
      assert.deepEqual(Array.from(got.nodes).sort((a, b) => a - b), r.nodes, `reverse ${r.k}-hop of ${r.seed}`);
      // depth is the true reverse distance: check against BFS levels
      for (let i = 0; i < got.nodes.length; i++) assert.ok(got.depth[i]! <= r.k);
    }
    const wc = weakComponents(g);
    assert.equal(wc.count, f.weakComponents.count);
    assert.deepEqual(Array.from(wc.label), f.weakComponents.label);
    const x20 = pagerank(g, { alpha: f.pagerank.alpha, iterations: 20 });
    let err = 0;
    for (let v = 0; v < f.n; v++) err = Math.max(err, Math.abs(x20[v]! - f.pagerank.x20[v]!));
    assert.ok(err <= 1e-12, `x20 max error ${err}`);
    const xc = pagerank(g, { alpha: f.pagerank.alpha, iterations: 1000, tolerance: 1e-15 });
    err = 0;
    for (let v = 0; v < f.n; v++) err = Math.max(err, Math.abs(xc[v]! - f.pagerank.x[v]!));
    assert.ok(err <= 1e-9, `converged PageRank max error ${err}`);
    for (const p of f.modularity) {
      const q = modularity(g, p.membership);
      if (p.undirectedSimple === null) assert.equal(q, null);
      else assert.ok(Math.abs(q! - p.undirectedSimple) <= 1e-12, `modularity ${p.partition}: ${q} vs ${p.undirectedSimple}`);
    }
    const target = f.communityQualityTargets?.igraphMultilevel.modularity;
    if (target !== undefined && ['karate-both-directions', 'sbm-11', 'rmat-12'].includes(f.name)) {
      const lv = louvain(g);
      const q = modularity(g, lv.membership)!;
      assert.ok(Math.abs(q - lv.modularity) <= 1e-12, 'reported modularity matches recomputed');
      assert.ok(lv.modularity >= target - 0.01, `louvain ${lv.modularity} vs igraph multilevel ${target}`);
    }
  });
}

test('reverse reach honours the relation mask and records via', () => {
  // 0 -r0-> 2, 1 -r1-> 2, 3 -r1-> 1
  const g = buildCsr(4, Uint32Array.of(0, 1, 3), Uint32Array.of(2, 2, 1), Uint8Array.of(0, 1, 1));
  const all = reverseReach(g, [2], 3);
  assert.deepEqual(Array.from(all.nodes), [2, 0, 1, 3]);
  assert.deepEqual(Array.from(all.depth), [0, 1, 1, 2]);
  assert.deepEqual(Array.from(all.via), [255, 0, 1, 1]);
  const onlyR1 = reverseReach(g, [2], 3, 0b10);
  assert.deepEqual(Array.from(onlyR1.nodes), [2, 1, 3]);
});

test('generators are deterministic for a seed and differ across seeds', () => {
  const a = rmat({ scale: 10, edgeFactor: 8, seed: 7 });
  const b = rmat({ scale: 10, edgeFactor: 8, seed: 7 });
  const c = rmat({ scale: 10, edgeFactor: 8, seed: 8 });
  assert.equal(a.n, 1024);
  assert.equal(a.src.length, 8192);
  assert.deepEqual(a.src, b.src);
  assert.deepEqual(a.dst, b.dst);
  assert.notDeepEqual(a.src, c.src);
  // R-MAT is skewed: the top node has far more than the average degree
  const g = buildCsr(a.n, a.src, a.dst);
  const d = degree(g);
  assert.ok(Math.max(...d.out) > 8 * 8);
});

test('planted partition: Louvain recovers a clearly planted structure', () => {
  const p = plantedByDegree({ n: 2000, k: 10, degIn: 12, degOut: 1, seed: 3 });
  const q = plantedByDegree({ n: 2000, k: 10, degIn: 12, degOut: 1, seed: 3 });
  assert.deepEqual(p.src, q.src);
  assert.deepEqual(p.membership, q.membership);
  for (let e = 0; e < p.src.length; e++) assert.notEqual(p.src[e], p.dst[e]);
  const g = buildCsr(p.n, p.src, p.dst);
  const planted = modularity(g, p.membership)!;
  const lv = louvain(g);
  assert.ok(planted > 0.7, `planted modularity ${planted}`);
  assert.ok(lv.modularity >= planted - 0.01, `louvain ${lv.modularity} vs planted ${planted}`);
});
