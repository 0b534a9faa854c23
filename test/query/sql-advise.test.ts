/**
 * advise_sql's rules (#21 item 4) on candidate queries against a small schema: each finding once,
 * and its clean twin without it. The schema goes through the real extraction and linking, the
 * candidate through the real parser (extract/sql/candidate.ts).
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';
import { parseCandidate, SqlParseError } from '../../src/extract/sql/candidate.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { auditGraphOf } from '../../src/query/sql-audit.ts';
import { adviseSql, columnIndexOf } from '../../src/query/sql-advise.ts';
import { sqlSchemaOf, type SqlSchema } from '../../src/query/sql-rules.ts';

const SCHEMA = `
CREATE TABLE accounts (id serial PRIMARY KEY, email text NOT NULL UNIQUE, name text);
CREATE INDEX accounts_name_lower ON accounts (lower(name));
CREATE TABLE orders (id serial PRIMARY KEY, account_id int NOT NULL REFERENCES accounts (id), total numeric, note text);
CREATE INDEX orders_account_idx ON orders (account_id);
CREATE MATERIALIZED VIEW order_totals AS SELECT account_id, sum(total) AS total FROM orders GROUP BY account_id;
CREATE TABLE shared_rates (code text, rate numeric, CONSTRAINT shared_rates_pk PRIMARY KEY (code));
ALTER TABLE accounts ENABLE ROW LEVEL SECURITY;
CREATE POLICY accounts_all ON accounts FOR ALL USING (true);
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
CREATE POLICY orders_all ON orders FOR ALL USING (true);
`;

let schema: SqlSchema;
let columns: ReturnType<typeof columnIndexOf>;

before(async () => {
  const facts = [await extractFileFacts({ path: 'db/schema.sql', source: SCHEMA, language: 'sql' })];
  const g = linkGraph(facts, buildProjectContext({}));
  const doc = { directed: true, multigraph: true, graph: {}, nodes: g.nodes, links: g.links, hyperedges: [], built_at_commit: null } satisfies GraphDocument;
  const graph = auditGraphOf(doc);
  schema = sqlSchemaOf(graph);
  columns = columnIndexOf(graph.nodes);
});

async function advise(sql: string, dialect?: 'postgres' | 'mysql' | 'sqlite'): Promise<string[]> {
  return adviseSql(await parseCandidate(sql, dialect), schema, columns).findings.map((f) => `${f.severity} ${f.rule_id}: ${f.title}`);
}

test('a table that does not exist, with near names; the right name is clean', async () => {
  assert.deepEqual(await advise('SELECT id FROM acounts WHERE id = $1'), ['high unknown_table: No table or view named acounts in the graph']);
  const r = adviseSql(await parseCandidate('SELECT id FROM acounts'), schema, columns);
  assert.match(r.findings[0]!.remediation, /Did you mean accounts\?/);
  assert.deepEqual(await advise('SELECT id FROM accounts WHERE id = $1'), []);
  assert.deepEqual(await advise('SELECT relname FROM pg_class'), [], 'catalog tables are not unknown');
  assert.deepEqual(await advise('SELECT total FROM order_totals WHERE account_id = $1'), [], 'a materialized view is a known relation');
});

test('a table without row-level security while the project uses it; a secured table is clean', async () => {
  assert.deepEqual(await advise('SELECT rate FROM shared_rates WHERE code = $1'), ['high rls_missing: shared_rates is queried from code without row-level security']);
  const r = adviseSql(await parseCandidate('SELECT rate FROM shared_rates WHERE code = $1'), schema, columns);
  assert.match(r.summary, /tables: shared_rates \(no RLS\)/);
  assert.match(adviseSql(await parseCandidate('SELECT id FROM orders WHERE id = $1'), schema, columns).summary, /orders \(RLS, 1 policy\(ies\)\)/);
});

test('filters on a table no index serves; one indexed filter (primary key, unique, index) is enough', async () => {
  assert.deepEqual(await advise('SELECT id FROM orders WHERE total > $1'), ['medium missing_filter_index: No index on orders serves the filter on total']);
  assert.deepEqual(await advise('SELECT o.id FROM orders o JOIN accounts a ON a.name = o.note WHERE o.total > 1'), [
    'medium missing_filter_index: No index on accounts serves the filter on name',
    'medium missing_filter_index: No index on orders serves the filter on note, total',
  ]);
  assert.deepEqual(await advise('SELECT o.id FROM orders o JOIN accounts a ON a.id = o.account_id WHERE a.email = $1 AND o.id = $2'), []);
  // An extra AND'ed column next to an indexed one: the index finds the rows, the rest filters them.
  assert.deepEqual(await advise('SELECT id FROM orders WHERE account_id = $1 AND total > 5 AND note = $2'), []);
  // Unqualified in a join: the one table that has the column.
  assert.deepEqual(await advise('SELECT o.id FROM orders o JOIN accounts a ON a.id = o.note WHERE total > 3'), ['medium missing_filter_index: No index on orders serves the filter on note, total']);
});

test('SELECT * and its twin', async () => {
  assert.deepEqual(await advise('SELECT * FROM accounts WHERE id = $1'), ['info select_star: SELECT * in the query']);
  assert.deepEqual(await advise('SELECT a.* FROM accounts a WHERE a.id = $1'), ['info select_star: SELECT * in the query']);
  assert.deepEqual(await advise('SELECT count(*) FROM accounts WHERE id = $1'), []);
});

test('a function on an indexed column is non-sargable (medium); on the parameter side, or with an expression index, it is clean', async () => {
  assert.deepEqual(await advise('SELECT id FROM accounts WHERE lower(email) = $1'), ['medium non_sargable: Predicate on lower(email) cannot use the index on accounts.email']);
  assert.deepEqual(await advise('SELECT id FROM accounts WHERE email = lower($1)'), []);
  assert.deepEqual(await advise('SELECT id FROM accounts WHERE lower(name) = $1'), [], 'accounts_name_lower serves it');
  assert.deepEqual(await advise('SELECT id FROM orders WHERE account_id + 1 = $1'), ['medium non_sargable: Predicate on account_id + 1 cannot use the index on orders.account_id']);
  assert.deepEqual(await advise('SELECT id FROM orders WHERE account_id::text = $1'), ['medium non_sargable: Predicate on account_id::text cannot use the index on orders.account_id']);
  assert.deepEqual(await advise('SELECT id FROM orders WHERE account_id = $1 - 1'), []);
  // No index on the column to lose (listmonk: password = crypt($2, password) beside a username filter).
  assert.deepEqual(await advise('SELECT id FROM orders WHERE id = $1 AND note = crypt($2, note) AND lower(note) = $3'), []);
});

test("LIKE '%...' cannot use an index; an anchored pattern is clean", async () => {
  assert.deepEqual(await advise("SELECT id FROM accounts WHERE email LIKE '%@example.com'"), ["medium leading_wildcard: LIKE '%@example.com' on accounts.email starts with %"]);
  assert.deepEqual(await advise("SELECT id FROM accounts WHERE email ILIKE '%' || $1 || '%'"), ["medium leading_wildcard: LIKE '%' on accounts.email starts with %"]);
  assert.deepEqual(await advise("SELECT id FROM accounts WHERE email LIKE 'admin%'"), []);
});

test('UPDATE and DELETE without WHERE; with WHERE they are clean', async () => {
  assert.deepEqual(await advise('DELETE FROM orders'), ['high missing_where: DELETE on orders without WHERE']);
  assert.deepEqual(await advise('UPDATE accounts SET name = $1'), ['high missing_where: UPDATE on accounts without WHERE']);
  assert.deepEqual(await advise('DELETE FROM orders WHERE id = $1'), []);
  assert.deepEqual(await advise('UPDATE accounts SET name = $1 WHERE id = $2'), []);
});

test('several statements: each checked, located by line', async () => {
  const r = adviseSql(await parseCandidate('SELECT id FROM accounts WHERE id = $1;\n\nDELETE FROM orders;'), schema, columns);
  assert.deepEqual(r.findings.map((f) => `${f.rule_id} ${f.location}`), ['missing_where query:L3']);
  assert.match(r.summary, /^1 finding\(s\) \(1 high\) for 2 statement\(s\)/);
});

test('client placeholders parse; bad SQL and other dialects get the parser message and position', async () => {
  assert.deepEqual(await advise('SELECT id FROM orders WHERE account_id = ? AND id = ?', 'mysql'), []);
  await assert.rejects(parseCandidate('SELECT id\nFROM accounts WHER id = 1'), (e: unknown) => {
    assert.ok(e instanceof SqlParseError);
    assert.equal(e.line, 2);
    assert.equal(e.column, 20);
    assert.match(e.message, /^Cannot parse the query as PostgreSQL: syntax error at or near "id" at line 2, column 20:\n {2}FROM accounts WHER id = 1\n {21}\^/);
    return true;
  });
  await assert.rejects(parseCandidate('SELECT TOP 1 id FROM accounts', 'mssql'), /Cannot parse the query as mssql \(read as PostgreSQL\)[\s\S]*no SQL Server parser/);
  await assert.rejects(parseCandidate('SELECT `id` FROM\naccounts WHERE', 'mysql'), (e: unknown) => {
    assert.ok(e instanceof SqlParseError);
    assert.equal(e.line, 2);
    assert.match(e.message, /^Cannot parse the query as MySQL: syntax error at end of input at line 2, column 15:\n {2}accounts WHERE\n/);
    return true;
  });
  await assert.rejects(parseCandidate('  -- nothing\n'), /holds no SQL statement/);
  await assert.rejects(parseCandidate(''), /The query is empty/);
});

test('MySQL and SQLite candidates parse with their own parser, and get the same findings as PostgreSQL', async () => {
  // Backticks: MySQL by the clue, and with dialect mysql.
  for (const d of [undefined, 'mysql'] as const) {
    assert.deepEqual((await advise("SELECT * FROM `orders` o JOIN `accounts` a ON a.id = o.account_id WHERE LOWER(a.email) = ? AND o.note LIKE '%x'", d)).sort(), [
      'info select_star: SELECT * in the query',
      "medium leading_wildcard: LIKE '%x' on orders.note starts with %",
      'medium non_sargable: Predicate on lower(email) cannot use the index on accounts.email',
    ]);
  }
  assert.deepEqual(await advise('SELECT id FROM `acounts` WHERE id = ?', 'mysql'), ['high unknown_table: No table or view named acounts in the graph']);
  assert.deepEqual(await advise('UPDATE `orders` JOIN `accounts` a ON a.id = orders.account_id SET total = 0', 'mysql'), ['high missing_where: UPDATE on orders without WHERE']);
  assert.deepEqual(await advise('DELETE FROM orders WHERE id = ?1', 'sqlite'), []);
  assert.deepEqual(await advise('SELECT id FROM "orders" WHERE "note" = :note', 'sqlite'), ['medium missing_filter_index: No index on orders serves the filter on note']);
});

test('with no SQL schema in the graph only the text is checked (no unknown_table)', async () => {
  const empty = sqlSchemaOf({ nodes: [], edges: [] });
  const r = adviseSql(await parseCandidate('DELETE FROM anything'), empty, new Map());
  assert.deepEqual(r.findings.map((f) => f.rule_id), ['missing_where']);
  assert.match(r.summary, /no SQL tables in the graph, so only the query text was checked/);
});
