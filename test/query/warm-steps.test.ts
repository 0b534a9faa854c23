import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphDocument } from '../../src/graph/model.ts';
import { Core } from '../../src/core/index.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { Sliced } from '../../src/query/sliced.ts';
import { CODE_TIER, codeTiers, rememberCodeTiers } from '../../src/query/code-tier.ts';

const traversal = coreTraversal(await Core.load());

/** A random code-shaped graph: repeated labels (ties in every order), files, tests, calls. */
function graph(seed: number, n: number): GraphDocument {
  let s = seed;
  const rnd = (k: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % k;
  };
  const names = ['parse', 'Parse', 'render', 'load', 'saveUser', 'getToken', 'Router.match', 'cache'];
  const nodes = Array.from({ length: n }, (_, i) => {
    const file = `${rnd(3) ? 'src' : 'test'}/m${i % 17}.ts`;
    return i % 9 === 0
      ? { id: `${file}#file${i}`, label: file, kind: 'file', file_type: 'code', source_file: file, source_location: 'L1' }
      : { id: `${file}#n${i}`, label: names[rnd(names.length)]!, kind: rnd(4) ? 'function' : 'class', file_type: 'code', source_file: file, source_location: `L${1 + rnd(200)}`, community: rnd(5) };
  });
  const rels = ['calls', 'calls', 'references', 'imports', 'tests', 'method'];
  const links = Array.from({ length: n * 3 }, () => {
    const a = nodes[rnd(n)]!;
    return { source: a.id, target: nodes[rnd(n)]!.id, relation: rels[rnd(rels.length)]!, confidence: 'EXTRACTED', source_file: a.source_file, source_location: `L${1 + rnd(200)}` };
  });
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [] } as unknown as GraphDocument;
}

/** What the warm-up builds, read through the public getters. */
function snapshot(engine: QueryEngine): unknown {
  const ix = engine.ix;
  return {
    labelOrder: [...ix.labelOrder],
    byBare: [...ix.byBare],
    labelCount: [...ix.labelCount],
    byFile: [...ix.byFile],
    communities: [...ix.communities],
    labelPostings: [...ix.labelPostings],
    pathPostings: [...ix.pathPostings],
    labelWords: [...ix.labelWords],
    godNodes: engine.godNodes(),
    testCounts: engine.godNodes().slice(0, 25).map((v) => engine.testCount(v)),
    stats: engine.stats(),
    rank: engine.rank('parse the router cache').nodes.map((h) => [h.node, h.score]),
    qualified: Array.from({ length: ix.n }, (_, v) => engine.qualified(v)),
  };
}

test('Sliced: a build advanced a slice at a time, or finished by get() midway, gives the value built whole', () => {
  function* count(): Generator<void, number[]> {
    const out: number[] = [];
    for (let i = 0; i < 10; i++) {
      out.push(i);
      yield;
    }
    return out;
  }
  const stepped = new Sliced(count);
  let steps = 0;
  while (!stepped.step(-Infinity)) steps++; // a deadline already passed: one slice per call
  assert.equal(steps, 10);
  assert.deepEqual(stepped.get(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  const interrupted = new Sliced(count);
  interrupted.step(-Infinity);
  interrupted.step(-Infinity);
  assert.equal(interrupted.built, false);
  assert.deepEqual(interrupted.get(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'get() finishes the build under way, not a second one');
  assert.equal(interrupted.built, true);
  assert.equal(interrupted.step(-Infinity), true);
});

test('warm-up steps run one slice at a time, interrupted by calls, build exactly what the lazy getters build', () => {
  for (const seed of [1, 2, 3]) {
    const lazy = new QueryEngine(graph(seed, 3000), traversal);
    const sliced = new QueryEngine(graph(seed, 3000), traversal);
    const steps = sliced.warmSteps(true);
    let turns = 0;
    for (let i = 0; i < steps.length; turns++) {
      if (steps[i]!(-Infinity)) i++;
      // Calls arrive between slices and use indexes that are half built.
      if (turns === 3) assert.ok(sliced.ix.labelOrder.length === 3000);
      if (turns === 40) sliced.rank('load the token');
      if (turns === 90) void sliced.ix.labelPostings;
    }
    assert.ok(turns > steps.length * 2, `the build was sliced (${turns} slices for ${steps.length} steps)`);
    assert.deepEqual(snapshot(sliced), snapshot(lazy), `seed ${seed}`);
  }
});

test('god nodes rank by degree, then label (UTF-16 order), then id', () => {
  const engine = new QueryEngine(graph(7, 2000), traversal);
  const ix = engine.ix;
  const ranked = engine.godNodes();
  for (let i = 1; i < ranked.length; i++) {
    const a = ranked[i - 1]!;
    const b = ranked[i]!;
    const la = ix.label(a);
    const lb = ix.label(b);
    const c = ix.degree[b]! - ix.degree[a]! || (la < lb ? -1 : la > lb ? 1 : 0) || a - b;
    assert.ok(c < 0, `god node order at ${i}`);
  }
});

test('labelOrder over several sorted runs merges to the (label, id) order', () => {
  const engine = new QueryEngine(graph(11, 5000), traversal);
  const ix = engine.ix;
  const expected = Array.from({ length: ix.n }, (_, v) => v).sort((a, b) => {
    const la = ix.label(a);
    const lb = ix.label(b);
    return la < lb ? -1 : la > lb ? 1 : a - b;
  });
  const order = ix.labelOrder;
  assert.deepEqual(
    expected.map((v) => order[v]),
    expected.map((_, i) => i),
  );
});

test('warmSteps() builds the code tiers before the ranking index (listings and lookups order by them)', () => {
  const engine = new QueryEngine(graph(5, 400), traversal);
  // Every step but the last two (the ranking postings and scratch, which record tiers too).
  for (const step of engine.warmSteps().slice(0, -2)) step(Infinity);
  const other = new Uint8Array(engine.ix.n).fill(CODE_TIER.test);
  rememberCodeTiers(engine.ix, other);
  assert.notEqual(codeTiers(engine.ix), other, 'the warm-up built them already');
});
