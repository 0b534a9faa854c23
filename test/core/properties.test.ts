// Property tests: every kernel of src/core against the obviously-correct references in
// test/reference/graph.ts, on random graphs (n <= 50) with self-loops, parallel edges, isolated
// nodes, relation masks and all three directions.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Core, type CoreGraph } from '../../src/core/index.ts';
import {
  reachViolation, refBfs, refDegree, refDijkstra, refPagerank, refReverseReach, refStrong, refWeak, type Dir,
  type EdgeList,
} from '../reference/graph.ts';

const ALL = 0xffffffff;
let core: Core;
let propertiesRun = 0;
before(async () => {
  core = await Core.load({ debug: true }); // asserts on: memory misuse traps instead of passing
});
after(() => console.error(`# fast-check properties run: ${propertiesRun} x 150 cases`));

/** Random graph: 1..50 nodes, relations 0..3, plus forced self-loops and parallel copies. */
function arbGraph(opts: { weighted?: boolean; maxNodes?: number } = {}): fc.Arbitrary<EdgeList> {
  return fc.integer({ min: 1, max: opts.maxNodes ?? 50 }).chain((n) =>
    fc
      .record({
        edges: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(3)), { maxLength: 3 * n }),
        loops: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(3)), { maxLength: 3 }),
        dups: fc.array(fc.nat(), { maxLength: 5 }),
        weights: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 3 * n + 10, maxLength: 3 * n + 10 }),
      })
      .map(({ edges, loops, dups, weights }) => {
        const all: [number, number, number][] = [...edges, ...loops.map(([v, r]) => [v, v, r] as [number, number, number])];
        if (all.length > 0) for (const d of dups) all.push(all[d % all.length]!);
        const g: EdgeList = { n, edges: all };
        if (opts.weighted) g.weight = weights.slice(0, all.length);
        return g;
      }),
  );
}

const arbMask = fc.oneof(fc.constant(ALL), fc.integer({ min: 0, max: 15 }));
const arbDir = fc.constantFrom<Dir>('out', 'in', 'both');

function build(g: EdgeList): CoreGraph {
  return core.graph({
    n: g.n,
    src: g.edges.map((e) => e[0]),
    dst: g.edges.map((e) => e[1]),
    rel: g.edges.map((e) => e[2]),
    ...(g.weight ? { weight: g.weight } : {}),
  });
}

/** Runs `body` on each generated graph (built in the core, freed after) and argument tuple. */
function check<T>(args: fc.Arbitrary<T>, body: (g: CoreGraph, e: EdgeList, a: T) => void, el: fc.Arbitrary<EdgeList> = arbGraph()): void {
  fc.assert(
    fc.property(el, args, (e, a) => {
      const g = build(e);
      try {
        body(g, e, a);
      } finally {
        g.free();
      }
    }),
    { numRuns: 150 },
  );
  propertiesRun++;
}

test('bfs() equals the reference BFS (multi-source, maxDepth, relMask, direction)', () => {
  check(
    fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.option(fc.nat(6), { nil: undefined }), arbMask, arbDir),
    (g, e, [srcs, maxDepth, relMask, direction]) => {
      const sources = srcs.map((s) => s % e.n);
      const got = g.bfs(sources, { maxDepth, relMask, direction });
      assert.deepEqual(Array.from(got), refBfs(e, sources, direction, relMask, maxDepth ?? Infinity));
    },
  );
});

test('shortestPath() is a valid path of BFS length, the same every run, null beyond maxHops', () => {
  check(
    fc.tuple(fc.nat(), fc.nat(), arbMask, fc.boolean(), fc.option(fc.nat(5), { nil: undefined })),
    (g, e, [a, b, relMask, undirected, maxHops]) => {
      const [s, t] = [a % e.n, b % e.n];
      const d = refBfs(e, [s], undirected ? 'both' : 'out', relMask)[t]!;
      const p = g.shortestPath(s, t, { relMask, undirected, maxHops });
      if (d === -1 || (maxHops !== undefined && d > maxHops)) {
        assert.equal(p, null);
        return;
      }
      assert.ok(p);
      assert.equal(p.length - 1, d);
      assert.equal(p[0], s);
      assert.equal(p[p.length - 1], t);
      for (let i = 0; i + 1 < p.length; i++) {
        const [u, v] = [p[i]!, p[i + 1]!];
        const ok = e.edges.some(([x, y, r]) => ((relMask >>> r) & 1) === 1 && ((x === u && y === v) || (undirected && x === v && y === u)));
        assert.ok(ok, `step ${u} -> ${v} is an edge`);
      }
      assert.deepEqual(g.shortestPath(s, t, { relMask, undirected, maxHops }), p);
    },
  );
});

test('dijkstra() equals the reference relaxation (weights 0..20, parallel edges, relMask)', () => {
  check(
    fc.tuple(fc.nat(), arbMask),
    (g, e, [a, relMask]) => {
      const s = a % e.n;
      assert.deepEqual(Array.from(g.dijkstra(s, { relMask })), refDijkstra(e, s, relMask));
    },
    arbGraph({ weighted: true }),
  );
});

test('dijkstra() without weights equals bfs() distances', () => {
  check(
    fc.tuple(fc.nat()),
    (g, e, [a]) => {
      const s = a % e.n;
      assert.deepEqual(Array.from(g.dijkstra(s), (x) => (x === Infinity ? -1 : x)), Array.from(g.bfs(s)));
    },
  );
});

