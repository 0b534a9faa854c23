/**
 * Issue #17.3: `extract --precise` merges the TypeScript checker's call edges into the graph
 * (EXTRACTED), keeps the mode across updates, and an update still equals a full extract byte for
 * byte. The fixture (test/fixtures/precise) has calls the default mode cannot type: a generic's
 * return and a callback parameter typed by the array it maps over.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { mergePreciseSites } from '../../src/extract/precise/merge.ts';
import type { GraphDocument, GraphLink } from '../../src/graph/model.ts';
import { assertSameOutputs } from './pipeline-fixture.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/precise/', import.meta.url));

function graphOf(out: string): GraphDocument {
  return JSON.parse(readFileSync(join(out, 'graph.json'), 'utf8')) as GraphDocument;
}

const calls = (doc: GraphDocument): Map<string, GraphLink> =>
  new Map(doc.links.filter((l) => l.relation === 'calls').map((l) => [`${l.source} -> ${l.target}`, l]));

test('precise mode: checker edges where the default mode cannot type the receiver, kept by updates, equal to a full extract', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'synaptic-precise-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'repo');
  cpSync(FIXTURE, root, { recursive: true });

  await runExtract({ root, outDir: join(base, 'default'), workers: 0 });
  const summary = await runExtract({ root, outDir: join(base, 'precise'), workers: 0, precise: true });
  assert.ok(summary.precise && summary.precise.files === 7 && summary.precise.checked === 7, `the checker read every TS file: ${JSON.stringify(summary.precise)}`);

  const plain = calls(graphOf(join(base, 'default')));
  const checked = calls(graphOf(join(base, 'precise')));
  for (const edge of ['src/report.ts#report -> src/shapes/circle.ts#Circle.area', 'src/report.ts#total -> src/shapes/circle.ts#Circle.area']) {
    assert.equal(plain.has(edge), false, `the default mode cannot find ${edge}`);
    assert.equal(checked.get(edge)?.confidence, 'EXTRACTED', `precise mode has ${edge}`);
  }
  assert.equal(checked.get('src/report.ts#report -> src/shapes/square.ts#Square.area')?.confidence, 'EXTRACTED', 'a default INFERRED edge the checker confirms is EXTRACTED');
  assert.ok(checked.has('src/shadow.ts#shadowed -> src/shadow.ts#shadowed.area'), 'the local arrow, not the module function of the same name');
  assert.ok(!checked.has('src/shadow.ts#shadowed -> src/shadow.ts#area'));
  assert.ok(![...checked.keys()].some((k) => k.startsWith('src/report.ts#loose ->')), 'an any receiver resolves to nothing');
  assert.equal(graphOf(join(base, 'precise')).graph.precise, true);
  assert.equal((JSON.parse(readFileSync(join(base, 'precise', '.manifest.json'), 'utf8')) as { precise?: boolean }).precise, true);

  // An edit, then an update without the flag: still precise, and what a full precise extract gives.
  const report = join(root, 'src/report.ts');
  writeFileSync(report, readFileSync(report, 'utf8') + '\nexport function more(): number {\n  return total() + 1;\n}\n');
  const upd = await runExtract({ root, outDir: join(base, 'precise'), workers: 0, incremental: true });
  assert.equal(upd.mode, 'update');
  assert.ok(upd.precise, 'the update kept precise mode');
  assert.equal(upd.precise.checked, 2, 'only the changed file and the test that imports it are checked again');
  await runExtract({ root, outDir: join(base, 'fresh'), workers: 0, precise: true });
  assertSameOutputs(join(base, 'precise'), join(base, 'fresh'), 'precise update vs precise extract');

  // --no-precise: back to what the default mode gives.
  const off = await runExtract({ root, outDir: join(base, 'precise'), workers: 0, incremental: true, precise: false });
  assert.equal(off.precise, undefined);
  await runExtract({ root, outDir: join(base, 'default2'), workers: 0 });
  assertSameOutputs(join(base, 'precise'), join(base, 'default2'), 'default update after precise vs default extract');
});

test('merge: confirmed links become EXTRACTED, unconfirmed ones at a resolved site are dropped, unresolved sites keep theirs', () => {
  const link = (source: string, target: string, line: number, confidence: GraphLink['confidence'] = 'INFERRED'): GraphLink =>
    ({ source, target, relation: 'calls', confidence, confidence_score: confidence === 'AMBIGUOUS' ? 0.1 : 0.8, source_file: source.split('#')[0]!, source_location: `L${line}` });
  const doc: GraphDocument = {
    directed: true, multigraph: true, graph: {}, hyperedges: [], built_at_commit: null,
    nodes: [{ id: 't.test.ts', label: 't.test.ts', kind: 'file', file_type: 'code', source_file: 't.test.ts', source_location: 'L1', is_test: true }],
    links: [
      link('a.ts#f', 'b.ts#g', 3), // confirmed
      link('a.ts#f', 'c.ts#g', 3, 'AMBIGUOUS'), // the checker chose b.ts#g at L3
      link('a.ts#f', 'd.ts#h', 9), // L9: the checker could not resolve it (an any receiver)
      link('x.py#f', 'y.py#g', 1), // another language: untouched
    ],
  };
  const counts = mergePreciseSites(doc, {
    sites: [
      { caller: 'a.ts#f', callee: 'b.ts#g', relation: 'calls', file: 'a.ts', line: 3 },
      { caller: 't.test.ts', callee: 'b.ts#g', relation: 'calls', file: 't.test.ts', line: 2 },
    ],
    resolved: new Set(['a.ts#f\u00003', 't.test.ts\u00002']),
  });
  assert.deepEqual(counts, { added: 1, upgraded: 1, dropped: 1 });
  const got = doc.links.map((l) => `${l.source}>${l.target}:${l.relation}:${l.confidence}`);
  assert.deepEqual(got, [
    'a.ts#f>b.ts#g:calls:EXTRACTED',
    'a.ts#f>d.ts#h:calls:INFERRED',
    't.test.ts>b.ts#g:calls:EXTRACTED',
    't.test.ts>b.ts#g:tests:EXTRACTED',
    'x.py#f>y.py#g:calls:INFERRED',
  ]);
});

test('precise mode names callees as the checker oracle does: new of a class without its own constructor, a call through a value alias', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'synaptic-precise-callees-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'repo');
  cpSync(fileURLToPath(new URL('../fixtures/precise-callees/', import.meta.url)), root, { recursive: true });
  await runExtract({ root, outDir: join(base, 'out'), workers: 0, precise: true });
  const links = graphOf(join(base, 'out')).links.filter((l) => l.source === 'src/use.ts#make' && (l.relation === 'calls' || l.relation === 'instantiates'));
  const edges = new Set(links.map((l) => `${l.relation} ${l.target} ${l.confidence}`));
  assert.ok(edges.has('instantiates src/shapes.ts#Derived EXTRACTED'), `new s.Derived() instantiates Derived: ${[...edges].join(', ')}`);
  assert.ok(![...edges].some((e) => e.includes('Base.constructor')), `not the inherited constructor: ${[...edges].join(', ')}`);
  assert.ok(edges.has('calls src/shapes.ts#Shape.create EXTRACTED'), `s.shape(2) runs Shape.create: ${[...edges].join(', ')}`);
  assert.ok(edges.has('calls src/shapes.ts#Derived.twice EXTRACTED'));
});

test('update --precise asks the checker about a property call again when a member of that name is declared or removed elsewhere', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'synaptic-precise-names-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'repo');
  cpSync(FIXTURE, root, { recursive: true });
  // No graph file declares `at`: the call is a library's, not asked about.
  writeFileSync(join(root, 'src/lists.ts'), 'export function firstOf(xs: number[]): number | undefined {\n  return xs.at(0);\n}\n');
  await runExtract({ root, outDir: join(base, 'precise'), workers: 0, precise: true });
  // A file that lists.ts does not import now declares `at`: a full extract asks about `xs.at(0)`
  // (Array.at, a library's: the default mode's guess Ring.at is dropped), so the update must too.
  const ring = join(root, 'src/ring.ts');
  writeFileSync(ring, 'export class Ring {\n  at(i: number): number {\n    return i;\n  }\n}\n');
  const upd = await runExtract({ root, outDir: join(base, 'precise'), workers: 0, incremental: true });
  assert.ok(upd.precise && upd.precise.checked === 2, `the new file and the file calling .at() are checked: ${JSON.stringify(upd.precise)}`);
  await runExtract({ root, outDir: join(base, 'fresh'), workers: 0, precise: true });
  assertSameOutputs(join(base, 'precise'), join(base, 'fresh'), 'update adding a member name vs precise extract');
  // And back: the name is declared nowhere again.
  rmSync(ring);
  await runExtract({ root, outDir: join(base, 'precise'), workers: 0, incremental: true });
  await runExtract({ root, outDir: join(base, 'fresh2'), workers: 0, precise: true });
  assertSameOutputs(join(base, 'precise'), join(base, 'fresh2'), 'update removing a member name vs precise extract');
});
