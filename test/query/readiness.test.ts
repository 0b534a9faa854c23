/**
 * readiness_audit's engine (#21 item 5) on test/fixtures/readiness-app, extracted in process: every
 * planted problem is found once with its severity and reach, no clean twin is, the metadata twin
 * (lockfile, engines, license, CI added) clears the metadata findings, and without a source root
 * only the graph-only findings come back with the skipped checks listed.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { readinessAudit } from '../../src/query/readiness/audit.ts';
import { findMarkers, findSentinels } from '../../src/query/readiness/line-rules.ts';
import { readinessSource } from '../../src/query/readiness/source.node.ts';
import { stubBody } from '../../src/query/readiness/stubs.ts';
import { realRoot } from '../../src/query/source.node.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/readiness-app/', import.meta.url));
let base: string;
let repo: string;
let engine: QueryEngine;

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'synaptic-readiness-'));
  repo = join(base, 'app');
  cpSync(FIXTURE, repo, { recursive: true, filter: (src) => !src.includes('synaptic-out') });
  await runExtract({ root: repo, outDir: join(repo, 'synaptic-out'), workers: 0 });
  const doc = JSON.parse(readFileSync(join(repo, 'synaptic-out/graph.json'), 'utf8')) as GraphDocument;
  engine = new QueryEngine(doc, coreTraversal(await Core.load()));
});

after(() => rmSync(base, { recursive: true, force: true }));

const rows = (r: ReturnType<typeof readinessAudit>) => r.findings.map((f) => `${f.severity} ${f.rule_id} ${f.location}`);

test('every planted problem is found once, ranked by severity and reach, and no clean twin', () => {
  const r = readinessAudit(engine, { source: readinessSource(realRoot(repo)) });
  assert.deepEqual(rows(r), [
    'critical throw_not_implemented src/accounts.ts:L10',
    'critical raise_not_implemented py/billing/payments.py:L15',
    'high panic_todo go/jobs/jobs.go:L7',
    'high todo_macro rust/src/lib.rs:L3',
    'medium empty_body src/accounts.ts:L20',
    'medium return_null_stub src/accounts.ts:L28',
    'medium todo_marker py/billing/payments.py:L19',
    'medium return_null_stub py/billing/payments.py:L23',
    'medium missing_lockfile package.json',
    'medium missing_license package.json',
    'low todo_marker src/accounts.ts:L39',
    'low missing_engines package.json',
    'low missing_ci project root',
    'low generated_in_graph generated/',
    'info generated_committed src/',
  ]);
  const by = (rule: string, loc = '') => r.findings.find((f) => f.rule_id === rule && f.location.startsWith(loc))!;
  // Impact is the reverse reach: main (an entry point) calls createAccount.
  const create = by('throw_not_implemented');
  assert.equal(create.category, 'sentinel');
  assert.deepEqual(create.node_ids, ['src/accounts.ts#createAccount']);
  assert.ok(create.impact!.entry_points >= 1 && create.impact!.dependents >= 1, JSON.stringify(create.impact));
  assert.match(create.evidence[0]!, /^src\/accounts\.ts:L10: throw new Error\('Not implemented'\);$/);
  assert.equal(create.subsystem, 'src');
  // An exported sentinel nothing calls is high (public API), not critical.
  assert.deepEqual(by('panic_todo').impact, { dependents: 0, entry_points: 0, is_entry: true });
  assert.equal(by('todo_macro').title, 'parse_config is a todo!() / unimplemented!() placeholder');
  assert.match(by('empty_body').title, /sendWelcomeEmail has an empty body/);
  assert.match(by('return_null_stub', 'py/').title, /lookup_customer only returns None/);
  assert.match(by('todo_marker', 'py/').title, /^1 FIXME marker in charge_card$/);
  assert.match(by('generated_in_graph').title, /generated\/ \(1 file, 2 nodes\)/);
  assert.deepEqual(by('generated_committed').evidence, ['src/schema.generated.ts (generated)']);
  assert.equal(by('missing_ci').subsystem, 'project');
  // The twins: none of their symbols is named by any finding.
  const named = r.findings.flatMap((f) => f.node_ids).join(' ');
  for (const twin of ['validateName', 'sendReceipt', 'findOrder', 'legacyImport', 'Store.load', 'PaymentGateway.charge', 'find_customer', 'parse_port', '#Run', 'emitClient']) {
    assert.ok(!named.includes(twin), `twin ${twin} is reported`);
  }
  assert.deepEqual(r.skipped, []);
  assert.deepEqual(r.counts_by_severity, { critical: 2, high: 2, medium: 6, low: 4, info: 1 });
  assert.equal(r.groups[0]!.subsystem, 'src');
  assert.match(r.summary, /^15 findings \(2 critical, 2 high, 6 medium, 4 low, 1 info\) in \d+ subsystems\.$/);
});

test('the metadata twin: a lockfile, engines, a license and CI clear the metadata findings', async () => {
  const twin = join(base, 'twin');
  cpSync(repo, twin, { recursive: true });
  const pkg = JSON.parse(readFileSync(join(twin, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(twin, 'package.json'), JSON.stringify({ ...pkg, engines: { node: '>=20' } }));
  writeFileSync(join(twin, 'package-lock.json'), '{}');
  writeFileSync(join(twin, 'LICENSE'), 'MIT\n');
  mkdirSync(join(twin, '.github/workflows'), { recursive: true });
  writeFileSync(join(twin, '.github/workflows/ci.yml'), 'on: push\n');
  const r = readinessAudit(engine, { source: readinessSource(realRoot(twin)) });
  assert.deepEqual(r.findings.filter((f) => f.category === 'metadata'), []);
  assert.equal(r.findings.length, 11);
});

test('without a source root: graph-only findings, and the source and metadata checks listed as skipped', () => {
  const r = readinessAudit(engine, {});
  assert.deepEqual(rows(r), ['low generated_in_graph generated/', 'info generated_committed src/']);
  assert.deepEqual(r.skipped.map((s) => s.check), ['sentinels', 'stubs', 'todo_markers', 'metadata']);
  assert.match(r.skipped[0]!.reason, /no source root/);
  assert.match(r.summary, /Skipped: sentinels, stubs, todo_markers, metadata \(no source root registered/);
});

test('profiles: a language profile scans only its files; generic runs the language-neutral rules only', () => {
  const source = readinessSource(realRoot(repo));
  const py = readinessAudit(engine, { profile: 'python', source });
  assert.deepEqual(rows(py).filter((x) => !/metadata|generated|missing_/.test(x)), [
    'critical raise_not_implemented py/billing/payments.py:L15',
    'medium todo_marker py/billing/payments.py:L19',
    'medium return_null_stub py/billing/payments.py:L23',
  ]);
  const generic = readinessAudit(engine, { profile: 'generic', source });
  assert.ok(!generic.findings.some((f) => f.category === 'stub'));
  assert.deepEqual(generic.findings.filter((f) => f.category === 'sentinel').map((f) => `${f.rule_id} ${f.location}`), [
    'sentinel_text src/accounts.ts:L10', 'sentinel_text go/jobs/jobs.go:L7',
  ]);
  assert.deepEqual(generic.skipped.map((s) => s.check), ['stubs']);
});

test('line rules: sentinels and markers in code, not in comments or strings', () => {
  const ts = [`throw new Error("Method not implemented.");`, `throw new Error('invalid name');`, `// throw new Error('not implemented')`, `const s = 'TODO list';`, `x(); // FIXME: leaks`, ` * XXX: doc comment`];
  assert.deepEqual(findSentinels(ts, 'typescript', false).map((h) => h.line), [1]);
  assert.deepEqual(findMarkers(ts, 'typescript').map((h) => `${h.marker}@${h.line}`), ['FIXME@5', 'XXX@6']);
  assert.deepEqual(findSentinels(['panic("not implemented: x")', 'panic("bad state")'], 'go', false).map((h) => h.line), [1]);
  assert.deepEqual(findSentinels(['  unimplemented!("x")', '// todo!()'], 'rust', false).map((h) => h.line), [1]);
  assert.deepEqual(findMarkers(['x = "#TODO"  # HACK: y'], 'python').map((h) => h.marker), ['HACK']);
});

test('stub bodies: empty and return-null bodies, not real ones', () => {
  assert.equal(stubBody('function f(a: A) {}', 'typescript')?.kind, 'empty');
  assert.equal(stubBody('f = (a) => null', 'typescript')?.kind, 'return_null');
  assert.equal(stubBody('function f(a) { return a ?? null; }', 'typescript'), undefined);
  assert.equal(stubBody('def f(x):\n    """Doc."""\n    pass', 'python')?.kind, 'empty');
  assert.equal(stubBody('def f(x):\n    return x or None', 'python'), undefined);
  assert.equal(stubBody('func (s *S) Get() (*T, error) {\n\treturn nil, nil\n}', 'go')?.kind, 'return_null');
  assert.equal(stubBody('func (s *S) Close() error {\n\treturn nil\n}', 'go'), undefined);
});
