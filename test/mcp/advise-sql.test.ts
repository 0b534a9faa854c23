/**
 * advise_sql (#21 item 4) end to end: the SQL fixture extracted by the built CLI, candidate queries
 * critiqued through the SDK client over a real stdio server, and the same through
 * `synaptic advise-sql`. Each finding once on its planted query; none on the clean twin.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI_ARGS, text } from './helpers.ts';
import { serveSqlFixture } from './sql-fixture-server.ts';

const server = serveSqlFixture();

interface Finding { rule_id: string; severity: string; location: string; title: string; remediation: string; confidence: number }

async function advise(query: string, dialect?: string): Promise<{ findings: string[]; out: string; isError: boolean }> {
  const r = await server.client.callTool({ name: 'advise_sql', arguments: { query, ...(dialect ? { dialect } : {}) } });
  const findings = ((r.structuredContent as { findings?: Finding[] } | undefined)?.findings ?? []).map((f) => `${f.rule_id} ${f.location}`);
  return { findings, out: text(r), isError: r.isError === true };
}

test('tools/list: advise_sql is read-only, with query required and the spec dialects', async () => {
  const tool = (await server.client.listTools()).tools.find((t) => t.name === 'advise_sql');
  assert.ok(tool, 'advise_sql is listed');
  assert.equal(tool.annotations?.readOnlyHint, true);
  assert.equal(tool.annotations?.openWorldHint, false);
  const schema = tool.inputSchema as { required?: string[]; properties: Record<string, { enum?: string[] }> };
  assert.deepEqual(schema.required, ['query']);
  assert.deepEqual(schema.properties.dialect?.enum, ['postgres', 'mysql', 'mariadb', 'sqlite', 'mssql']);
  assert.ok(tool.outputSchema, 'declares an outputSchema');
});

test('each planted problem is found on its query, against the fixture schema; the clean twin has none', async () => {
  const planted = await advise("SELECT * FROM orders o JOIN accounts a ON a.id = o.account_id WHERE abs(a.id) = $1 AND a.email LIKE '%@x.org'");
  assert.deepEqual(planted.findings.sort(), [
    'leading_wildcard query:L1',
    'missing_filter_index query:L1',
    'non_sargable query:L1',
    'rls_partial sql/migrations/001_init.sql:L7',
    'select_star query:L1',
  ]);
  assert.match(planted.out, /CREATE INDEX ON accounts \(\(abs\(id\)\)\)/);
  assert.match(planted.out, /\[medium\] missing_filter_index @ query:L1 \(0\.60\) No index on orders serves the filter on account_id/);
  assert.match(planted.out, /tables: accounts \(RLS, 1 policy\(ies\)\), orders \(RLS, 1 policy\(ies\)\)/);
  const unknown = await advise('SELECT id FROM acounts WHERE id = $1');
  assert.deepEqual(unknown.findings, ['unknown_table query:L1']);
  assert.match(unknown.out, /\[high\] unknown_table @ query:L1 \(0\.70\) No table or view named acounts in the graph\n {4}fix: Did you mean accounts\?/);
  const shared = await advise('SELECT i.id FROM accounts a JOIN invoices i ON i.account_id = a.id WHERE a.id = $1');
  assert.deepEqual(shared.findings, ['rls_missing sql/migrations/001_init.sql:L13'], 'invoices has no RLS while the project uses it (the same rule as audit_sql)');
  const twin = await advise('SELECT a.id, a.email FROM accounts a WHERE a.id = abs($1) AND a.email IS NOT NULL AND a.id > 0');
  assert.deepEqual(twin.findings, []);
  assert.match(twin.out, /^0 finding\(s\) for 1 statement\(s\); tables: accounts \(RLS, 1 policy\(ies\)\)\.\nNo problem found\.$/);
});

test('dialect mysql (and the backtick clue alone): the MySQL parser, the same findings against the graph', async () => {
  const q = "SELECT * FROM `orders` o JOIN `accounts` a ON a.id = o.account_id WHERE abs(a.id) = ? AND a.email LIKE '%@x.org'";
  for (const d of ['mysql', 'mariadb', undefined]) {
    assert.deepEqual((await advise(q, d)).findings.sort(), [
      'leading_wildcard query:L1',
      'missing_filter_index query:L1',
      'non_sargable query:L1',
      'rls_partial sql/migrations/001_init.sql:L7',
      'select_star query:L1',
    ], `${String(d)}: ${(await advise(q, d)).out}`);
  }
  assert.deepEqual((await advise('SELECT `id` FROM `acounts` WHERE `id` = ?', 'mysql')).findings, ['unknown_table query:L1']);
  assert.deepEqual((await advise('SELECT a.`id`, a.`email` FROM `accounts` a WHERE a.`id` = ?', 'mysql')).findings, [], 'the clean twin');
});

test('UPDATE / DELETE without WHERE, and their twins', async () => {
  assert.deepEqual((await advise('DELETE FROM accounts')).findings, ['missing_where query:L1']);
  assert.deepEqual((await advise('UPDATE accounts SET email = $1')).findings, ['missing_where query:L1']);
  assert.deepEqual((await advise('DELETE FROM accounts WHERE id = $1')).findings, []);
  assert.deepEqual((await advise('UPDATE accounts SET email = $1 WHERE id = $2')).findings, []);
});

test('unparsable SQL and a dialect the parser cannot read are clear errors', async () => {
  const bad = await advise('SELECT id FROM accounts WHER id = 1');
  assert.equal(bad.isError, true);
  assert.match(bad.out, /^Cannot parse the query as PostgreSQL: syntax error at or near "id" at line 1, column 30:/);
  const mssql = await advise('SELECT TOP 1 id FROM accounts', 'mssql');
  assert.equal(mssql.isError, true);
  assert.match(mssql.out, /no SQL Server parser/);
  const mysql = await advise('SELECT `id` FROM accounts WHER `id` = 1', 'mysql');
  assert.equal(mysql.isError, true);
  assert.match(mysql.out, /^Cannot parse the query as MySQL: syntax error at "`" at line 1, column 32:/);
  assert.deepEqual((await advise('SELECT id FROM accounts WHERE id = ?', 'sqlite')).findings, [], 'placeholders of other clients parse');
  const wrong = await server.client.callTool({ name: 'advise_sql', arguments: { query: 'SELECT 1', dialect: 'oracle' } });
  assert.equal(wrong.isError, true);
});

test('synaptic advise-sql prints the same findings, --json the report; bad SQL exits 1', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [...CLI_ARGS, 'advise-sql', ...args, '--graph', server.fx.graph], { env: server.fx.env, encoding: 'utf8' });
  const r = run('DELETE FROM accounts');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^1 finding\(s\) \(1 high\) for 1 statement\(s\); tables: accounts \(RLS, 1 policy\(ies\)\)\.\n\[high\] missing_where @ query:L1/);
  const json = run('SELECT * FROM accounts WHERE id = $1', '--json');
  assert.equal(json.status, 0, json.stderr);
  assert.deepEqual((JSON.parse(json.stdout) as { findings: Finding[] }).findings.map((f) => f.rule_id), ['select_star']);
  const bad = run('SELEC 1');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /Cannot parse the query as PostgreSQL: syntax error at or near "SELEC"/);
  const usage = run('SELECT 1', '--dialect', 'oracle');
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--dialect is one of postgres, mysql, mariadb, sqlite, mssql/);
});
