/**
 * The SQL dialect of a project, from what it depends on: package.json (`mysql2`, `better-sqlite3`,
 * `pg`, ...), a Prisma schema's datasource `provider`, Python requirements (`pymysql`, `psycopg`,
 * ...), go.mod (`go-sql-driver/mysql`, `mattn/go-sqlite3`, `jackc/pgx`, ...). Only the root's own
 * manifest files are read (a handful of small files, once per root per thread). One dialect found:
 * that one; none or several (a monorepo supporting every database): undefined, and each text's own
 * syntax decides (dialect.ts). `SYNAPTIC_SQL_DIALECT` (set by `--sql-dialect`) overrides the
 * detection; `off` turns SQL extraction off (.sql files yield no schema, code queries are not read).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dialectNamed, type SqlDialect } from './dialect-names.ts';

/** The SQL extraction setting of a root: a dialect, `off`, or undefined (decide per text). */
export type SqlSetting = SqlDialect | 'off' | undefined;

const NPM: Record<string, SqlDialect> = {
  mysql: 'mysql', mysql2: 'mysql', '@planetscale/database': 'mysql', mariadb: 'mariadb',
  'better-sqlite3': 'sqlite', sqlite3: 'sqlite', sqlite: 'sqlite', '@libsql/client': 'sqlite',
  pg: 'postgres', postgres: 'postgres', 'pg-promise': 'postgres', '@neondatabase/serverless': 'postgres', '@vercel/postgres': 'postgres', slonik: 'postgres',
};
const PYTHON: [RegExp, SqlDialect][] = [
  [/^\s*(?:mysqlclient|pymysql|mysql-connector-python|aiomysql|asyncmy)\b/im, 'mysql'],
  [/^\s*(?:psycopg2?(?:-binary)?|asyncpg)\b/im, 'postgres'],
  [/^\s*aiosqlite\b/im, 'sqlite'],
];
const PYPROJECT: [RegExp, SqlDialect][] = [
  [/["'](?:mysqlclient|pymysql|mysql-connector-python|aiomysql|asyncmy)\b/i, 'mysql'],
  [/["'](?:psycopg2?(?:-binary)?|asyncpg)\b/i, 'postgres'],
  [/["']aiosqlite\b/i, 'sqlite'],
];
const GO: [RegExp, SqlDialect][] = [
  [/github\.com\/go-sql-driver\/mysql\b/, 'mysql'],
  [/github\.com\/mattn\/go-sqlite3\b|modernc\.org\/sqlite\b|github\.com\/glebarez\/(?:go-)?sqlite\b/, 'sqlite'],
  [/github\.com\/lib\/pq\b|github\.com\/jackc\/pgx\b/, 'postgres'],
];

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The dialects a root's manifests name (a set: a project may name several). */
export function detectDialects(root: string): Set<SqlDialect> {
  const found = new Set<SqlDialect>();
  const pkg = read(join(root, 'package.json'));
  if (pkg) {
    try {
      const json = JSON.parse(pkg) as Record<string, Record<string, string> | undefined>;
      for (const deps of [json.dependencies, json.devDependencies]) for (const name of Object.keys(deps ?? {})) if (NPM[name]) found.add(NPM[name]!);
    } catch { /* not JSON: nothing to say */ }
  }
  for (const file of ['prisma/schema.prisma', 'schema.prisma']) {
    const text = read(join(root, file));
    const provider = text && /datasource\s+\w+\s*\{[^}]*?\bprovider\s*=\s*"(\w+)"/.exec(text)?.[1];
    const d = provider ? dialectNamed(provider) : undefined;
    if (d) found.add(d);
  }
  for (const file of ['requirements.txt', 'requirements/base.txt', 'Pipfile']) {
    const text = read(join(root, file));
    if (text) for (const [re, d] of PYTHON) if (re.test(text)) found.add(d);
  }
  for (const file of ['pyproject.toml', 'setup.py']) {
    const text = read(join(root, file));
    if (text) for (const [re, d] of PYPROJECT) if (re.test(text)) found.add(d);
  }
  const gomod = read(join(root, 'go.mod'));
  if (gomod) for (const [re, d] of GO) if (re.test(gomod)) found.add(d);
  if (found.has('mysql')) found.delete('mariadb'); // one grammar
  return found;
}

const memo = new Map<string, SqlSetting>();

/** The setting for a root: `SYNAPTIC_SQL_DIALECT` when set, else the one dialect its manifests name. */
export function sqlSettingFor(root: string): SqlSetting {
  const env = process.env.SYNAPTIC_SQL_DIALECT?.trim();
  if (env) {
    if (env.toLowerCase() === 'off') return 'off';
    if (env.toLowerCase() !== 'auto') {
      const d = dialectNamed(env);
      if (d) return d;
    }
  }
  if (memo.has(root)) return memo.get(root);
  const found = detectDialects(root);
  const setting = found.size === 1 ? [...found][0] : undefined;
  memo.set(root, setting);
  return setting;
}
