/**
 * audit_sql (#21 item 3) end to end: the SQL fixture (migrations with RLS, grants and foreign keys;
 * TypeScript with pg queries) extracted by the built CLI, audited through the SDK client over a
 * real stdio server. Every planted problem is found once; its clean twin is not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { text } from './helpers.ts';
import { serveSqlFixture } from './sql-fixture-server.ts';

const server = serveSqlFixture();

interface Finding { rule_id: string; severity: string; location: string; title: string; detail: string; remediation: string; confidence: number }

test('every planted SQL problem is found once, and no clean twin', async () => {
  const r = await server.client.callTool({ name: 'audit_sql', arguments: { verbose: true } });
  const findings = (r.structuredContent as { findings: Finding[] }).findings;
  const got = findings.map((f) => `${f.rule_id} ${f.location}`).sort();
  assert.deepEqual(got, [
    'grant_public sql/migrations/002_security.sql:L11',
    'leading_wildcard sql/src/search.py:L3',
    'missing_filter_index sql/src/orders.ts:L34',
    'missing_fk_index sql/migrations/001_init.sql:L7',
    'missing_primary_key sql/migrations/001_init.sql:L26',
    'n_plus_one sql/src/orders.ts:L50',
    'non_sargable sql/src/orders.ts:L39',
    'rls_missing sql/migrations/001_init.sql:L13',
    'rls_no_policy sql/migrations/001_init.sql:L20',
    'rls_partial sql/migrations/001_init.sql:L7',
    'sql_injection sql/src/OrderRepository.java:L19',
    'sql_injection sql/src/order_store.go:L21',
    'sql_injection sql/src/orders.ts:L13',
  ]);
  // Go (fmt.Sprintf through a local) and Java (+ concatenation) planted once each; their bound twins are clean.
  const byFile = (f: string) => findings.find((x) => x.rule_id === 'sql_injection' && x.location.startsWith(f))!;
  assert.match(byFile('sql/src/order_store.go').title, /s\.db\.QueryContext \(OrderStore\.AccountByEmail\)/);
  assert.match(byFile('sql/src/order_store.go').detail, /splices in email /);
  assert.match(byFile('sql/src/OrderRepository.java').title, /jdbc\.update \(OrderRepository\.cancelAll\)/);
  assert.equal(byFile('sql/src/OrderRepository.java').severity, 'critical');
  const injection = findings.find((f) => f.location.startsWith('sql/src/orders.ts') && f.rule_id === 'sql_injection')!;
  assert.equal(injection.severity, 'critical');
  assert.match(injection.title, /pool\.query \(getOrderUnsafe\)/);
  assert.match(findings.find((f) => f.rule_id === 'rls_partial')!.title, /cover select but not insert, update, delete/);
  // RLS is on for orders, so the uncovered commands are denied (fail-closed): low, not high.
  assert.equal(findings.find((f) => f.rule_id === 'rls_partial')!.severity, 'low');
  // The per-query checks extraction recorded on the querying symbols (sql_checks); their twins (an
  // indexed filter, the bare indexed column, a trailing-% LIKE) are clean, and the filter on the
  // unindexed foreign key orders.account_id (OrderRepository.java) is missing_fk_index's alone.
  const rule = (id: string) => findings.find((f) => f.rule_id === id)!;
  assert.match(rule('missing_filter_index').title, /^No index on orders serves the filter on total \(bigOrders\)$/);
  assert.equal(rule('missing_filter_index').severity, 'medium');
  assert.match(rule('non_sargable').title, /^Predicate on lower\(email\) cannot use the index on accounts\.email \(accountByEmailCi\)$/);
  assert.match(rule('leading_wildcard').title, /^LIKE '%' on accounts\.email starts with % \(search_accounts\)$/);
  assert.match(rule('n_plus_one').title, /^Query on invoices in a loop over the rows of a query on accounts \(invoicesPerAccount\)$/);
  assert.equal(rule('n_plus_one').severity, 'medium');
  const out = text(r);
  assert.match(out, /^13 finding\(s\) \(3 critical, 2 high, 6 medium, 2 low\) over 6 table\(s\), 2 policy\(ies\), 3 table\(s\) with RLS\./);
  assert.match(out, /\[critical\] sql_injection @ sql\/src\/orders\.ts:L13 \(0\.80\)/);
  assert.match(out, /\n {4}fix: Pass the value as a bind parameter/);
});

test('severity and limit cut the list; the text is terse without verbose', async () => {
  const high = await server.client.callTool({ name: 'audit_sql', arguments: { severity: 'high' } });
  assert.deepEqual((high.structuredContent as { findings: Finding[] }).findings.map((f) => f.severity), ['critical', 'critical', 'critical', 'high', 'high']);
  const one = text(await server.client.callTool({ name: 'audit_sql', arguments: { limit: 1 } }));
  const lines = one.split('\n');
  assert.equal(lines.length, 3, one);
  assert.match(lines[1]!, /^\[critical\] sql_injection/);
  assert.equal(lines[2], '+12 more (raise limit, or verbose for all)');
  assert.doesNotMatch(one, /fix:/);
  const bad = await server.client.callTool({ name: 'audit_sql', arguments: { severity: 'urgent' } });
  assert.equal(bad.isError, true);
});
