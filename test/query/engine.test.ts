import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { TsTraversal } from '../reference/traversal.ts';
import { smallGraph } from '../mcp/fixtures/small-graph.ts';

const traversal = coreTraversal(await Core.load());
const engine = new QueryEngine(smallGraph(), traversal);
const id = (key: string) => engine.ix.g.idOf.get(key)!;
const found = (name: string) => {
  const r = engine.resolve(name);
  assert.equal(r.status, 'found', `${name} should resolve: ${JSON.stringify(r)}`);
  return (r as { node: number }).node;
};

test('resolve() follows the cascade: id, label, bare name, file, unique substring', () => {
  assert.equal(found('src/auth/token.ts#verifyToken'), id('src/auth/token.ts#verifyToken'));
  assert.equal(found('authservice'), id('src/auth/service.ts#AuthService'));
  assert.equal(found('logout'), id('src/auth/service.ts#AuthService.logout'));
  assert.equal(found('src/auth/service.ts'), id('src/auth/service.ts'));
  assert.equal(found('registerRou'), id('src/web/routes.ts#registerRoutes'));
  assert.equal(engine.resolve('nothing_like_this').status, 'not_found');
});

test('resolve() returns candidates with degree and qualified refs that resolve back', () => {
  const r = engine.resolve('login');
  assert.equal(r.status, 'ambiguous');
  if (r.status !== 'ambiguous') return;
  assert.equal(r.total, 2); // the exact-label step matches the two `login` functions before bare names
  for (const c of r.candidates) {
    assert.ok(c.degree >= 1);
    const back = engine.resolve(c.qualified);
    assert.equal(back.status, 'found', c.qualified);
    assert.equal(engine.ix.node((back as { node: number }).node).id, c.id);
  }
  assert.equal(found('login@src/web'), id('src/web/login.ts#login'));
  assert.equal(found('login@admin/login.ts'), id('src/admin/login.ts#login'));
});

test('callers() folds a class members in and keeps only external callers', () => {
  const listing = engine.callers(id('src/auth/service.ts#AuthService'));
  assert.equal(listing.foldedMembers, 2);
  const callers = listing.hits.map((h) => engine.ix.node(h.node).id).sort();
  assert.deepEqual(callers, ['src/admin/login.ts#login', 'src/web/login.ts#login', 'test/auth.test.ts#testLogin']);
});

test('callees() and references() differ: references include non-call relations', () => {
  const callees = engine.callees(id('src/web/server.ts#startServer')).hits.map((h) => engine.ix.label(h.node)).sort();
  assert.deepEqual(callees, ['log_message', 'registerRoutes']);
  const refs = engine.references(id('src/web/login.ts#login')).hits.map((h) => h.relation);
  assert.deepEqual(refs, ['references']);
});

test('affected() walks impact edges backward with depth and relation', () => {
  const { hits } = engine.affected(id('src/auth/token.ts#verifyToken'), 3);
  const byLabel = new Map(hits.map((h) => [engine.ix.node(h.node).id, h]));
  assert.equal(byLabel.get('src/auth/service.ts#AuthService.login')?.depth, 1);
  assert.equal(byLabel.get('src/web/login.ts#login')?.depth, 2);
  assert.equal(byLabel.get('src/web/routes.ts#registerRoutes')?.depth, 3);
  assert.equal(byLabel.get('src/web/routes.ts#registerRoutes')?.via, 'references');
  assert.ok(!byLabel.has('src/web/server.ts#startServer'), 'depth 4 is outside depth 3');
  assert.equal(engine.affected(id('src/auth/token.ts#verifyToken'), 1).hits.length, 1);
});

test('shortestPath() is undirected but reports stored directions', () => {
  const steps = engine.shortestPath(id('src/auth/token.ts#verifyToken'), id('src/web/login.ts#login'), 8)!;
  assert.equal(steps.length, 2);
  assert.equal(steps[0]!.forward, false); // login -> verifyToken is stored as calls login->verifyToken
  assert.equal(engine.shortestPath(id('src/island.ts#island'), id('src/web/login.ts#login'), 8), null);
});

