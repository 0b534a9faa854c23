import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryEngine } from '../../src/query/engine.ts';
import { TsTraversal } from '../../src/query/traversal.ts';
import { smallGraph } from '../mcp/fixtures/small-graph.ts';

const engine = new QueryEngine(smallGraph());
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

test('TsTraversal.reverseReach agrees with the engine on a fold', () => {
  const t = new TsTraversal(engine.ix);
  const r = t.reverseReach([id('src/util/log.ts#log_message')], 2, 0xffffffff);
  const ids = [...r.nodes].map((v) => engine.ix.node(v).id).sort();
  assert.deepEqual(ids, ['src/evil.ts#evil', 'src/web/server.ts#startServer']);
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
  const fromCbor = new QueryEngine(doc, undefined, { edges });
  const fromJson = new QueryEngine(smallGraph(), undefined, { releaseLinks: true });
  assert.deepEqual(fromCbor.stats(), fromJson.stats());
  assert.equal(fromJson.ix.g.links.length, 0, 'link objects released');
  for (const key of ['src/auth/service.ts#AuthService', 'src/auth/token.ts#verifyToken', 'src/web/login.ts#login']) {
    const a = fromCbor.callers(fromCbor.ix.g.idOf.get(key)!).hits.map((h) => [fromCbor.ix.node(h.node).id, h.relation, fromCbor.ix.edgeLine[h.edge]]);
    const b = fromJson.callers(fromJson.ix.g.idOf.get(key)!).hits.map((h) => [fromJson.ix.node(h.node).id, h.relation, fromJson.ix.edgeLine[h.edge]]);
    assert.deepEqual(a, b, key);
  }
  assert.deepEqual(fromCbor.rank('auth login').nodes, fromJson.rank('auth login').nodes);
});
