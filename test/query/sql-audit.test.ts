import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { auditGraphOf, auditSql } from '../../src/query/sql-audit.ts';

async function audit(files: Record<string, string>) {
  const facts = await Promise.all(Object.entries(files).map(([path, source]) =>
    extractFileFacts({ path, source, language: path.endsWith('.sql') ? 'sql' : 'typescript' })));
  const g = linkGraph(facts, buildProjectContext({}));
  const doc = { directed: true, multigraph: true, graph: {}, nodes: g.nodes, links: g.links, hyperedges: [], built_at_commit: null } satisfies GraphDocument;
  return auditSql(auditGraphOf(doc)).findings.map((f) => `${f.severity} ${f.rule_id} ${f.location}`);
}

test('policies never enforced, GRANT ALL to a role, SELECT *, and injection in test code (medium)', async () => {
  assert.deepEqual(await audit({
    'db/schema.sql': 'CREATE TABLE t (id int PRIMARY KEY);\nCREATE POLICY p ON t FOR ALL USING (true);\nGRANT ALL ON t TO app;\nGRANT SELECT ON t TO app_reader;\n',
    'src/q.ts': 'export function all() { return pool.query("SELECT * FROM t"); }\n',
    'test/q.test.ts': 'export function seed(id: string) { return pool.query(`DELETE FROM t WHERE id = ${id}`); }\n',
  }), [
    'high rls_not_enabled db/schema.sql:L1',
    'medium grant_all db/schema.sql:L3',
    'medium sql_injection test/q.test.ts:L1',
    'info select_star src/q.ts:L1',
  ]);
});

test('no SQL: an empty report says why', async () => {
  const facts = [await extractFileFacts({ path: 'a.ts', source: 'export const a = 1;\n', language: 'typescript' })];
  const g = linkGraph(facts, buildProjectContext({}));
  const r = auditSql({ nodes: g.nodes, edges: [] });
  assert.deepEqual(r.findings, []);
  assert.match(r.summary, /^No SQL tables in the graph/);
});

test('policies on some commands: low while RLS is on (the rest is denied), high when RLS is off', async () => {
  const policies = 'CREATE POLICY read ON t FOR SELECT USING (true);\n';
  assert.deepEqual(await audit({ 'db/a.sql': `CREATE TABLE t (id int PRIMARY KEY);\nALTER TABLE t ENABLE ROW LEVEL SECURITY;\n${policies}` }), ['low rls_partial db/a.sql:L1']);
  assert.deepEqual(await audit({ 'db/a.sql': `CREATE TABLE t (id int PRIMARY KEY);\n${policies}` }), ['high rls_not_enabled db/a.sql:L1', 'high rls_partial db/a.sql:L1']);
});

test('real-world migration files: Go-template placeholders and an empty seed.sql parse', async () => {
  // supabase/auth: `{{ index .Options "Namespace" }}.users`; a comment-free empty seed file.
  assert.deepEqual(await audit({
    'migrations/00_init.up.sql': 'CREATE TABLE IF NOT EXISTS {{ index .Options "Namespace" }}.users (\n  id uuid NOT NULL,\n  instance_id uuid NULL REFERENCES {{ index .Options "Namespace" }}.instances (id)\n);\n',
    'supabase/seed.sql': '',
  }), ['medium missing_fk_index migrations/00_init.up.sql:L1', 'low missing_primary_key migrations/00_init.up.sql:L1']);
});

test('injection in a migration (values it read from the database) is medium, in application code critical', async () => {
  const splice = 'export async function up(q: any, id: string) { await q.sequelize.query(`UPDATE t SET x = 1 WHERE id = \'${id}\'`); }\n';
  assert.deepEqual(await audit({ 'db/schema.sql': 'CREATE TABLE t (id text PRIMARY KEY, x int);\n', 'server/migrations/2018-set.ts': splice, 'server/routes/set.ts': splice }), [
    'critical sql_injection server/routes/set.ts:L1',
    'medium sql_injection server/migrations/2018-set.ts:L1',
  ]);
});

test('a primary key a later migration adds (another file) counts; without it the table is reported', async () => {
  const create = 'CREATE TABLE settings (team_id int NOT NULL, id text);\n';
  assert.deepEqual(await audit({ 'm/001.sql': create }), ['low missing_primary_key m/001.sql:L1']);
  assert.deepEqual(await audit({ 'm/001.sql': create, 'm/002.sql': 'ALTER TABLE settings ADD CONSTRAINT settings_pkey PRIMARY KEY (id);\n' }), []);
});

test('rls_missing: with HTTP routes in the graph, only tables their handlers reach through calls; without routes, any queried table', async () => {
  const schema = 'CREATE TABLE secrets (id int PRIMARY KEY);\nALTER TABLE secrets ENABLE ROW LEVEL SECURITY;\nCREATE POLICY own ON secrets FOR ALL USING (true);\n' +
    'CREATE TABLE users (id int PRIMARY KEY);\nCREATE TABLE audit_log (id int PRIMARY KEY);\n';
  const code = (routes: string) => "import express from 'express';\nconst app = express();\n" + routes +
    'export function listUsers(req: unknown, res: unknown) { return loadUsers(); }\n' +
    "function loadUsers() { return pool.query('SELECT id FROM users'); }\n" +
    "export function nightly() { return pool.query('SELECT id FROM audit_log'); }\n";
  assert.deepEqual(await audit({ 'db/schema.sql': schema, 'src/app.ts': code("app.get('/users', listUsers);\n") }), ['high rls_missing db/schema.sql:L4']);
  assert.deepEqual(await audit({ 'db/schema.sql': schema, 'src/app.ts': code('') }), ['high rls_missing db/schema.sql:L4', 'high rls_missing db/schema.sql:L5']);
});
