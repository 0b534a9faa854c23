// Kernels on graphs large enough to cross every chunk boundary of the core (node chunks of 8192,
// edge chunks of 65536, frontier chunks of 1024, Dijkstra pop and Tarjan step budgets) and to
// run deep DFS, against the adjacency-list references in test/reference/large.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Core, type CoreGraph } from '../../src/core/index.ts';
import {
  bigBfs, bigDijkstra, bigPagerank, bigReverseReach, bigStrong, bigWeak, type BigGraph,
} from '../reference/large.ts';
import { reachViolation } from '../reference/graph.ts';

const ALL = 0xffffffff;
let core: Core;
let big: BigGraph;
let g: CoreGraph;

before(async () => {
  core = await Core.load();
  // 30000 nodes: a directed ring through 2/3 of them (one deep SCC), random arcs, relations 0..3.
  const n = 30000;
  let s = 99;
  const rnd = (k: number) => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % k);
  const src: number[] = [];
  const dst: number[] = [];
  const ring = 20000;
  for (let i = 0; i < ring; i++) { src.push(i); dst.push((i + 1) % ring); }
  for (let i = 0; i < 90000; i++) { src.push(rnd(n)); dst.push(rnd(n)); }
  const m = src.length;
  big = {
    n,
    src: Uint32Array.from(src),
    dst: Uint32Array.from(dst),
    rel: Uint8Array.from({ length: m }, (_, i) => (i < ring ? 0 : rnd(4))),
    weight: Float64Array.from({ length: m }, () => 1 + rnd(100)),
  };
  g = core.graph(big);
});
after(() => g.free());

test('components() weak and strong equal union-find and Kosaraju', () => {
  for (const mask of [ALL, 0b0011]) {
    const w = g.components('weak', { relMask: mask });
    assert.deepEqual({ count: w.count, label: Array.from(w.label) }, bigWeak(big, mask));
    const s = g.components('strong', { relMask: mask });
    const ref = bigStrong(big, mask);
    assert.equal(s.count, ref.count);
    assert.deepEqual(Array.from(s.label), ref.label);
  }
});

test('dijkstra() equals a lazy-heap Dijkstra', () => {
  for (const [source, mask] of [[0, ALL], [12345, 0b0101]] as const) {
    assert.deepEqual(Array.from(g.dijkstra(source, { relMask: mask })), bigDijkstra(big, source, mask));
  }
});

test('reverseReach() equals the reference walk (top-down and bottom-up levels)', () => {
  const edges = Array.from(big.src, (a, i) => [a, big.dst[i]!, big.rel[i]!] as const);
  for (const [seeds, k, mask] of [[[5], 12, ALL], [[7, 20001, 7], 14, 0b0111], [[9], 2, ALL]] as const) {
    const r = g.reverseReach(seeds, { k, relMask: mask });
    const ref = bigReverseReach(big, [...seeds], k, mask);
    if (k > 2) assert.ok(ref.nodes.length > 4096, `frontiers larger than a chunk (${ref.nodes.length})`);
    assert.equal(reachViolation(edges, [...seeds], mask, ref, r), null);
  }
});

test('pagerank() 20 iterations equals the reference pull iteration to 1e-12', () => {
  for (const mask of [ALL, 0b1001]) {
    const x = g.pagerank({ iterations: 20, tolerance: 0, relMask: mask });
    const ref = bigPagerank(big, 20, mask);
    let d = 0;
    for (let v = 0; v < big.n; v++) d = Math.max(d, Math.abs(x[v]! - ref[v]!));
    assert.ok(d <= 1e-12, `max diff ${d}`);
  }
});

test('shortestPath() lengths equal BFS distances, directed and undirected', () => {
  for (const undirected of [false, true]) {
    const dist = bigBfs(big, 3, ALL, undirected);
    for (const t of [0, 4, 19999, 20000, 25000, 29999]) {
      const p = g.shortestPath(3, t, { undirected });
      assert.equal(p === null ? -1 : p.length - 1, dist[t], `3 -> ${t}`);
    }
  }
});

test('bfs() equals queue BFS', () => {
  assert.deepEqual(Array.from(g.bfs(3)), Array.from(bigBfs(big, 3, ALL, false)));
  assert.deepEqual(Array.from(g.bfs(3, { direction: 'both', relMask: 0b0111 })), Array.from(bigBfs(big, 3, 0b0111, true)));
});
