/**
 * MySQL / MariaDB / SQLite (#21 item 1, "dialect auto-detected, overridable"): .sql fixtures in each
 * dialect become the same table / column / index / foreign-key facts as PostgreSQL's, through
 * node-sql-parser mapped to libpg-query's shapes; the dialect comes from the project's drivers, else
 * the text's syntax, and an override wins. Statement splitting keeps `;` inside quotes, comments
 * and trigger bodies.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { extractSqlFileFacts } from '../../src/extract/sql/schema.ts';
import { chooseDialect, dialectFromText, parseQuery } from '../../src/extract/sql/dialect.ts';
import { detectDialects } from '../../src/extract/sql/dialect-project.node.ts';
import { splitStatements } from '../../src/extract/sql/statements.ts';
import { accessOf } from '../../src/extract/sql/pg-ast.ts';
import type { FileFacts } from '../../src/extract/facts.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'sql-dialects');

async function facts(file: string, sqlDialect?: 'mysql' | 'sqlite' | 'postgres' | 'off'): Promise<FileFacts> {
  return extractSqlFileFacts({ path: file, source: readFileSync(join(FIXTURES, file), 'utf8'), ...(sqlDialect ? { sqlDialect } : {}) });
}

const summary = (f: FileFacts): string[] => f.symbols.filter((s) => s.kind !== 'column' || s.extra?.references)
  .map((s) => `${s.kind} ${s.qname} L${s.span.start_line}${s.extra ? ' ' + Object.entries(s.extra).map(([k, v]) => `${k}=${v}`).join(' ') : ''}`);

test('a MySQL dump: tables, keys, inline KEY indexes, foreign keys (with the index InnoDB makes), view, routine', async () => {
  const f = await facts('mysql-schema.sql');
  assert.deepEqual(summary(f), [
    'table orgs L5 primary_key=true key_columns=id,name',
    'index orgs_name_unique L5 table=orgs columns=name unique=true',
    'table users L12 primary_key=true key_columns=id',
    'column users.org_id L12 references=orgs fk_line=L12',
    'index users_created_at_index L12 table=users columns=created_at',
    'index users_org_id_fk L12 table=users columns=org_id implicit=true',
    'table audit_log L23 primary_key=false',
    'index users_email_index L33 table=users columns=email',
    'view active_users L34',
    'function org_count L42',
  ]);
  assert.ok(f.symbols.some((s) => s.qname === 'users.name' && s.span.start_line === 32), 'ALTER TABLE ... ADD COLUMN');
  const edges = f.sql!.edges.map((e) => `${e.relation} ${typeof e.from === 'number' && e.from >= 0 ? f.symbols[e.from]!.qname : e.from} -> ${typeof e.to === 'number' && e.to >= 0 ? f.symbols[e.to]!.qname : e.to}`);
  assert.ok(edges.includes('references users -> orgs'));
  assert.ok(edges.includes('references active_users -> users') && edges.includes('references active_users -> orgs'));
  // The same file forced to PostgreSQL: its parser rejects the backticks.
  await assert.rejects(facts('mysql-schema.sql', 'postgres'), /Cannot parse "mysql-schema.sql" as PostgreSQL \(line 4\)/);
});

test('an SQLite schema: AUTOINCREMENT keys, inline REFERENCES, table-level FOREIGN KEY, no implicit FK index', async () => {
  const f = await facts('sqlite-schema.sql');
  assert.deepEqual(summary(f), [
    'table projects L4 primary_key=true key_columns=id,name',
    'table tasks L8 primary_key=true key_columns=id',
    'column tasks.project_id L8 references=projects fk_line=L8',
    'column tasks.owner_id L8 references=people fk_line=L8',
    'table people L16 primary_key=true key_columns=id',
    'table tags L17 primary_key=false',
    'index tasks_project_id_idx L18 table=tasks columns=project_id',
    'view open_tasks L19',
  ]);
});

test('a MySQL statement the parser rejects fails the file with the dialect and the line', async () => {
  await assert.rejects(
    extractSqlFileFacts({ path: 'bad.sql', source: 'CREATE TABLE `a` (`id` int);\n\nCREATE TABLE `b` (`id` int,, `x` int);\n' }),
    /^Error: Cannot parse "bad.sql" as MySQL \(line 3\): syntax error at/,
  );
  // prisma's Supabase fixtures: backticks in comments only; a PostgreSQL file still.
  const dump = await extractSqlFileFacts({ path: 'roles.sql', source: '-- captured via `pg_dumpall --roles-only`\nCREATE ROLE anon;\nALTER ROLE anon WITH NOLOGIN;\nCREATE TABLE t (id int PRIMARY KEY);\n' });
  assert.deepEqual(dump.symbols.map((s) => s.qname), ['t', 't.id']);
  const off = await extractSqlFileFacts({ path: 'x.sql', source: 'CREATE TABLE `a` (`id` int);', sqlDialect: 'off' });
  assert.deepEqual(off.symbols, [], 'off: no schema read');
});

test('dialect: the override, then the text (backticks, AUTO_INCREMENT, ENGINE=, AUTOINCREMENT, PRAGMA), then PostgreSQL', () => {
  assert.equal(dialectFromText('CREATE TABLE `x` (id int)'), 'mysql');
  assert.equal(dialectFromText('CREATE TABLE x (id int AUTO_INCREMENT)'), 'mysql');
  assert.equal(dialectFromText('CREATE TABLE x (id int) ENGINE=InnoDB'), 'mysql');
  assert.equal(dialectFromText('CREATE TABLE x (id INTEGER PRIMARY KEY AUTOINCREMENT)'), 'sqlite');
  assert.equal(dialectFromText('PRAGMA foreign_keys = ON;'), 'sqlite');
  assert.equal(dialectFromText('CREATE TABLE x (id int PRIMARY KEY)'), undefined);
  assert.equal(dialectFromText('-- dumped with `pg_dump`\nCREATE TABLE x (id int);\nCOMMENT ON TABLE x IS \'a `b`\';'), undefined, 'backticks in comments and strings are no clue');
  assert.equal(dialectFromText('CREATE TABLE `x` (id serial PRIMARY KEY)'), 'postgres', 'PostgreSQL-only syntax wins');
  assert.equal(dialectFromText("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql; -- `x`"), 'postgres');
  assert.equal(chooseDialect(undefined, 'CREATE TABLE x (id serial)'), 'postgres');
  assert.equal(chooseDialect('sqlite', 'CREATE TABLE `x` (id int)'), 'sqlite', 'the project or the user wins over the clues');
});

test('project detection: package.json, prisma provider, Python requirements, go.mod; several dialects: none', () => {
  const root = mkdtempSync(join(tmpdir(), 'sql-dialect-'));
  try {
    const at = (files: Record<string, string>): string[] => {
      const dir = mkdtempSync(join(root, 'p-'));
      for (const [name, text] of Object.entries(files)) { mkdirSync(join(dir, name, '..'), { recursive: true }); writeFileSync(join(dir, name), text); }
      return [...detectDialects(dir)].sort();
    };
    assert.deepEqual(at({ 'package.json': JSON.stringify({ dependencies: { mysql2: '^3' } }) }), ['mysql']);
    assert.deepEqual(at({ 'package.json': JSON.stringify({ devDependencies: { 'better-sqlite3': '^9' } }) }), ['sqlite']);
    assert.deepEqual(at({ 'prisma/schema.prisma': 'datasource db {\n  provider = "mysql"\n  url = env("DATABASE_URL")\n}\n' }), ['mysql']);
    assert.deepEqual(at({ 'requirements.txt': 'Django==5.0\nmysqlclient>=2.2\n' }), ['mysql']);
    assert.deepEqual(at({ 'pyproject.toml': '[project]\ndependencies = ["psycopg[binary]>=3"]\n' }), ['postgres']);
    assert.deepEqual(at({ 'go.mod': 'module x\n\nrequire (\n\tgithub.com/mattn/go-sqlite3 v1.14.22\n)\n' }), ['sqlite']);
    assert.deepEqual(at({ 'package.json': JSON.stringify({ dependencies: { pg: '^8', mysql2: '^3' } }) }), ['mysql', 'postgres']);
    assert.deepEqual(at({ 'package.json': '{not json' }), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('statement splitting: quotes, comments, DELIMITER and trigger bodies hold their semicolons', () => {
  const texts = (sql: string, mysql = true) => splitStatements(sql, mysql).map((s) => s.text);
  assert.deepEqual(texts("INSERT INTO a VALUES ('x;y', \"q;\", `c;`); -- c;\n# h;\nSELECT 1 /* ; */;"), ["INSERT INTO a VALUES ('x;y', \"q;\", `c;`)", 'SELECT 1 /* ; */']);
  assert.deepEqual(texts('DELIMITER $$\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END$$\nDELIMITER ;\nSELECT 3;'), ['CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END', 'SELECT 3']);
  assert.deepEqual(texts('CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET c = 1; END;\nSELECT 4;', false), ['CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET c = 1; END', 'SELECT 4']);
  const s = splitStatements('-- é\nSELECT 1;\nSELECT 2', false);
  assert.deepEqual(s.map((x) => [x.location, x.length]), [[6, 8], [16, 8]], 'UTF-8 byte offsets');
});

