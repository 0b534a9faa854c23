// louvain(), leiden(), modularity(): against the shared fixtures (exact modularity of the given
// partitions, quality targets from igraph/networkx) and, on random graphs, against the references
// in test/reference/communities.ts (properties: quality, determinism, connectivity, canonical ids).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { arbEdgeList, withCoreGraph } from '../helpers/arb-graph.ts';
import { Core, CoreError, GraphFreedError, type CoreGraph } from '../../src/core/index.ts';
import { fixtureEdges, loadFixtures, TOL, type GraphFixture } from '../helpers/fixtures.ts';
import {
  isCanonical, refDisconnectedCommunities, refModularity, refSingletonModularity, refUndirectedSimple,
} from '../reference/communities.ts';
import type { EdgeList } from '../reference/graph.ts';

const ALL = 0xffffffff;
const fixtures = loadFixtures();
const QUALITY_FIXTURES = ['karate-both-directions', 'sbm-11', 'rmat-12'];
const ALGOS = ['louvain', 'leiden'] as const;

function asEdgeList(f: GraphFixture): EdgeList {
  return { n: f.n, edges: f.edges.map(([a, b]) => [a, b, 0] as [number, number, number]) };
}

/** The best modularity among the fixture's quality targets (igraph Louvain/Leiden, networkx). */
function bestTarget(f: GraphFixture): number {
  return Math.max(...Object.values(f.communityQualityTargets!).map((t) => t.modularity));
}

for (const build of ['release', 'debug'] as const) describe(`${build} wasm`, () => {
  let core: Core;
  const graphs = new Map<string, CoreGraph>();
  before(async () => {
    core = await Core.load({ debug: build === 'debug' });
    for (const f of fixtures) graphs.set(f.name, core.graph(fixtureEdges(f)));
  });
  after(() => {
    for (const g of graphs.values()) g.free();
  });

  for (const f of fixtures) {
    test(`${f.name}: modularity() equals undirectedSimple of every fixture partition`, () => {
      const g = graphs.get(f.name)!;
      assert.ok(f.modularity.length >= 2 || f.n === 0, "fixture has partitions");
      for (const p of f.modularity) {
        const q = g.modularity(p.membership);
        if (p.undirectedSimple === null) assert.ok(Number.isNaN(q), `${p.partition}: ${q} should be NaN (no edges)`);
        else assert.ok(Math.abs(q - p.undirectedSimple) <= TOL.modularity, `${p.partition}: ${q} vs ${p.undirectedSimple}`);
      }
    });

    test(`${f.name}: louvain() and leiden() give canonical labels, their count and their modularity`, () => {
      const g = graphs.get(f.name)!;
      for (const algo of ALGOS) {
        const r = g[algo]({ seed: 7 });
        assert.equal(r.membership.length, f.n);
        const canon = isCanonical(r.membership);
        assert.ok(canon.ok, `${algo}: labels not canonical`);
        assert.equal(r.count, canon.count);
        const ref = refModularity(asEdgeList(f), r.membership);
        if (Number.isNaN(ref)) assert.ok(Number.isNaN(r.modularity));
        else {
          assert.ok(Math.abs(r.modularity - ref) <= TOL.modularity, `${algo}: reported ${r.modularity} vs reference ${ref}`);
          assert.equal(r.modularity, g.modularity(r.membership));
        }
      }
    });
  }

  for (const name of QUALITY_FIXTURES) {
    const f = fixtures.find((x) => x.name === name)!;
    test(`${name}: louvain() and leiden() reach the quality target - 0.01 for seeds 1..3`, () => {
      const g = graphs.get(name)!;
      const target = bestTarget(f);
      for (const algo of ALGOS) {
        for (const seed of [1, 2, 3]) {
          const r = g[algo]({ seed });
          assert.ok(r.modularity >= target - 0.01, `${algo} seed ${seed}: ${r.modularity} < ${target} - 0.01`);
        }
      }
    });

    test(`${name}: leiden() communities are connected; louvain()/leiden() repeat under a seed`, () => {
      const g = graphs.get(name)!;
      const e = asEdgeList(f);
      const r = g.leiden({ seed: 5 });
      assert.deepEqual(refDisconnectedCommunities(e, r.membership), []);
      for (const algo of ALGOS) {
        const a = g[algo]({ seed: 11 });
        const b = g[algo]({ seed: 11 });
        assert.deepEqual(a.membership, b.membership, `${algo}: same seed, different labels`);
        assert.equal(a.modularity, b.modularity);
      }
    });
  }

  test('sbm-11: louvain() and leiden() recover the planted partition\'s quality', () => {
    const f = fixtures.find((x) => x.name === 'sbm-11')!;
    const planted = f.modularity.find((p) => p.partition === 'planted')!.undirectedSimple!;
    for (const algo of ALGOS) assert.ok(graphs.get('sbm-11')![algo]().modularity >= planted - 1e-9);
  });

  test('rmat-12: repeated louvain()/leiden()/modularity() calls free their scratch memory', () => {
    const g = graphs.get('rmat-12')!;
    const round = () => {
      for (const algo of ALGOS) g.modularity(g[algo]({ seed: 3 }).membership);
    };
    round();
    const before = core.memoryBytes();
    for (let i = 0; i < 5; i++) round();
    assert.equal(core.memoryBytes(), before);
  });

  test('karate-both-directions: resolution shapes the partition (more communities at higher gamma)', () => {
    const g = graphs.get('karate-both-directions')!;
    for (const algo of ALGOS) {
      const low = g[algo]({ resolution: 0.3 });
      const high = g[algo]({ resolution: 3 });
      assert.ok(low.count < high.count, `${algo}: ${low.count} communities at 0.3, ${high.count} at 3`);
      const single = g[algo]({ resolution: 1e-6 });
      assert.equal(single.count, 1, `${algo}: a tiny resolution merges the connected graph`);
    }
  });
});