test('reverseReach() reaches the reference set at the reference depths, with valid via', () => {
  check(
    fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.nat(5), arbMask),
    (g, e, [seeds, k, relMask]) => {
      const sd = seeds.map((s) => s % e.n);
      const r = g.reverseReach(sd, { k, relMask });
      assert.equal(reachViolation(e.edges, sd, relMask, refReverseReach(e, sd, k, relMask), r), null);
    },
  );
});

test('pagerank() 20 iterations equals the reference to 1e-12; converged sums to 1 and matches', () => {
  check(
    fc.tuple(arbMask, fc.option(fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), { nil: undefined }), fc.double({ min: 0.5, max: 0.95, noNaN: true })),
    (g, e, [relMask, seedsRaw, alpha]) => {
      const seeds = seedsRaw?.map((s) => s % e.n);
      const opts = { alpha, relMask, ...(seeds ? { personalization: seeds } : {}) };
      const x20 = g.pagerank({ ...opts, iterations: 20, tolerance: 0 });
      const r20 = refPagerank(e, { alpha, mask: relMask, iterations: 20, ...(seeds ? { seeds } : {}) });
      for (let v = 0; v < e.n; v++) assert.ok(Math.abs(x20[v]! - r20[v]!) <= 1e-12, `x20[${v}]`);
      const x = g.pagerank(opts);
      const rx = refPagerank(e, { alpha, mask: relMask, iterations: 400, ...(seeds ? { seeds } : {}) });
      let sum = 0;
      for (let v = 0; v < e.n; v++) {
        sum += x[v]!;
        assert.ok(Math.abs(x[v]! - rx[v]!) <= 1e-9, `x[${v}] ${x[v]} vs ${rx[v]}`);
      }
      assert.ok(Math.abs(sum - 1) <= 1e-9, `sum ${sum}`);
    },
  );
});

test('degree() equals reference counts with multiplicity', () => {
  check(
    fc.tuple(arbMask),
    (g, e, [relMask]) => {
      const d = g.degree({ relMask });
      assert.deepEqual({ out: Array.from(d.out), in: Array.from(d.in) }, refDegree(e, relMask));
    },
  );
});

test('components() weak and strong equal the reachability references, canonically labelled', () => {
  check(
    fc.tuple(arbMask),
    (g, e, [relMask]) => {
      const w = g.components('weak', { relMask });
      assert.deepEqual({ count: w.count, label: Array.from(w.label) }, refWeak(e, relMask));
      const s = g.components('strong', { relMask });
      assert.deepEqual({ count: s.count, label: Array.from(s.label) }, refStrong(e, relMask));
    },
  );
});

test('bfs() on larger random graphs (bottom-up steps) equals a plain queue BFS', () => {
  // n in the thousands so the direction-optimizing switch happens mid-search.
  let seed = 7;
  const rnd = (k: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) % k);
  for (const [n, m] of [[3000, 24000], [5000, 12000], [2000, 40000]] as const) {
    const src = Uint32Array.from({ length: m }, () => rnd(n));
    const dst = Uint32Array.from({ length: m }, () => Math.min(n - 1, Math.floor(Math.sqrt(rnd(n * n)))));
    const rel = Uint8Array.from({ length: m }, () => rnd(4));
    const g = core.graph({ n, src, dst, rel });
    for (const direction of ['out', 'in', 'both'] as const) {
      for (const mask of [ALL, 0b0101]) {
        const adj: number[][] = Array.from({ length: n }, () => []);
        for (let i = 0; i < m; i++) {
          if (((mask >>> rel[i]!) & 1) === 0) continue;
          if (direction !== 'in') adj[src[i]!]!.push(dst[i]!);
          if (direction !== 'out') adj[dst[i]!]!.push(src[i]!);
        }
        const sources = [rnd(n), rnd(n)];
        const want = new Array<number>(n).fill(-1);
        const q: number[] = [];
        for (const s of sources) if (want[s] === -1) { want[s] = 0; q.push(s); }
        for (let i = 0; i < q.length; i++) for (const v of adj[q[i]!]!) if (want[v] === -1) { want[v] = want[q[i]!]! + 1; q.push(v); }
        assert.deepEqual(Array.from(g.bfs(sources, { direction, relMask: mask })), want, `${n} ${direction} ${mask}`);
        const cut = g.bfs(sources, { direction, relMask: mask, maxDepth: 2 });
        assert.deepEqual(Array.from(cut), want.map((d) => (d > 2 ? -1 : d)), 'maxDepth 2');
      }
    }
    g.free();
  }
});

test('pagerank() personalization as a weight vector equals the same seeds as a list', () => {
  check(fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 })), (g, e, [raw]) => {
    const seeds = raw.map((s) => s % e.n);
    const w = new Float64Array(e.n);
    for (const s of seeds) w[s] = 3; // any equal positive weight: normalized by the shell
    const a = g.pagerank({ personalization: seeds });
    const b = g.pagerank({ personalization: w });
    for (let v = 0; v < e.n; v++) assert.ok(Math.abs(a[v]! - b[v]!) <= 1e-15, `v ${v}`);
  });
});