test('the core traversal agrees with the TypeScript reference on a fold', () => {
  assert.equal(engine.traversal.name, 'wasm');
  const seeds = [id('src/util/log.ts#log_message')];
  const r = engine.traversal.reverseReach(seeds, 2, 0xffffffff);
  const ref = new TsTraversal(engine.ix).reverseReach(seeds, 2, 0xffffffff);
  const ids = [...r.nodes].map((v) => engine.ix.node(v).id).sort();
  assert.deepEqual(ids, ['src/evil.ts#evil', 'src/web/server.ts#startServer']);
  assert.deepEqual(ids, [...ref.nodes].map((v) => engine.ix.node(v).id).sort());
});

const RELS = ['calls', 'references', 'imports', 'contains', 'inherits'];

function randomDoc(n: number, edges: [number, number, number][]): GraphDocument {
  const nodes: GraphNode[] = Array.from({ length: n }, (_, i) => ({ id: `f${i % 3}.ts#n${i}`, label: `n${i}`, file_type: 'code', source_file: `f${i % 3}.ts`, source_location: `L${i + 1}`, kind: 'function' }));
  const links: GraphLink[] = edges.map(([s, t, r]) => ({
    source: nodes[s]!.id, target: nodes[t]!.id, relation: RELS[r]!, confidence: 'EXTRACTED', confidence_score: 1, source_file: nodes[s]!.source_file, source_location: 'L1',
  }));
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
}

test('the core traversal matches the TypeScript reference on random graphs (reach depths and vias, path lengths)', () => {
  const arb = fc.integer({ min: 1, max: 30 }).chain((n) =>
    fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1), fc.nat(RELS.length - 1)), { maxLength: 90 }), fc.nat(), fc.nat(), fc.integer({ min: 1, max: 5 }), fc.nat(31)));
  fc.assert(fc.property(arb, ([n, edges, a, b, k, maskBits]) => {
    const e = new QueryEngine(randomDoc(n, edges), traversal);
    try {
      const ref = new TsTraversal(e.ix);
      const mask = maskBits | 1;
      const s = a % n;
      const t = b % n;
      const byNode = (r: { nodes: Uint32Array; depth: Uint8Array; via: Uint8Array }) => new Map([...r.nodes].map((v, i) => [v, r.depth[i]!]));
      const got = e.traversal.reverseReach([s], k, mask);
      const want = ref.reverseReach([s], k, mask);
      assert.deepEqual(byNode(got), byNode(want));
      // Each via is the relation of an edge in the mask from the reached node into the layer before.
      const depthOf = byNode(got).set(s, 0);
      got.nodes.forEach((u, i) => {
        const ok = e.ix.g.src.some((x, edge) => x === u && e.ix.g.rel[edge] === got.via[i] && depthOf.get(e.ix.g.dst[edge]!) === got.depth[i]! - 1);
        assert.ok(ok && (mask >>> got.via[i]!) & 1, `via of ${u}`);
      });
      const p = e.traversal.shortestPath(s, t, 8, mask);
      const q = ref.shortestPath(s, t, 8, mask);
      assert.equal(p === null, q === null, `path ${s} -> ${t}`);
      if (p && q) {
        assert.equal(p.length, q.length);
        assert.equal(p[0], s);
        assert.equal(p[p.length - 1], t);
        const g = e.ix.g;
        for (let i = 1; i < p.length; i++) {
          const [x, y] = [p[i - 1]!, p[i]!];
          assert.ok(g.src.some((u, edge) => ((u === x && g.dst[edge] === y) || (u === y && g.dst[edge] === x)) && (mask >>> g.rel[edge]!) & 1), `step ${x} - ${y}`);
        }
      }
      // Directed (shortest_path directed): stored edges only, each step source to target.
      const dp = e.traversal.shortestPath(s, t, 8, mask, true);
      const dq = ref.shortestPath(s, t, 8, mask, true);
      assert.equal(dp === null, dq === null, `directed path ${s} -> ${t}`);
      if (dp && dq) {
        assert.equal(dp.length, dq.length);
        const g = e.ix.g;
        for (let i = 1; i < dp.length; i++) {
          const [x, y] = [dp[i - 1]!, dp[i]!];
          assert.ok(g.src.some((u, edge) => u === x && g.dst[edge] === y && (mask >>> g.rel[edge]!) & 1), `forward step ${x} -> ${y}`);
        }
      }
    } finally {
      e.traversal.dispose?.();
    }
  }), { numRuns: 200 });
});

