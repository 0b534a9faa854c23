import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { forecastChange, publicApiBreaks } from '../../src/query/change-impact/forecast.ts';
import { changeImpact, clampDepth, testsOfImpact } from '../../src/query/change-impact/impact.ts';
import { smallGraph } from '../mcp/fixtures/small-graph.ts';

const traversal = coreTraversal(await Core.load());
const engine = new QueryEngine(smallGraph(), traversal);
const labels = (ids: Iterable<number>) => [...ids].map((v) => engine.ix.label(v)).sort();

test('changed files -> their nodes -> the reverse-impact set, the changed nodes left out', () => {
  const impact = changeImpact(engine, [{ path: 'src/auth/service.ts', status: 'modified' }], 3);
  assert.deepEqual(labels(impact.changed), ['AuthService', 'AuthService.login', 'AuthService.logout', 'service.ts']);
  // login callers at 1 hop, registerRoutes (references web login) at 2, startServer at 3.
  const byLabel = new Map(impact.dependents.map((h) => [engine.ix.label(h.node), h]));
  assert.equal(byLabel.get('testLogin')?.depth, 1);
  assert.equal(byLabel.get('registerRoutes')?.depth, 2);
  assert.equal(byLabel.get('startServer')?.depth, 3);
  assert.equal(byLabel.get('verifyToken'), undefined, 'a callee is not a dependent');
  assert.ok(!impact.dependents.some((h) => impact.changed.includes(h.node)));
  assert.deepEqual(impact.byDepth, { '1': 3, '2': 1, '3': 1 });
  // One hop less: startServer drops out.
  assert.ok(!changeImpact(engine, [{ path: 'src/auth/service.ts' }], 2).dependents.some((h) => engine.ix.label(h.node) === 'startServer'));
});

test('a file the graph does not hold changes nothing and keeps the caller\'s code hint', () => {
  const impact = changeImpact(engine, [{ path: 'src/new.ts', status: 'untracked', code: true }, { path: 'README.md', code: false }]);
  assert.deepEqual(impact.changed, []);
  assert.deepEqual(impact.dependents, []);
  assert.deepEqual(impact.files.map((f) => [f.path, f.status, f.code]), [['src/new.ts', 'untracked', true], ['README.md', 'listed', false]]);
});

test('depth is clamped to 1..16 with default 3', () => {
  assert.equal(clampDepth(undefined), 3);
  assert.equal(clampDepth(0), 1);
  assert.equal(clampDepth(99), 16);
});

test('tests at risk: test-file nodes among the dependents, and a changed test file at depth 0', () => {
  const impact = changeImpact(engine, [{ path: 'src/auth/service.ts' }]);
  assert.deepEqual(testsOfImpact(engine, impact).map((t) => [engine.ix.label(t.node), t.depth, t.via]), [['testLogin', 1, 'calls']]);
  const own = changeImpact(engine, [{ path: 'test/auth.test.ts' }]);
  assert.deepEqual(testsOfImpact(engine, own).map((t) => [engine.ix.label(t.node), t.depth, t.via]), [['testLogin', 0, 'changed']]);
  // A change no test reaches.
  assert.deepEqual(testsOfImpact(engine, changeImpact(engine, [{ path: 'src/web/server.ts' }])), []);
});

test('tests are found by path convention too, without the extractor\'s is_test mark', () => {
  const doc = smallGraph();
  for (const n of doc.nodes) delete n.is_test;
  doc.nodes.push({ id: 'pkg/__tests__/web.ts#checkRoutes', label: 'checkRoutes', kind: 'function', file_type: 'code', source_file: 'pkg/__tests__/web.ts', source_location: 'L1' });
  doc.nodes.push({ id: 'spec/helper.ts#specHelper', label: 'specHelper', kind: 'function', file_type: 'code', source_file: 'spec/helper.ts', source_location: 'L1' });
  const link = (source: string, target: string) => doc.links.push({ source, target, relation: 'calls', confidence: 'EXTRACTED', confidence_score: 1, source_file: '', source_location: 'L1' });
  link('pkg/__tests__/web.ts#checkRoutes', 'src/web/routes.ts#registerRoutes');
  link('spec/helper.ts#specHelper', 'src/web/routes.ts#registerRoutes');
  const e = new QueryEngine(doc as GraphDocument, traversal);
  const tests = testsOfImpact(e, changeImpact(e, [{ path: 'src/web/routes.ts' }]));
  // test/auth.test.ts does not reach routes; __tests__ is a test tree; spec/ alone is not (spec).
  assert.deepEqual(tests.map((t) => e.ix.label(t.node)), ['checkRoutes']);
});

