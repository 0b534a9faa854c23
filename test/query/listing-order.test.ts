import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { Core } from '../../src/core/index.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { qualifiedRef } from '../../src/query/resolve.ts';


const traversal = coreTraversal(await Core.load());
/** Deterministic PRNG (mulberry32). */
function prng(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

/**
 * A graph whose labels repeat a lot (few names, mixed case) in files whose paths often contain one
 * another (`a/b.ts` inside `x/a/b.ts`, `a/b.ts` inside `a/b.tsx`, upper/lower case, no file at all),
 * so qualified references hit every branch; random call/reference edges between them.
 */
function crowdedGraph(seed: number, n: number): GraphDocument {
  const rnd = prng(seed);
  const names = ['run', 'Run', 'RUN', 'init', 'fixture.ts', 'a.b', 'z', '\u00e9t\u00e9', 'Zed', 'run@x'];
  const dirs = ['', 'a/', 'x/a/', 'A/', 'x/y/a/', 'b/a/', 'a/b/'];
  const bases = ['b.ts', 'b.tsx', 'B.ts', 'c.ts', 'b.ts.bak', 'fixture.ts'];
  const nodes: GraphNode[] = [];
  for (let i = 0; i < n; i++) {
    const label = names[rnd(names.length)]!;
    const file = rnd(12) === 0 ? undefined : dirs[rnd(dirs.length)]! + bases[rnd(bases.length)]!;
    // Some ids equal a label (the unique-label shortcut must then not apply).
    const id = rnd(25) === 0 ? label : `${file ?? 'nofile'}#${label}#${i}`;
    if (nodes.some((x) => x.id === id)) continue;
    const node = { id, label, kind: rnd(5) === 0 ? 'class' : 'function', file_type: 'code', source_location: 'L1' } as GraphNode;
    if (file !== undefined) node.source_file = file;
    nodes.push(node);
  }
  const rels = ['calls', 'references', 'method', 'imports', 'uses'];
  const links: GraphLink[] = [];
  for (let i = 0; i < n * 3; i++) {
    const a = nodes[rnd(nodes.length)]!;
    const b = nodes[rnd(nodes.length)]!;
    links.push({ source: a.id, target: b.id, relation: rels[rnd(rels.length)]!, confidence: 'EXTRACTED', confidence_score: 1, source_file: a.source_file ?? '', source_location: 'L1' });
  }
  return { directed: true, multigraph: false, graph: {}, nodes, links } as unknown as GraphDocument;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

test('engine.qualified() (computed per label group) equals qualifiedRef() for every node, and resolves back', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const engine = new QueryEngine(crowdedGraph(seed, 300), traversal);
    const ix = engine.ix;
    // Ask in a scattered order, so groups are filled from different members first.
    const order = Array.from({ length: ix.n }, (_, v) => v).sort((a, b) => ((a * 7919) % 311) - ((b * 7919) % 311));
    for (const v of order) {
      const q = engine.qualified(v);
      assert.equal(q, qualifiedRef(ix, v), `seed ${seed}, node ${ix.node(v).id}`);
      const back = engine.resolve(q);
      if (q !== ix.node(v).id) assert.deepEqual(back, { status: 'found', node: v, via: back.status === 'found' ? back.via : 'id' }, q);
    }
  }
});

test('warm(true) fills every node reference up front, with the same strings', () => {
  const graph = crowdedGraph(6, 300);
  const warmed = new QueryEngine(graph, traversal);
  warmed.warm(true);
  const lazy = new QueryEngine(crowdedGraph(6, 300), traversal);
  for (let v = 0; v < warmed.ix.n; v++) assert.equal(warmed.qualified(v), lazy.qualified(v));
  for (let v = 0; v < warmed.ix.n; v++) assert.equal(warmed.safeQualified(v), lazy.safeQualified(v));
});

test('labelOrder ranks nodes by label (UTF-16 order), then id order', () => {
  const engine = new QueryEngine(crowdedGraph(9, 400), traversal);
  const ix = engine.ix;
  const byLabel = Array.from({ length: ix.n }, (_, v) => v).sort((a, b) => cmpStr(ix.label(a), ix.label(b)) || a - b);
  const order = ix.labelOrder;
  assert.deepEqual(
    byLabel.map((v) => order[v]),
    byLabel.map((_, i) => i),
  );
});

test('affected() and callers() list hits by (depth | degree), then label, then node id', () => {
  for (const seed of [11, 12, 13]) {
    const engine = new QueryEngine(crowdedGraph(seed, 250), traversal);
    const ix = engine.ix;
    for (let v = 0; v < ix.n; v += 7) {
      const { hits } = engine.affected(v, 3);
      for (let i = 1; i < hits.length; i++) {
        const a = hits[i - 1]!;
        const b = hits[i]!;
        const c = a.depth - b.depth || cmpStr(ix.label(a.node), ix.label(b.node)) || a.node - b.node;
        assert.ok(c < 0, `affected order at ${i} for ${ix.node(v).id}`);
      }
      const listing = engine.callers(v).hits;
      for (let i = 1; i < listing.length; i++) {
        const a = listing[i - 1]!;
        const b = listing[i]!;
        const c = ix.degree[b.node]! - ix.degree[a.node]! || cmpStr(ix.label(a.node), ix.label(b.node)) || a.node - b.node;
        assert.ok(c <= 0, `callers order at ${i} for ${ix.node(v).id}`);
      }
    }
  }
});

test('rank() gives the same answer on repeated and interleaved calls (reused per-index lists)', () => {
  const engine = new QueryEngine(crowdedGraph(21, 400), traversal);
  const questions = ['run init', 'fixture', 'zed a.b run', 'nothing here', 'RUN', 'b ts'];
  const first = questions.map((q) => JSON.stringify(engine.rank(q)));
  for (let round = 0; round < 3; round++) {
    for (let i = questions.length - 1; i >= 0; i--) assert.equal(JSON.stringify(engine.rank(questions[i]!)), first[i], questions[i]);
  }
  // A tiny cap keeps only the strongest matches (the bounded selection path).
  const capped = engine.rank('run', { tokenBudget: 1 });
  assert.ok(capped.nodes.length <= 10 && capped.matchedTotal >= capped.nodes.length);
});
