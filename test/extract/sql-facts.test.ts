import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sql');
const FILES = [['migrations/001_init.sql', 'sql'], ['migrations/002_security.sql', 'sql'], ['src/orders.ts', 'typescript']] as const;

async function facts() {
  return Promise.all(FILES.map(([path, language]) => extractFileFacts({ path, source: readFileSync(join(FIXTURE, path), 'utf8'), language })));
}

test('a migration yields tables, columns, views, indexes, policies, grants and functions as symbols', async () => {
  const [init, security] = await facts();
  const kinds = (f: typeof init) => f!.symbols.filter((s) => s.kind !== 'column').map((s) => `${s.kind}:${s.qname}`).sort();
  assert.deepEqual(kinds(init), ['index:accounts_email_idx', 'index:invoices_account_idx', 'table:accounts', 'table:audit_log', 'table:events', 'table:invoices', 'table:orders', 'table:settings', 'view:account_totals']);
  assert.deepEqual(kinds(security), ['function:order_count', 'grant:grant.accounts.app_reader', 'grant:grant.invoices.public', 'policy:accounts.accounts_owner', 'policy:orders.orders_read']);
  const events = init!.symbols.find((s) => s.qname === 'events')!;
  assert.equal(events.extra?.primary_key, false);
  assert.equal(events.span.start_line, 26, 'the line of CREATE, after the leading comment');
  assert.deepEqual(init!.symbols.filter((s) => s.kind === 'column' && s.qname.startsWith('orders.')).map((s) => s.name), ['id', 'account_id', 'total']);
  assert.deepEqual(security!.symbols.find((s) => s.name === 'orders_read')!.extra, { table: 'orders', command: 'select', permissive: true, roles: 'public' });
  assert.deepEqual(security!.symbols.find((s) => s.qname === 'grant.invoices.public')!.extra, { table: 'invoices', privileges: 'all', grantees: 'public' });
  // Structured-cloneable (workers post facts, the cache stores them).
  assert.deepEqual(structuredClone(security), security);
});

test('queries in code: tables read and written, filtered columns, interpolation flagged, parameters and constants not', async () => {
  const [, , code] = await facts();
  const q = code!.sql!.queries.map((x) => ({ fn: code!.symbols[x.scope]!.name, reads: x.reads, writes: x.writes, columns: x.columns, injection: x.injection }));
  assert.deepEqual(q, [
    { fn: 'getOrder', reads: ['orders'], writes: [], columns: ['id'], injection: undefined },
    { fn: 'getOrderUnsafe', reads: ['orders'], writes: [], columns: ['id'], injection: 'id' },
    { fn: 'listInvoices', reads: ['invoices'], writes: [], columns: ['account_id'], injection: undefined },
    { fn: 'addOrder', reads: [], writes: ['orders'], columns: [], injection: undefined },
    { fn: 'firstAccounts', reads: ['accounts'], writes: [], columns: [], injection: undefined },
    { fn: 'bigOrders', reads: ['orders'], writes: [], columns: ['total'], injection: undefined },
    { fn: 'accountByEmailCi', reads: ['accounts'], writes: [], columns: ['email'], injection: undefined },
    { fn: 'accountByEmail', reads: ['accounts'], writes: [], columns: ['email'], injection: undefined },
    { fn: 'invoicesPerAccount', reads: ['accounts'], writes: [], columns: [], injection: undefined },
    { fn: 'invoicesPerAccount', reads: ['invoices'], writes: [], columns: ['account_id'], injection: undefined },
    { fn: 'invoicesOfAccounts', reads: ['accounts'], writes: [], columns: [], injection: undefined },
    { fn: 'invoicesOfAccounts', reads: ['invoices'], writes: [], columns: ['account_id'], injection: undefined },
  ]);
});