test('queries in code: a backtick query reads with MySQL; a MySQL project parses its own syntax first', async () => {
  const a = await parseQuery('SELECT `u`.`id` FROM `users` `u` JOIN `orgs` o ON o.id = u.org_id WHERE `u`.`email` = $1', undefined);
  assert.ok(a);
  assert.deepEqual(accessOf(a[0]!.stmt), { reads: ['orgs', 'users'], writes: [], columns: ['email', 'id', 'org_id'], selectStar: false });
  const b = await parseQuery('UPDATE users SET name = $1 WHERE id = $2', 'mysql');
  assert.deepEqual(accessOf(b![0]!.stmt).writes, ['users']);
  assert.equal(await parseQuery('SELEC nothing', 'sqlite'), null);
  assert.equal(await parseQuery('SELECT 1 FROM t', 'off'), null);
});

test('a backtick-quoted query in TypeScript code: read by the MySQL parser, its tables and filter columns recorded', async () => {
  const { extractFileFacts } = await import('../../src/extract/file-facts.ts');
  const source = [
    'export async function byEmail(pool: any, email: string) {',
    '  return pool.query("SELECT `u`.`id` FROM `users` `u` JOIN `orgs` o ON o.id = u.org_id WHERE `u`.`email` = ?", [email]);',
    '}',
    'export async function bump(pool: any, id: number) {',
    '  return pool.execute("UPDATE `users` SET `visits` = `visits` + 1 WHERE `id` = " + id);',
    '}',
  ].join('\n');
  const f = await extractFileFacts({ path: 'src/db.ts', source, language: 'typescript' });
  assert.deepEqual(f.sql?.queries.map((q) => `L${q.line} ${q.client} reads=${q.reads} writes=${q.writes} columns=${q.columns}${q.injection ? ' injection=' + q.injection : ''}`), [
    'L2 pool.query reads=orgs,users writes= columns=email,id,org_id',
    'L5 pool.execute reads= writes=users columns=id injection=id',
  ]);
});

