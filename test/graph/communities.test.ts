import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assignCommunities, nodeBetweenness, partitionGraph } from '../../src/graph/communities.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { Core } from '../../src/core/index.ts';
import { plantedByDegree } from '../../bench/gen.ts';
import { approximateBetweenness, louvain } from '../reference/louvain.ts';

/** Newman modularity of a partition of an undirected multigraph (reference, O(m + n)). */
function modularity(n: number, a: ArrayLike<number>, b: ArrayLike<number>, membership: ArrayLike<number>): number {
  const deg = new Float64Array(n);
  let m = 0;
  let inside = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    deg[a[i]!]!++;
    deg[b[i]!]!++;
    m++;
    if (membership[a[i]!] === membership[b[i]!]) inside++;
  }
  const tot = new Map<number, number>();
  for (let v = 0; v < n; v++) tot.set(membership[v]!, (tot.get(membership[v]!) ?? 0) + deg[v]!);
  let expected = 0;
  for (const t of tot.values()) expected += (t / (2 * m)) ** 2;
  return inside / m - expected;
}

const core = await Core.load();

test('the TypeScript reference louvain() finds planted communities, beats the singleton partition and repeats for a seed', () => {
  const g = plantedByDegree({ n: 300, k: 6, degIn: 8, degOut: 0.5, seed: 7 });
  const input = { n: g.n, a: g.src, b: g.dst };
  const m1 = louvain(input, 42);
  assert.deepEqual(louvain(input, 42), m1, 'same seed, same partition');
  const q = modularity(g.n, g.src, g.dst, m1);
  const singleton = modularity(g.n, g.src, g.dst, Array.from({ length: g.n }, (_, i) => i));
  const plantedQ = modularity(g.n, g.src, g.dst, g.membership);
  assert.ok(q > singleton, `modularity ${q} beats singletons ${singleton}`);
  assert.ok(q >= plantedQ - 0.02, `modularity ${q} close to the planted ${plantedQ}`);
});

test('partitionGraph() uses the core\'s Leiden, repeats for a seed and is as good as the planted and the reference Louvain partitions', () => {
  for (const seed of [9, 11, 13]) {
    const g = plantedByDegree({ n: 300, k: 6, degIn: 8, degOut: 0.5, seed });
    const input = { n: g.n, a: g.src, b: g.dst };
    const r = partitionGraph(input, { core, seed: 42 });
    assert.equal(r.algorithm, 'leiden-core');
    assert.deepEqual(partitionGraph(input, { core, seed: 42 }).membership, r.membership);
    const q = modularity(g.n, g.src, g.dst, r.membership);
    assert.ok(q >= modularity(g.n, g.src, g.dst, g.membership) - 0.02, `seed ${seed}: ${q} vs planted`);
    assert.ok(q >= modularity(g.n, g.src, g.dst, louvain(input, 42)) - 0.01, `seed ${seed}: ${q} vs reference Louvain`);
  }
});

test('without the core, partitionGraph(), nodeBetweenness() and assignCommunities() throw a clear error (no TypeScript fallback)', () => {
  const input = { n: 3, a: Uint32Array.from([0, 1]), b: Uint32Array.from([1, 2]) };
  const noCore = /WASM core \(wasm\/synaptic\.wasm\) is not loaded/;
  assert.throws(() => partitionGraph(input, { core: null }), noCore);
  assert.throws(() => partitionGraph(input), noCore);
  assert.throws(() => nodeBetweenness(input, { samples: 3, core: null }), noCore);
  const doc: GraphDocument = { directed: true, multigraph: true, graph: {}, nodes: [], links: [], hyperedges: [], built_at_commit: null };
  assert.throws(() => assignCommunities(doc, { core: null }), noCore);
});

test('nodeBetweenness() on the core with every source equals the reference Brandes on a path', () => {
  // Path 0-1-2-3-4: betweenness (unordered pairs) of node i is i * (4 - i).
  const path = { n: 5, a: Uint32Array.from([0, 1, 2, 3]), b: Uint32Array.from([1, 2, 3, 4]) };
  assert.deepEqual(Array.from(approximateBetweenness(path, 5)), [0, 3, 4, 3, 0]);
  assert.deepEqual(Array.from(nodeBetweenness(path, { samples: 5, core })), [0, 3, 4, 3, 0]);
  assert.deepEqual(Array.from(nodeBetweenness(path, { samples: 5, core, seed: 7 })), [0, 3, 4, 3, 0], 'exact: the seed does not matter');
});

test('assignCommunities() numbers communities by size and names them by folder and most used public symbols', () => {
  const node = (id: string, kind: GraphNode['kind'] = 'function'): GraphNode => ({
    id, label: id.includes('#') ? id.slice(id.indexOf('#') + 1) : id, file_type: 'code', source_file: id.split('#')[0]!, source_location: 'L1', kind,
  });
  const link = (s: string, t: string): GraphLink => ({ source: s, target: t, relation: 'calls', confidence: 'EXTRACTED', confidence_score: 1, source_file: s.split('#')[0]!, source_location: 'L1' });
  const router = ['src/router/a.ts#addRoute', 'src/router/a.ts#matchRoute', 'src/router/b.ts#routeTable', 'src/router/b.ts#compileRoute'];
  const db = ['src/db/q.ts#runQuery', 'src/db/q.ts#buildQuery', 'src/db/c.ts#openConnection'];
  const links: GraphLink[] = [];
  for (const group of [router, db]) for (let i = 0; i < group.length; i++) for (let j = i + 1; j < group.length; j++) links.push(link(group[i]!, group[j]!));
  links.push(link(router[0]!, db[0]!));
  const doc: GraphDocument = { directed: true, multigraph: true, graph: {}, nodes: [...router, ...db].sort().map((id) => node(id)), links, hyperedges: [], built_at_commit: null };
  const r = assignCommunities(doc, { core });
  assert.equal(r.communities.length, 2);
  assert.equal(r.communities[0]!.size, 4);
  // Named by the symbols used most from other files: b.ts's two from a.ts's two (ties in id order);
  // q.ts holds two of db's three members, so the file names it, and its own symbols come first.
  assert.equal(doc.graph.community_labels!['0'], 'src/router — compileRoute, routeTable');
  assert.equal(doc.graph.community_labels!['1'], 'src/db/q.ts — runQuery, buildQuery');
  assert.deepEqual(r.communities.map((c) => c.label), ['src/router — compileRoute, routeTable', 'src/db/q.ts — runQuery, buildQuery']);
  for (const id of router) assert.equal(doc.nodes.find((n) => n.id === id)!.community, 0);
  assert.ok(r.communities[0]!.cohesion > 0.8 && r.communities[0]!.cohesion < 1);
});