test('each query\'s statement checks are on its symbol as sql_checks, one L<line> line each (audit_sql reads them)', async () => {
  const [, , code] = await facts();
  const checks = (name: string) => code!.symbols.find((s) => s.name === name)!.extra?.sql_checks;
  assert.equal(checks('bigOrders'), 'L34 filter orders total');
  assert.equal(checks('accountByEmailCi'), 'L39 non_sargable accounts email lower(email)');
  assert.equal(checks('accountByEmail'), 'L44 filter accounts email');
  assert.equal(checks('addOrder'), undefined, 'an INSERT compares nothing');
  assert.equal(checks('invoicesPerAccount'), 'L50 filter invoices account_id\nL50 n_plus_one invoices accounts');
  assert.equal(checks('invoicesOfAccounts'), 'L56 filter invoices account_id', 'one query over the collected keys: no N+1');
  const ts = `async function f(db, t: string) {
  await db.query("SELECT o.id FROM orders o JOIN accounts a ON a.id = o.account_id WHERE a.email LIKE '%' || $1 AND upper(o.note) = $2 AND o.total > 1 AND o.status = 'x'", [t]);
  await db.query('SELECT id FROM users u, teams t WHERE name = $1', [t]);
}`;
  const f = await extractFileFacts({ path: 'q.ts', source: ts, language: 'typescript' });
  assert.deepEqual(String(f.symbols.find((s) => s.name === 'f')!.extra?.sql_checks).split('\n'), [
    'L2 filter accounts id',
    'L2 filter orders account_id,total,status',
    'L2 leading_wildcard accounts email %',
    'L2 non_sargable orders note upper(note)',
  ], 'an unqualified column of a two-table statement (name) is nobody\'s');
  const go = 'package p\nfunc F(db *sql.DB, n string) { db.Query("SELECT id FROM users WHERE lower(name) = $1", n) }\n';
  const g = await extractFileFacts({ path: 'q.go', source: go, language: 'go' });
  assert.equal(g.symbols.find((s) => s.name === 'F')!.extra?.sql_checks, 'L2 non_sargable users name lower(name)');
});

test('tagged templates bind parameters; $queryRawUnsafe and concatenation splice; Python f-strings too', async () => {
  const ts = `async function a(id: string) { return prisma.$queryRaw\`SELECT * FROM users WHERE id = \${id}\`; }
async function b(id: string) { return prisma.$queryRawUnsafe(\`DELETE FROM users WHERE id = \${id}\`); }
async function c(name: string) { return db.query("SELECT id FROM users WHERE name = '" + name + "'"); }`;
  const f = await extractFileFacts({ path: 'q.ts', source: ts, language: 'typescript' });
  assert.deepEqual(f.sql!.queries.map((x) => [x.reads.concat(x.writes).join(), x.injection ?? null]), [['users', null], ['users', 'id'], ['users', 'name']]);
  assert.equal(f.sql!.queries[0]!.selectStar, true);
  const py = `def find(cur, name):\n    cur.execute(f"SELECT id FROM users WHERE name = '{name}'")\n    cur.execute("SELECT id FROM users WHERE name = %s", (name,))\n`;
  const p = await extractFileFacts({ path: 'q.py', source: py, language: 'python' });
  assert.deepEqual(p.sql!.queries.map((x) => x.injection ?? null), ['name', null]);
});

test('a statement the PostgreSQL parser rejects fails the file with its line', async () => {
  await assert.rejects(extractFileFacts({ path: 'bad.sql', source: 'CREATE TABLE a (id int);\n\nCREATE TABLE b (id int,,);\n', language: 'sql' }), /Cannot parse "bad\.sql" as PostgreSQL \(line 3\)/);
});

test('linking: defines, references (foreign keys), indexes, secured_by, reads_from/writes_to with columns and injection', async () => {
  const g = linkGraph(await facts(), buildProjectContext({}));
  const rel = (r: string) => g.links.filter((l) => l.relation === r).map((l) => `${l.source.split('#')[1] ?? l.source} -> ${l.target.split('#')[1] ?? l.target}`).sort();
  assert.deepEqual(rel('secured_by'), ['accounts -> accounts.accounts_owner', 'accounts -> migrations/002_security.sql', 'audit_log -> migrations/002_security.sql', 'orders -> migrations/002_security.sql', 'orders -> orders.orders_read']);
  assert.deepEqual(rel('indexes'), ['accounts_email_idx -> accounts', 'invoices_account_idx -> invoices']);
  assert.ok(rel('references').includes('orders -> accounts') && rel('references').includes('grant.invoices.public -> invoices'));
  assert.equal(rel('defines').length, 7);
  assert.deepEqual(rel('writes_to'), ['addOrder -> orders']);
  const unsafe = g.links.find((l) => l.relation === 'reads_from' && l.source.endsWith('#getOrderUnsafe'))!;
  assert.equal(unsafe.injection, 'L13 pool.query: id');
  assert.equal(unsafe.columns, 'id');
  assert.equal(g.nodes.find((n) => n.id === 'migrations/001_init.sql#events')!.primary_key, false);
});
