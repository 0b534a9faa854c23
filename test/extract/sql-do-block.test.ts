/**
 * `DO $$ ... $$` blocks in .sql files (#21): the statements of a PL/pgSQL body count like top-level
 * ones (supabase/auth adds mfa_amr_claims' primary key inside a DO block: it was reported missing).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { auditGraphOf, auditSql } from '../../src/query/sql-audit.ts';

async function audit(files: Record<string, string>) {
  const facts = await Promise.all(Object.entries(files).map(([path, source]) => extractFileFacts({ path, source, language: 'sql' })));
  const g = linkGraph(facts, buildProjectContext({}));
  const doc = { directed: true, multigraph: true, graph: {}, nodes: g.nodes, links: g.links, hyperedges: [], built_at_commit: null } satisfies GraphDocument;
  return { facts, findings: auditSql(auditGraphOf(doc)).findings.map((f) => `${f.rule_id} ${f.location}`) };
}

// The shape of supabase/auth's migrations/20221011041400_add_mfa_indexes.up.sql.
const CREATE = 'create table if not exists auth.mfa_amr_claims(\n  session_id uuid not null,\n  authentication_method text not null\n);\n';
const DO_PK = `alter table auth.mfa_amr_claims add column if not exists id uuid not null;

do $$
begin
  if not exists
     (select constraint_name from information_schema.table_constraints
      where table_name = 'mfa_amr_claims' and constraint_name = 'amr_id_pk')
  then
    alter table auth.mfa_amr_claims add constraint amr_id_pk primary key(id);
  end if;
end $$;
`;

test('a primary key added inside a DO block of a later migration counts (supabase-auth mfa_amr_claims)', async () => {
  const { facts, findings } = await audit({ 'migrations/001.sql': CREATE, 'migrations/002.sql': DO_PK });
  assert.deepEqual(findings, []);
  const pk = facts[1]!.symbols.find((s) => s.kind === 'index')!;
  assert.equal(pk.name, 'amr_id_pk');
  assert.equal(pk.span.start_line, 9, 'the line of the statement inside the body');
  // Without the DO block the table is still reported: the fix is the DO body, not a blanket pass.
  assert.deepEqual((await audit({ 'migrations/001.sql': CREATE })).findings, ['missing_primary_key migrations/001.sql:L1']);
});

test('tables, policies and RLS switches inside DO blocks are schema; other languages and bad bodies are skipped', async () => {
  const sql = `DO $$
BEGIN
  CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, owner_id int REFERENCES users (id));
  ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
  CREATE POLICY notes_owner ON notes FOR ALL USING (owner_id = 1);
EXCEPTION WHEN duplicate_object THEN NULL;
END
$$;
DO LANGUAGE plpython3u $$ plpy.execute("CREATE TABLE ghost (id int)") $$;
DO $body$ BEGIN this is not plpgsql; END $body$;
CREATE TABLE users (id int PRIMARY KEY);
`;
  const f = await extractFileFacts({ path: 'db/schema.sql', source: sql, language: 'sql' });
  assert.deepEqual(f.symbols.filter((s) => s.kind !== 'column').map((s) => `${s.kind}:${s.qname}:L${s.span.start_line}`), [
    'table:notes:L3', 'policy:notes.notes_owner:L5', 'table:users:L11',
  ]);
  assert.deepEqual(f.sql!.edges.map((e) => `${e.relation} ${e.from}->${e.to} L${e.line}`), [
    'defines -1->0 L3', 'references 0->users L3', 'secured_by 0->-1 L4', 'secured_by 0->3 L5', 'defines -1->4 L11',
  ]);
});
