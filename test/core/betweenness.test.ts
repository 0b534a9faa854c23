// betweenness(): exact values against networkx (test/reference/betweenness-networkx.json, made by
// betweenness-networkx.py from the shared fixtures) and, on random graphs, against the Brandes
// reference in test/reference/communities.ts (exact, sampled with the same pivots, unnormalized).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { arbEdgeList, withCoreGraph } from '../helpers/arb-graph.ts';
import { Core, CoreError, GraphFreedError, type CoreGraph } from '../../src/core/index.ts';
import { fixtureEdges, loadFixtures, maxAbsDiff } from '../helpers/fixtures.ts';
import { refBetweenness, refPivots } from '../reference/communities.ts';
import type { EdgeList } from '../reference/graph.ts';

const ALL = 0xffffffff;
const fixtures = loadFixtures();
const NX = JSON.parse(readFileSync(new URL('../reference/betweenness-networkx.json', import.meta.url), 'utf8')) as {
  networkx: string;
  graphs: Record<string, number[]>;
};

/** Largest difference relative to max(1, |expected|). */
function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!)));
  return d;
}

for (const build of ['release', 'debug'] as const) describe(`${build} wasm`, () => {
  let core: Core;
  const graphs = new Map<string, CoreGraph>();
  before(async () => {
    core = await Core.load({ debug: build === 'debug' });
    for (const f of fixtures) if (NX.graphs[f.name]) graphs.set(f.name, core.graph(fixtureEdges(f)));
  });
  after(() => {
    for (const g of graphs.values()) g.free();
  });

  test('exact betweenness() equals networkx betweenness_centrality(normalized=True) on every fixture', () => {
    assert.ok(Object.keys(NX.graphs).length >= 10);
    for (const [name, expected] of Object.entries(NX.graphs)) {
      const bc = graphs.get(name)!.betweenness();
      assert.ok(maxAbsDiff(bc, expected) <= 1e-12, `${name}: max diff ${maxAbsDiff(bc, expected)}`);
    }
  });

  test('sbm-11: samples >= n is exact; a 25% sample estimates the exact values', () => {
    const g = graphs.get('sbm-11')!;
    const exact = g.betweenness();
    assert.deepEqual(g.betweenness({ samples: g.n, seed: 3 }), exact);
    const est = g.betweenness({ samples: 512, seed: 9 });
    assert.deepEqual(g.betweenness({ samples: 512, seed: 9 }), est, 'same seed, same estimate');
    assert.notDeepEqual(g.betweenness({ samples: 512, seed: 10 }), est, 'another seed, another sample');
    let sumExact = 0;
    let sumEst = 0;
    let err = 0;
    for (let v = 0; v < g.n; v++) {
      sumExact += exact[v]!;
      sumEst += est[v]!;
      err += Math.abs(est[v]! - exact[v]!);
    }
    // The estimate is unbiased: total within 3%, mean absolute error well below the mean value.
    assert.ok(Math.abs(sumEst - sumExact) <= 0.03 * sumExact, `sum ${sumEst} vs exact ${sumExact}`);
    assert.ok(err / g.n <= 0.25 * (sumExact / g.n), `mean abs error ${err / g.n} vs mean ${sumExact / g.n}`);
  });
});

describe('properties (debug wasm, random graphs n <= 50)', () => {
  let core: Core;
  before(async () => {
    core = await Core.load({ debug: true });
  });

  const arbGraph = arbEdgeList;
  const arbMask = fc.oneof(fc.constant(ALL), fc.integer({ min: 0, max: 15 }));

  const withGraph = (e: EdgeList, body: (g: CoreGraph) => void): void => withCoreGraph(core, e, body);

  test('betweenness() equals the reference: exact, sampled (same pivots), normalized or not', () => {
    fc.assert(
      fc.property(arbGraph, arbMask, fc.nat(60), fc.nat(0xffffffff), fc.boolean(), (e, mask, samples, seed, normalized) => {
        withGraph(e, (g) => {
          const bc = g.betweenness({ relMask: mask, samples, seed, normalized });
          const ref = refBetweenness(e, { mask, samples, seed, normalized });
          assert.ok(maxRelDiff(bc, ref) <= 1e-12, `diff ${maxRelDiff(bc, ref)}`);
          for (const x of bc) assert.ok(x >= 0 && Number.isFinite(x));
        });
      }),
      { numRuns: 300 },
    );
  });

  test('sampled pivots are a seeded sample without repeats', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.nat(), fc.nat(0xffffffff), (n, k0, seed) => {
        const k = k0 % (n + 1);
        const p = refPivots(n, k, seed);
        assert.equal(new Set(p).size, k);
        assert.deepEqual(refPivots(n, k, seed), p);
      }),
    );
  });

  test('a path graph: inner nodes carry the pairs they separate', () => {
    // 0 -> 1 -> 2 -> 3: node 1 lies on (0,2), (0,3); node 2 on (0,3), (1,3).
    withGraph({ n: 4, edges: [[0, 1, 0], [1, 2, 0], [2, 3, 0], [1, 2, 0], [2, 2, 0]] }, (g) => {
      assert.deepEqual(Array.from(g.betweenness({ normalized: false })), [0, 2, 2, 0]);
      assert.deepEqual(Array.from(g.betweenness()), [0, 2 / 6, 2 / 6, 0]);
      assert.deepEqual(Array.from(g.betweenness({ relMask: 0 })), [0, 0, 0, 0]);
    });
  });

  test('misuse: bad samples or seed, freed graph', () => {
    withGraph({ n: 3, edges: [[0, 1, 0]] }, (g) => {
      assert.throws(() => g.betweenness({ samples: -1 }), CoreError);
      assert.throws(() => g.betweenness({ samples: 1.5 }), CoreError);
      assert.throws(() => g.betweenness({ seed: 2 ** 32 }), CoreError);
    });
    const g = core.graph({ n: 1, src: [], dst: [] });
    assert.deepEqual(Array.from(g.betweenness()), [0]);
    g.free();
    assert.throws(() => g.betweenness(), GraphFreedError);
  });
});
