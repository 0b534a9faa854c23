/** N+1 at extraction (src/extract/sql/n-plus-one.ts): a query in a loop over another query's rows, in TS/JS and Python. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';

async function nPlusOnes(path: string, source: string, language: 'typescript' | 'python'): Promise<Record<string, string[]>> {
  const f = await extractFileFacts({ path, source, language });
  const out: Record<string, string[]> = {};
  for (const s of f.symbols) {
    const lines = String(s.extra?.sql_checks ?? '').split('\n').filter((l) => / n_plus_one /.test(l));
    if (lines.length) out[s.name] = lines;
  }
  return out;
}

test('TS/JS: for-of over a result, over a destructured name, forEach / map callbacks, an index loop; not over a parameter', async () => {
  const ts = `async function a(db) {
  const res = await db.query('SELECT id FROM accounts');
  for (const r of res.rows) await db.query('SELECT id FROM orders WHERE account_id = $1', [r.id]);
}
async function b(pool) {
  const { rows } = await pool.query('SELECT id FROM accounts');
  await Promise.all(rows.map((r) => pool.query('SELECT id FROM invoices WHERE account_id = $1', [r.id])));
  rows.forEach(function (r) { pool.query('DELETE FROM events WHERE name = $1', [r.id]); });
}
async function c(db) {
  const rows = (await db.query('SELECT id FROM accounts')).rows;
  for (let i = 0; i < rows.length; i++) {
    await db.query('SELECT id FROM orders WHERE account_id = $1', [rows[i].id]);
  }
}
async function clean(db, ids: number[]) {
  const seen = await db.query('SELECT id FROM accounts');
  for (const id of ids) await db.query('SELECT id FROM orders WHERE account_id = $1', [id]);
  return seen;
}
async function cleanToo(db) {
  const { rows } = await db.query('SELECT id FROM accounts');
  return db.query('SELECT id FROM orders WHERE account_id = ANY($1)', [rows.map((r) => r.id)]);
}`;
  assert.deepEqual(await nPlusOnes('a.ts', ts, 'typescript'), {
    a: ['L3 n_plus_one orders accounts'],
    b: ['L7 n_plus_one invoices accounts', 'L8 n_plus_one events accounts'],
    c: ['L13 n_plus_one orders accounts'],
  });
});

test('Python: rows fetched from the cursor, the cursor itself, a comprehension; not a loop over a parameter', async () => {
  const py = `def a(cur):
    cur.execute("SELECT id FROM accounts")
    for (aid,) in cur.fetchall():
        cur.execute("SELECT id FROM orders WHERE account_id = %s", (aid,))


def b(conn):
    rows = conn.execute("SELECT id FROM accounts").fetchall()
    return [conn.execute("SELECT id FROM invoices WHERE account_id = ?", (r[0],)) for r in rows]


def c(cur):
    cur.execute("SELECT id FROM accounts")
    for row in cur:
        other.execute("SELECT id FROM orders WHERE account_id = %s", (row[0],))


def clean(cur, ids):
    cur.execute("SELECT id FROM accounts")
    for i in ids:
        cur.execute("SELECT id FROM orders WHERE account_id = %s", (i,))
`;
  assert.deepEqual(await nPlusOnes('a.py', py, 'python'), {
    a: ['L4 n_plus_one orders accounts'],
    b: ['L9 n_plus_one invoices accounts'],
    c: ['L15 n_plus_one orders accounts'],
  });
});