describe('properties (debug wasm, random graphs n <= 50)', () => {
  let core: Core;
  before(async () => {
    core = await Core.load({ debug: true });
  });

  const arbGraph = arbEdgeList;
  const arbMask = fc.oneof(fc.constant(ALL), fc.integer({ min: 1, max: 15 }));

  const withGraph = (e: EdgeList, body: (g: CoreGraph) => void): void => withCoreGraph(core, e, body);

  test('modularity() equals the reference for random partitions, masks and resolutions', () => {
    fc.assert(
      fc.property(arbGraph, arbMask, fc.array(fc.nat(1000), { minLength: 50, maxLength: 50 }), fc.integer({ min: 1, max: 8 }), fc.double({ min: 0, max: 3, noNaN: true }), (e, mask, labels, k, gamma) => {
        // k communities with sparse, non-dense labels
        const memb = labels.slice(0, e.n).map((l) => (l % k) * 1000 + 3);
        withGraph(e, (g) => {
          const q = g.modularity(memb, { relMask: mask, resolution: gamma });
          const ref = refModularity(e, memb, mask, gamma);
          if (Number.isNaN(ref)) assert.ok(Number.isNaN(q));
          else assert.ok(Math.abs(q - ref) <= 1e-12, `${q} vs ${ref}`);
        });
      }),
      { numRuns: 150 },
    );
  });

  for (const algo of ALGOS) {
    test(`${algo}() beats the singleton partition, is canonical, repeats under a seed`, () => {
      fc.assert(
        fc.property(arbGraph, arbMask, fc.nat(0xffffffff), (e, mask, seed) => {
          withGraph(e, (g) => {
            const r = g[algo]({ seed, relMask: mask });
            const canon = isCanonical(r.membership);
            assert.ok(canon.ok);
            assert.equal(r.count, canon.count);
            const ref = refModularity(e, r.membership, mask);
            const single = refSingletonModularity(e, mask);
            if (Number.isNaN(single)) {
              assert.ok(Number.isNaN(r.modularity));
            } else {
              assert.ok(Math.abs(r.modularity - ref) <= 1e-12, `reported ${r.modularity} vs ${ref}`);
              assert.ok(r.modularity > single, `${r.modularity} does not beat singletons ${single}`);
            }
            // nodes with no edge in the simple view are communities of their own
            const adj = refUndirectedSimple(e, mask);
            for (let v = 0; v < e.n; v++) {
              if (adj[v]!.size === 0) assert.equal(r.membership.filter((c) => c === r.membership[v]).length, 1);
            }
            const again = g[algo]({ seed, relMask: mask });
            assert.deepEqual(again.membership, r.membership);
          });
        }),
        { numRuns: 150 },
      );
    });
  }

  test('leiden() communities are connected (also at high and low resolution)', () => {
    fc.assert(
      fc.property(arbGraph, arbMask, fc.nat(1000), fc.constantFrom(0.05, 0.5, 1, 2), (e, mask, seed, resolution) => {
        withGraph(e, (g) => {
          const r = g.leiden({ seed, relMask: mask, resolution, iterations: 2 });
          assert.deepEqual(refDisconnectedCommunities(e, r.membership, mask), []);
        });
      }),
      { numRuns: 150 },
    );
  });

  test('misuse: bad membership, resolution, seed, iterations and freed graphs throw', () => {
    withGraph({ n: 3, edges: [[0, 1, 0], [1, 2, 0]] }, (g) => {
      assert.throws(() => g.modularity([0, 1]), CoreError);
      assert.throws(() => g.modularity([0, -1, 2]), CoreError);
      assert.throws(() => g.modularity([0, 1.5, 2]), CoreError);
      assert.throws(() => g.louvain({ resolution: 0 }), CoreError);
      assert.throws(() => g.leiden({ resolution: NaN }), CoreError);
      assert.throws(() => g.louvain({ seed: -1 }), CoreError);
      assert.throws(() => g.leiden({ iterations: 0 }), CoreError);
      assert.equal(g.modularity([5, 5, 9]), refModularity({ n: 3, edges: [[0, 1, 0], [1, 2, 0]] }, [5, 5, 9]));
    });
    const g = core.graph({ n: 2, src: [0], dst: [1] });
    g.free();
    assert.throws(() => g.louvain(), GraphFreedError);
    assert.throws(() => g.modularity([0, 0]), GraphFreedError);
  });

  test('empty graph: no nodes, no communities, NaN modularity', () => {
    withGraph({ n: 0, edges: [] }, (g) => {
      for (const algo of ALGOS) {
        const r = g[algo]();
        assert.equal(r.count, 0);
        assert.equal(r.membership.length, 0);
        assert.ok(Number.isNaN(r.modularity));
      }
      assert.ok(Number.isNaN(g.modularity([])));
    });
  });
});
