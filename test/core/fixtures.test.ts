// Every kernel against every field of the shared golden fixtures, at the README's tolerances,
// on the release build and on the debug build (asserts on, catches memory misuse).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Core, type CoreGraph } from '../../src/core/index.ts';
import { fixtureEdges, loadFixtures, maxAbsDiff, TOL, type GraphFixture } from '../helpers/fixtures.ts';

const fixtures = loadFixtures();

for (const build of ['release', 'debug'] as const) describe(`${build} wasm`, () => {
  let core: Core;
  const graphs = new Map<string, CoreGraph>();
  let checks = 0;

  before(async () => {
    core = await Core.load({ debug: build === 'debug' });
    for (const f of fixtures) graphs.set(f.name, core.graph(fixtureEdges(f)));
  });
  after(() => {
    for (const g of graphs.values()) g.free();
    console.error(`# fixture checks passed (${build} wasm): ${checks}`);
  });

  function graphOf(f: GraphFixture): CoreGraph {
    return graphs.get(f.name)!;
  }

  for (const f of fixtures) {
    test(`${f.name}: degree() equals outDegree/inDegree`, () => {
      const d = graphOf(f).degree();
      assert.deepEqual(Array.from(d.out), f.outDegree);
      assert.deepEqual(Array.from(d.in), f.inDegree);
      checks += 2;
    });

    test(`${f.name}: bfs() equals dist for every source`, () => {
      for (const c of f.bfs) {
        assert.deepEqual(Array.from(graphOf(f).bfs(c.source)), c.dist, `source ${c.source}`);
        checks++;
      }
    });

    test(`${f.name}: shortestPath() length equals len, path valid`, () => {
      const g = graphOf(f);
      const arcs = new Set(f.edges.map(([a, b]) => `${a},${b}`));
      for (const [s, t, len] of f.shortestPath) {
        const p = g.shortestPath(s, t);
        if (len === -1) {
          assert.equal(p, null, `${s}->${t} should have no path`);
        } else {
          assert.ok(p, `${s}->${t} should have a path`);
          assert.equal(p.length - 1, len, `${s}->${t} length`);
          assert.equal(p[0], s);
          assert.equal(p[p.length - 1], t);
          for (let i = 0; i + 1 < p.length; i++) assert.ok(arcs.has(`${p[i]},${p[i + 1]}`), `arc ${p[i]}->${p[i + 1]}`);
          assert.deepEqual(g.shortestPath(s, t), p, 'same path on a second run');
        }
        checks++;
      }
    });

    test(`${f.name}: dijkstra() equals dist (unweighted fixtures: the bfs dist)`, () => {
      // Without weights every edge weighs 1, so Dijkstra must reproduce the BFS distances.
      for (const c of f.dijkstra ?? f.bfs) {
        const d = graphOf(f).dijkstra(c.source);
        assert.deepEqual(Array.from(d, (x) => (x === Infinity ? -1 : x)), c.dist, `source ${c.source}`);
        checks++;
      }
    });

    test(`${f.name}: reverseReach() nodes equal reverseKHop`, () => {
      for (const c of f.reverseKHop) {
        const r = graphOf(f).reverseReach([c.seed], { k: c.k });
        assert.deepEqual(Array.from(r.nodes).sort((a, b) => a - b), c.nodes, `seed ${c.seed} k ${c.k}`);
        checks++;
      }
    });

    test(`${f.name}: pagerank() x within 1e-9, x20 within 1e-12`, () => {
      const g = graphOf(f);
      const x = g.pagerank({ alpha: f.pagerank.alpha });
      assert.ok(maxAbsDiff(x, f.pagerank.x) <= TOL.pagerank, `x off by ${maxAbsDiff(x, f.pagerank.x)}`);
      const x20 = g.pagerank({ alpha: f.pagerank.alpha, iterations: 20, tolerance: 0 });
      assert.ok(maxAbsDiff(x20, f.pagerank.x20) <= TOL.pagerank20, `x20 off by ${maxAbsDiff(x20, f.pagerank.x20)}`);
      checks += 2;
    });

    test(`${f.name}: personalized pagerank() within 1e-9`, () => {
      for (const c of f.personalizedPagerank) {
        const x = graphOf(f).pagerank({ alpha: c.alpha, personalization: c.seeds });
        assert.ok(maxAbsDiff(x, c.x) <= TOL.pagerank, `seeds ${c.seeds}: off by ${maxAbsDiff(x, c.x)}`);
        checks++;
      }
    });

    test(`${f.name}: components() weak and strong equal the canonical labels`, () => {
      const w = graphOf(f).components('weak');
      assert.equal(w.count, f.weakComponents.count);
      assert.deepEqual(Array.from(w.label), f.weakComponents.label);
      const s = graphOf(f).components('strong');
      assert.equal(s.count, f.strongComponents.count);
      assert.deepEqual(Array.from(s.label), f.strongComponents.label);
      checks += 2;
    });
  }
});