test('an engine without a traversal backend is a clear error, not a different implementation', () => {
  assert.throws(() => new QueryEngine(smallGraph()), /WASM core .* must load/);
});

test('rank() puts exact and multi-concept matches first with scores in (0, 1]', () => {
  const r = engine.rank('how does the auth service login work');
  assert.ok(r.nodes.length > 0);
  const top = engine.ix.node(r.nodes[0]!.node).id;
  assert.ok(['src/auth/service.ts#AuthService.login', 'src/auth/service.ts#AuthService'].includes(top), top);
  for (const n of r.nodes) assert.ok(n.score > 0 && n.score <= 1);
  for (let i = 1; i < r.nodes.length; i++) assert.ok(r.nodes[i - 1]!.score >= r.nodes[i]!.score);
  const snake = engine.rank('log message');
  assert.equal(engine.ix.label(snake.nodes[0]!.node), 'log_message');
  const filtered = engine.rank('login', { contextFilter: ['src/admin'] });
  assert.deepEqual(filtered.nodes.map((n) => engine.ix.node(n.node).source_file), ['src/admin/login.ts']);
});

test('stats() counts confidences, communities and dynamic sites', () => {
  const s = engine.stats();
  assert.equal(s.nodes, 13);
  assert.equal(s.edges, 12); // one dangling link dropped
  assert.equal(s.communities, 4);
  assert.equal(s.extracted, 12);
  assert.equal(s.dynamic_sites, 1);
  assert.equal(s.dynamic_sites_opaque, 0);
});

test('testCount() counts tests that reach a hub', () => {
  assert.equal(engine.testCount(id('src/auth/token.ts#verifyToken')), 1);
  assert.equal(engine.testCount(id('src/util/log.ts#log_message')), 0);
});

test('an engine indexed from graph.cbor columns answers like one indexed from graph.json', async () => {
  const { decodeSnapshot } = await import('../../src/graph/snapshot.ts');
  const { encodeGraph } = await import('../../src/graph/snapshot-encode.ts');
  const { indexSnapshot } = await import('../../src/query/snapshot-index.ts');
  const { doc, edges } = indexSnapshot(decodeSnapshot(encodeGraph(smallGraph())));
  const fromCbor = new QueryEngine(doc, traversal, { edges });
  const fromJson = new QueryEngine(smallGraph(), traversal, { releaseLinks: true });
  assert.deepEqual(fromCbor.stats(), fromJson.stats());
  assert.equal(fromJson.ix.g.links.length, 0, 'link objects released');
  for (const key of ['src/auth/service.ts#AuthService', 'src/auth/token.ts#verifyToken', 'src/web/login.ts#login']) {
    const a = fromCbor.callers(fromCbor.ix.g.idOf.get(key)!).hits.map((h) => [fromCbor.ix.node(h.node).id, h.relation, fromCbor.ix.edgeLine[h.edge]]);
    const b = fromJson.callers(fromJson.ix.g.idOf.get(key)!).hits.map((h) => [fromJson.ix.node(h.node).id, h.relation, fromJson.ix.edgeLine[h.edge]]);
    assert.deepEqual(a, b, key);
  }
  assert.deepEqual(fromCbor.rank('auth login').nodes, fromJson.rank('auth login').nodes);
});