test('the override: --sql-dialect (extract / update) sets SYNAPTIC_SQL_DIALECT, which wins over the project', async () => {
  const { parseExtractArgs } = await import('../../src/cli/commands/extract-args.ts');
  const { sqlSettingFor } = await import('../../src/extract/sql/dialect-project.node.ts');
  const root = mkdtempSync(join(tmpdir(), 'sql-dialect-args-'));
  const saved = process.env.SYNAPTIC_SQL_DIALECT;
  try {
    writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { mysql2: '^3' } }));
    const out = join(root, 'out');
    assert.equal(parseExtractArgs([root, '--out', out, '--sql-dialect', 'SQLite'], 'extract').sqlDialect, 'sqlite');
    assert.equal(parseExtractArgs([root, '--out', out, '--sql-dialect=off'], 'extract').sqlDialect, 'off');
    assert.equal(parseExtractArgs([root, '--out', out], 'extract').sqlDialect, undefined);
    assert.throws(() => parseExtractArgs([root, '--out', out, '--sql-dialect', 'oracle'], 'extract'), /Cannot parse --sql-dialect: expected postgres, mysql, mariadb, sqlite, auto or off, got 'oracle'/);
    delete process.env.SYNAPTIC_SQL_DIALECT;
    assert.equal(sqlSettingFor(root), 'mysql', 'the project: mysql2');
    process.env.SYNAPTIC_SQL_DIALECT = 'sqlite';
    assert.equal(sqlSettingFor(root), 'sqlite');
    process.env.SYNAPTIC_SQL_DIALECT = 'off';
    assert.equal(sqlSettingFor(root), 'off');
    process.env.SYNAPTIC_SQL_DIALECT = 'auto';
    assert.equal(sqlSettingFor(root), 'mysql');
  } finally {
    if (saved === undefined) delete process.env.SYNAPTIC_SQL_DIALECT; else process.env.SYNAPTIC_SQL_DIALECT = saved;
    rmSync(root, { recursive: true, force: true });
  }
});

test('the project dialect reaches a file: processFile (what a worker runs) reads a plain .sql file of a mysql2 project as MySQL', async () => {
  const { processFile } = await import('../../src/extract/process-file.node.ts');
  const root = mkdtempSync(join(tmpdir(), 'sql-dialect-project-'));
  const saved = process.env.SYNAPTIC_SQL_DIALECT;
  delete process.env.SYNAPTIC_SQL_DIALECT;
  try {
    mkdirSync(join(root, 'db'));
    // No clue in the text: PostgreSQL would read it too, without InnoDB's foreign-key index.
    writeFileSync(join(root, 'db', 'schema.sql'), 'CREATE TABLE orgs (id int PRIMARY KEY);\nCREATE TABLE users (id int PRIMARY KEY, org_id int, FOREIGN KEY (org_id) REFERENCES orgs (id));\n');
    const indexes = async () => (await processFile({ path: 'db/schema.sql', abs: join(root, 'db', 'schema.sql'), language: 'sql' })).facts!.symbols.filter((s) => s.kind === 'index').map((s) => s.qname);
    const other = mkdtempSync(join(tmpdir(), 'sql-dialect-project-pg-'));
    try {
      mkdirSync(join(other, 'db'));
      writeFileSync(join(other, 'db', 'schema.sql'), readFileSync(join(root, 'db', 'schema.sql')));
      assert.deepEqual((await processFile({ path: 'db/schema.sql', abs: join(other, 'db', 'schema.sql'), language: 'sql' })).facts!.symbols.filter((s) => s.kind === 'index').map((s) => s.qname), [], 'no project dialect: PostgreSQL');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { mysql2: '^3' } }));
    assert.deepEqual(await indexes(), ['users_org_id_fk']);
  } finally {
    if (saved === undefined) delete process.env.SYNAPTIC_SQL_DIALECT; else process.env.SYNAPTIC_SQL_DIALECT = saved;
    rmSync(root, { recursive: true, force: true });
  }
});
