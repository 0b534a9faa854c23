/**
 * readiness_audit (#21 item 5) end to end: test/fixtures/readiness-app extracted by the built CLI,
 * audited through the SDK client over a real stdio server, with a source root and without one.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { CLI_ARGS, ROOT, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

let dir: string;
let graph: string;
let env: Record<string, string>;
let sdk: Awaited<ReturnType<typeof connectSdk>>;
let bare: Awaited<ReturnType<typeof connectSdk>>;
let client: Client;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-readiness-mcp-'));
  const repo = join(dir, 'app');
  cpSync(join(ROOT, 'test/fixtures/readiness-app'), repo, { recursive: true });
  execFileSync(process.execPath, [...CLI_ARGS, 'extract', repo], { stdio: ['ignore', 'ignore', 'pipe'] });
  graph = join(repo, 'synaptic-out/graph.json');
  env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') } as Record<string, string>;
  sdk = await connectSdk(graph, env, { serve: ['--no-freshen'] });
  client = sdk.client;
  // The same graph with a source root that does not exist: no source to read.
  bare = await connectSdk(graph, env, { serve: ['--no-freshen', '--source-root', join(dir, 'missing')] });
});

after(async () => {
  await sdk?.close();
  await bare?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Finding { rule_id: string; severity: string; location: string; subsystem: string; node_ids: string[]; evidence: string[]; impact: { dependents: number; entry_points: number; is_entry: boolean } | null }
interface Report { version: number; summary: string; counts_by_severity: Record<string, number>; groups: Array<{ subsystem: string; total: number }>; findings: Finding[]; skipped: Array<{ check: string; reason: string }> }

test('tools/list: readiness_audit is read-only and closed-world, with its parameters', async () => {
  const tool = (await client.listTools()).tools.find((t) => t.name === 'readiness_audit')!;
  assert.ok(tool, 'readiness_audit is listed');
  assert.deepEqual(tool.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  assert.deepEqual(Object.keys((tool.inputSchema as { properties: object }).properties).sort(), ['limit', 'profile', 'repo', 'severity', 'verbose']);
});

test('every planted problem is found once over stdio, ranked, with impact; the structuredContent is the ReadinessReport', async () => {
  const r = await client.callTool({ name: 'readiness_audit', arguments: { verbose: true } });
  const report = r.structuredContent as unknown as Report;
  assert.equal(report.version, 1);
  assert.deepEqual(report.findings.map((f) => `${f.severity} ${f.rule_id} ${f.location}`), [
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
  assert.deepEqual(report.counts_by_severity, { critical: 2, high: 2, medium: 6, low: 4, info: 1 });
  assert.deepEqual(report.skipped, []);
  assert.equal(report.groups.reduce((s, g) => s + g.total, 0), 15);
  const first = report.findings[0]!;
  assert.deepEqual(first.node_ids, ['src/accounts.ts#createAccount']);
  assert.ok(first.impact!.entry_points >= 1);
  const out = text(r);
  assert.match(out, /^15 findings \(2 critical, 2 high, 6 medium, 4 low, 1 info\) in \d+ subsystems\.\nBy subsystem: src \(\d+\)/);
  assert.match(out, /\n\[critical\] throw_not_implemented @ src\/accounts\.ts:L10 \(0\.90\) createAccount throws "not implemented"\n/);
  assert.match(out, /\n {4}evidence: src\/accounts\.ts:L10: throw new Error\('Not implemented'\);\n {4}impact: \d+ dependents, \d+ entry points? \(via /);
  assert.match(out, /\n {4}fix: Implement it/);
});

test('severity and limit cut the list; terse without verbose; a bad severity or an unknown repo is an error', async () => {
  const high = await client.callTool({ name: 'readiness_audit', arguments: { severity: 'high' } });
  assert.deepEqual((high.structuredContent as unknown as Report).findings.map((f) => f.severity), ['critical', 'critical', 'high', 'high']);
  assert.match(text(high), /^15 findings .* 4 at high or above\./);
  const one = text(await client.callTool({ name: 'readiness_audit', arguments: { limit: 1 } }));
  const lines = one.split('\n');
  assert.equal(lines.length, 4, one);
  assert.match(lines[2]!, /^\[critical\] throw_not_implemented @ src\/accounts\.ts:L10 \(0\.90\) createAccount throws "not implemented" \[\d+ dependents, \d+ entry points? \(via [^)]+\)\]$/);
  assert.equal(lines[3], '+14 more (raise limit, or verbose for all)');
  assert.doesNotMatch(one, /fix:/);
  assert.equal((await client.callTool({ name: 'readiness_audit', arguments: { severity: 'urgent' } })).isError, true);
  const repo = await client.callTool({ name: 'readiness_audit', arguments: { repo: 'other' } });
  assert.equal(repo.isError, true);
  assert.match(text(repo), /not a federated store/);
});

test('profile python: only the Python rules and the project metadata', async () => {
  const r = await client.callTool({ name: 'readiness_audit', arguments: { profile: 'python', verbose: true } });
  const code = (r.structuredContent as unknown as Report).findings.filter((f) => f.location.endsWith('.py') || /\.py:L/.test(f.location));
  assert.deepEqual(code.map((f) => f.rule_id), ['raise_not_implemented', 'todo_marker', 'return_null_stub']);
});

test('without a source root: graph-only findings, and the skipped checks listed', async () => {
  const r = await bare.client.callTool({ name: 'readiness_audit', arguments: { verbose: true } });
  const report = r.structuredContent as unknown as Report;
  assert.deepEqual(report.findings.map((f) => f.rule_id), ['generated_in_graph', 'generated_committed']);
  assert.deepEqual(report.skipped.map((s) => s.check), ['sentinels', 'stubs', 'todo_markers', 'metadata']);
  const out = text(r);
  assert.match(out, /Skipped: sentinels, stubs, todo_markers, metadata \(no source root registered/);
  assert.match(out, /\nskipped metadata: no source root registered/);
});
