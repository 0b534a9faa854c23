/** The SQL dialects' names (no parser loaded: the CLI's argument parsing imports this). */

export const SQL_DIALECT_NAMES = ['postgres', 'mysql', 'mariadb', 'sqlite'] as const;
export type SqlDialect = (typeof SQL_DIALECT_NAMES)[number];

const LABEL: Record<SqlDialect, string> = { postgres: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB', sqlite: 'SQLite' };
export function dialectLabel(d: SqlDialect): string {
  return LABEL[d];
}

/** A dialect as a user or a config writes it (`postgresql`, `pg`, `MySQL`, `sqlite3`); undefined when unknown. */
export function dialectNamed(name: string): SqlDialect | undefined {
  const n = name.trim().toLowerCase();
  if (n === 'postgres' || n === 'postgresql' || n === 'pg' || n === 'cockroachdb') return 'postgres';
  if (n === 'mysql') return 'mysql';
  if (n === 'mariadb') return 'mariadb';
  if (n === 'sqlite' || n === 'sqlite3') return 'sqlite';
  return undefined;
}