test('public API at risk: changed symbols used from other files, with files and folders counted', () => {
  const impact = changeImpact(engine, [{ path: 'src/auth/service.ts' }]);
  const api = publicApiBreaks(engine, impact.changed);
  assert.deepEqual(api.map((a) => [a.label, a.external_dependents, a.files, a.modules]), [['AuthService.login', 3, 3, 3]]);
  // logout is called only from its own file: not public API at risk.
  assert.ok(!api.some((a) => a.label === 'AuthService.logout'));
  assert.equal(api[0]!.sample.length, 3);
});

test('the forecast: summary, structured lists, risk with drivers, checklist', () => {
  const f = forecastChange(engine, [{ path: 'src/auth/service.ts', status: 'modified' }, { path: 'src/new.ts', status: 'untracked', code: true }]);
  assert.equal(f.blast_radius_total, 5);
  assert.equal(f.blast_radius.length, 5);
  assert.deepEqual(f.changed_files.map((c) => [c.file, c.nodes, c.in_graph]), [['src/auth/service.ts', 4, true], ['src/new.ts', 0, false]]);
  assert.deepEqual(f.at_risk_tests.map((t) => [t.label, t.file, t.depth, t.via_relation]), [['testLogin', 'test/auth.test.ts', 1, 'calls']]);
  assert.match(f.summary, /^2 changed files \(1 in the graph\), 4 changed nodes, 5 dependents within 3 hops, 1 public API at risk, 1 test at risk; risk (low|medium|high)$/);
  assert.ok(f.risk.drivers.some((d) => /used from other files/.test(d)), f.risk.drivers.join('; '));
  assert.ok(f.risk.drivers.some((d) => /not in the graph/.test(d)));
  assert.ok(f.verify_checklist.some((c) => c.startsWith('Run the 1 test file at risk: test/auth.test.ts')), f.verify_checklist.join('\n'));
  assert.ok(f.verify_checklist.some((c) => /find_callers AuthService\.login/.test(c)));
  assert.ok(f.verify_checklist.some((c) => /src\/new\.ts/.test(c) && /synaptic update/.test(c)));
});

test('risk rises with reach: a leaf change is low, a widely used one with no test is higher', () => {
  const leaf = forecastChange(engine, [{ path: 'src/island.ts' }]);
  assert.equal(leaf.risk.level, 'low');
  assert.equal(leaf.risk.score, 0);
  assert.deepEqual(leaf.risk.drivers, []);
  // A hub many files call, with no test: dependents, API use and "no test" all count.
  const doc = smallGraph();
  doc.nodes.push({ id: 'src/core/hub.ts#hub', label: 'hub', kind: 'function', file_type: 'code', source_file: 'src/core/hub.ts', source_location: 'L1', community: 4 });
  for (let i = 0; i < 60; i++) {
    doc.nodes.push({ id: `src/m${i}/u.ts#user${i}`, label: `user${i}`, kind: 'function', file_type: 'code', source_file: `src/m${i}/u.ts`, source_location: 'L1', community: 5 + (i % 12) });
    doc.links.push({ source: `src/m${i}/u.ts#user${i}`, target: 'src/core/hub.ts#hub', relation: 'calls', confidence: 'EXTRACTED', confidence_score: 1, source_file: `src/m${i}/u.ts`, source_location: 'L1' });
  }
  const e = new QueryEngine(doc, traversal);
  const hub = forecastChange(e, [{ path: 'src/core/hub.ts', status: 'modified' }]);
  assert.equal(hub.risk.level, 'high', hub.risk.drivers.join('; '));
  assert.ok(hub.risk.drivers[0]!.startsWith('1 changed symbol(s) used from other files (60 direct dependents)') || hub.risk.drivers[0]!.startsWith('60 dependents'), hub.risk.drivers.join('; '));
  assert.ok(hub.risk.drivers.some((d) => d.startsWith('no test in the graph reaches the change')));
  assert.ok(hub.risk.drivers.some((d) => d.startsWith('dependents in 12 other communities')));
});

test('a deleted file still used by other code raises the risk and the checklist says so', () => {
  const f = forecastChange(engine, [{ path: 'src/auth/token.ts', status: 'deleted' }]);
  assert.ok(f.risk.drivers.some((d) => d.startsWith('1 deleted file(s) still used by other code')), f.risk.drivers.join('; '));
  assert.ok(f.verify_checklist.some((c) => c.startsWith('src/auth/token.ts is deleted but 1 dependent in other files still use it')), f.verify_checklist.join('\n'));
});

test('labels in the forecast are sanitized', () => {
  const f = forecastChange(engine, [{ path: 'src/util/log.ts' }]);
  const text = JSON.stringify(f);
  assert.ok(!text.includes('<system>'), text);
  assert.ok(!text.includes('\u202e'));
});
