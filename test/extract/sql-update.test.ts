/**
 * SQL edits under `update` (#21.1): a policy added, a query changed to write another table, a
 * migration added, a table renamed; each update's graph.json and graph.cbor equal a full extract's
 * byte for byte (link/sql.ts resolves tables through `n\0<table>` index keys, so a file that names
 * a table is relinked when the migration that creates it changes).
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { assertSameOutputs, copyFixture, REPO_ROOT } from './pipeline-fixture.ts';

test('update after SQL and query edits equals a full extract', async () => {
  const fx = copyFixture('synaptic-sql-update-');
  try {
    cpSync(join(REPO_ROOT, 'test/fixtures/sql'), join(fx.dir, 'sql'), { recursive: true });
    const out = join(fx.dir, 'out-update');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const edit = (rel: string, f: (s: string) => string) => writeFileSync(join(fx.dir, rel), f(readFileSync(join(fx.dir, rel), 'utf8')));
    const steps: [string, () => void, (links: { source: string; target: string; relation: string }[]) => void][] = [
      ['policy added', () => edit('sql/migrations/002_security.sql', (s) => s + "CREATE POLICY orders_insert ON orders FOR INSERT WITH CHECK (true);\n"),
        (l) => assert.ok(l.some((x) => x.relation === 'secured_by' && x.target.endsWith('#orders.orders_insert')))],
      ['query writes invoices', () => edit('sql/src/orders.ts', (s) => s.replace("'SELECT id FROM invoices WHERE account_id = $1'", "'DELETE FROM invoices WHERE account_id = $1'")),
        (l) => assert.ok(l.some((x) => x.relation === 'writes_to' && x.source.endsWith('#listInvoices') && x.target.endsWith('#invoices')))],
      ['migration added', () => writeFileSync(join(fx.dir, 'sql/migrations/003_more.sql'), 'CREATE INDEX orders_account_idx ON orders (account_id);\nALTER TABLE invoices ENABLE ROW LEVEL SECURITY;\n'),
        (l) => assert.ok(l.some((x) => x.relation === 'indexes' && x.source.endsWith('003_more.sql#orders_account_idx')))],
      ['table renamed', () => edit('sql/migrations/001_init.sql', (s) => s.replace('CREATE TABLE invoices', 'CREATE TABLE bills')),
        (l) => assert.ok(!l.some((x) => x.target.endsWith('#invoices')), 'nothing resolves to the renamed table')],
    ];
    let round = 0;
    for (const [what, change, check] of steps) {
      change();
      const upd = await runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true });
      const fullOut = join(fx.dir, `out-full-${round++}`);
      await runExtract({ root: fx.dir, outDir: fullOut, workers: 0 });
      assert.equal(upd.mode, 'update', what);
      assertSameOutputs(out, fullOut, what);
      check(JSON.parse(readFileSync(join(out, 'graph.json'), 'utf8')).links);
    }
  } finally {
    fx.cleanup();
  }
});
