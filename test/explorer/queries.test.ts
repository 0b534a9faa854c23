import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { GraphIndex } from '../../src/query/graph-index.ts';
import { IMPACT_MASK } from '../../src/query/relations.ts';
import { TsTraversal } from '../reference/traversal.ts';
import { ExplorerGraph } from '../../src/explorer/queries.ts';

// The explorer's computations run on the WASM core; here they are checked against the plain
// TypeScript reference traversals (test/reference/traversal.ts) on random graphs.

let core: Core;
before(async () => {
  core = await Core.load();
});

const RELS = ['calls', 'references', 'imports', 'contains', 'inherits'];

function doc(n: number, edges: [number, number, number][]): GraphDocument {
  const nodes: GraphNode[] = Array.from({ length: n }, (_, i) => ({
    id: `f${i % 3}.ts#n${i}`, label: `n${i}`, file_type: 'code', source_file: `f${i % 3}.ts`, source_location: `L${i + 1}`,
    kind: 'function', community: i % 2,
  }));
  const links: GraphLink[] = edges.map(([s, t, r]) => ({
    source: nodes[s]!.id, target: nodes[t]!.id, relation: RELS[r]!, confidence: 'EXTRACTED', confidence_score: 1, source_file: nodes[s]!.source_file, source_location: 'L1',
  }));
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
}

/** Hop distances from s (-1 unreachable), following edges forward, or both ways when undirected. */
function bfsDistance(ix: GraphIndex, s: number, undirected: boolean): Int32Array {
  const dist = new Int32Array(ix.n).fill(-1);
  dist[s] = 0;
  const queue = [s];
  for (let q = 0; q < queue.length; q++) {
    const u = queue[q]!;
    for (let e = 0; e < ix.m; e++) {
      const steps: [number, number][] = [[ix.g.src[e]!, ix.g.dst[e]!]];
      if (undirected) steps.push([ix.g.dst[e]!, ix.g.src[e]!]);
      for (const [x, y] of steps) {
        if (x === u && dist[y] === -1) {
          dist[y] = dist[u]! + 1;
          queue.push(y);
        }
      }
    }
  }
  return dist;
}

const arbGraph = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(RELS.length - 1)), { maxLength: 90 })));

function explorer(d: GraphDocument): { eg: ExplorerGraph; ix: GraphIndex; free: () => void } {
  const ix = new GraphIndex(d);
  const g = core.graph({ n: ix.n, src: ix.g.src, dst: ix.g.dst, rel: ix.g.rel });
  return { eg: new ExplorerGraph(ix, g), ix, free: () => g.free() };
}

test('impact() matches the TypeScript reverse walk, grouped by depth', () => {
  fc.assert(fc.property(arbGraph, fc.nat(), fc.integer({ min: 1, max: 4 }), ([n, edges], seed, k) => {
    const { eg, ix, free } = explorer(doc(n, edges));
    try {
      const v = seed % n;
      const got = eg.impact(v, k);
      const ref = new TsTraversal(ix).reverseReach([v], k, IMPACT_MASK);
      const want = new Map<number, number>();
      ref.nodes.forEach((u, i) => want.set(u, ref.depth[i]!));
      want.delete(v);
      assert.equal(got.total, want.size);
      got.byDepth.forEach((level, d) => level.forEach((h) => assert.equal(want.get(h.node), d + 1)));
    } finally {
      free();
    }
  }), { numRuns: 150 });
});

test('path() returns a shortest chain of real edges, undirected by default and forward-only when asked', () => {
  fc.assert(fc.property(arbGraph, fc.nat(), fc.nat(), fc.boolean(), ([n, edges], a, b, directed) => {
    const { eg, ix, free } = explorer(doc(n, edges));
    try {
      const s = a % n;
      const t = b % n;
      const p = eg.path(s, t, { directed, maxHops: 8 });
      const want = bfsDistance(ix, s, !directed)[t]!;
      if (want < 0 || want > 8) {
        assert.equal(p, null);
        return;
      }
      assert.ok(p);
      assert.equal(p.directed, directed);
      assert.equal(p.hops.length, want);
      assert.equal(p.nodes[0], s);
      assert.equal(p.nodes.at(-1), t);
      p.hops.forEach((h, i) => {
        if (directed) assert.equal(h.reversed, false);
        const [x, y] = h.reversed ? [p.nodes[i + 1]!, p.nodes[i]!] : [p.nodes[i]!, p.nodes[i + 1]!];
        assert.equal(ix.g.src[h.edge], x);
        assert.equal(ix.g.dst[h.edge], y);
      });
    } finally {
      free();
    }
  }), { numRuns: 150 });
});

test('neighbourhood() holds the centre, only nodes within the hops, and respects the cap', () => {
  fc.assert(fc.property(arbGraph, fc.nat(), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 10 }), ([n, edges], a, hops, cap) => {
    const { eg, ix, free } = explorer(doc(n, edges));
    try {
      const v = a % n;
      const nb = eg.neighbourhood(v, hops, cap);
      assert.equal(nb.nodes[0], v);
      assert.ok(nb.nodes.length <= cap);
      // Undirected BFS reference.
      const dist = new Map<number, number>([[v, 0]]);
      let frontier = [v];
      for (let d = 1; d <= hops; d++) {
        const next: number[] = [];
        for (const u of frontier) {
          for (let e = 0; e < ix.m; e++) {
            for (const [x, y] of [[ix.g.src[e]!, ix.g.dst[e]!], [ix.g.dst[e]!, ix.g.src[e]!]] as const) {
              if (x === u && !dist.has(y)) {
                dist.set(y, d);
                next.push(y);
              }
            }
          }
        }
        frontier = next;
      }
      assert.equal(nb.reached, dist.size);
      for (const u of nb.nodes) assert.ok(dist.has(u));
      const shown = new Set(nb.nodes);
      for (const e of nb.edges) assert.ok(shown.has(ix.g.src[e]!) && shown.has(ix.g.dst[e]!));
    } finally {
      free();
    }
  }), { numRuns: 150 });
});

test('a graph without communities gets them from the core Leiden in the page (connected, deterministic)', () => {
  const edges: [number, number, number][] = [];
  for (const base of [0, 5]) for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) if (i !== j) edges.push([base + i, base + j, 0]);
  edges.push([4, 5, 0]);
  const d = doc(10, edges);
  for (const n of d.nodes) delete n.community;
  const { eg, ix, free } = explorer(d);
  try {
    assert.equal(ix.communities.size, 2);
    assert.equal(new Set([0, 1, 2, 3, 4].map((v) => ix.community[v])).size, 1);
    assert.notEqual(ix.community[0], ix.community[9]);
    assert.deepEqual(eg.communities().map((c) => c.size), [5, 5]);
  } finally {
    free();
  }
});

test('callers() and callees() list call-like edges only, and communityOverview() counts cross edges', () => {
  const d = doc(4, [[0, 1, 0], [2, 1, 1], [3, 1, 3], [1, 0, 2]]);
  const { eg, free } = explorer(d);
  try {
    assert.deepEqual(eg.callers(1).map((r) => [r.other, r.relation]), [[0, 'calls'], [2, 'references']]);
    assert.deepEqual(eg.callees(1), []);
    const overview = eg.communityOverview(10);
    assert.deepEqual(overview.communities.map((c) => c.size), [2, 2]);
    assert.deepEqual(overview.links, [{ a: 0, b: 1, weight: 3 }]); // 3->1 stays inside community 1
  } finally {
    free();
  }
});

test('focus() puts the distinct callers left and callees right, one hop, and one more from each expanded node', () => {
  fc.assert(fc.property(arbGraph, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 8 }), ([n, edges], a, b, cap) => {
    const { eg, ix, free } = explorer(doc(n, edges));
    try {
      const v = a % n;
      const callers = new Set(eg.callers(v).map((r) => r.other).filter((u) => u !== v));
      const callees = new Set(eg.callees(v).map((r) => r.other).filter((u) => u !== v));
      const hasCalls = eg.callers(v).length + eg.callees(v).length > 0;
      const plain = eg.focus(v, new Set(), cap);
      assert.deepEqual(plain.columns.get(0), [v]);
      assert.equal(plain.calls, hasCalls);
      const left = plain.columns.get(-1) ?? [];
      const right = plain.columns.get(1) ?? [];
      assert.ok(left.length <= cap && right.length <= cap);
      assert.deepEqual([...plain.columns.keys()].sort(), [0, ...(left.length ? [-1] : []), ...(right.length ? [1] : [])].sort());
      if (hasCalls) {
        for (const u of left) assert.ok(callers.has(u), `${u} is a caller of ${v}`);
        for (const u of right) assert.ok(callees.has(u), `${u} is a callee of ${v}`);
        assert.equal(left.length + plain.omitted.callers, callers.size);
        // A node both calling and called sits on the left (unless the left column had no room for it).
        assert.equal(right.length + plain.omitted.callees, [...callees].filter((u) => !left.includes(u)).length);
      }
      const shown = new Set([...plain.columns.values()].flat());
      assert.equal(shown.size, [...plain.columns.values()].flat().length, 'each node once');
      for (const e of plain.edges) assert.ok(shown.has(ix.g.src[e]!) && shown.has(ix.g.dst[e]!));
      // Expanding a caller adds only its own callers, in column -2.
      const pick = left[b % Math.max(1, left.length)];
      if (pick === undefined || !hasCalls) return;
      const grown = eg.focus(v, new Set([pick]), cap);
      const theirs = new Set(eg.callers(pick).map((r) => r.other));
      for (const u of grown.columns.get(-2) ?? []) assert.ok(theirs.has(u) && !shown.has(u));
      assert.equal((grown.columns.get(-2) ?? []).length > 0, (plain.more.get(pick) ?? 0) > 0);
    } finally {
      free();
    }
  }), { numRuns: 150 });
});
