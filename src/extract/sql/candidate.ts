/**
 * One candidate query (advise_sql) -> the shape of each statement, over the same parsers and
 * statement checks as extraction: PostgreSQL's own parser, or node-sql-parser for MySQL / MariaDB /
 * SQLite (dialect.ts). Without a dialect, the text's clues pick one (backticks: MySQL), else
 * PostgreSQL. Client placeholders (`?`, `%s`, `:name`) are rewritten to the dialect's own when the
 * text does not parse as written. SQL Server is read as PostgreSQL where they agree.
 */
import { DialectParseError, dialectFromText, dialectLabel, parseDialect } from './dialect.ts';
import { loadPgParser, parsePg, type PgStatement } from './pg-ast.ts';
import { checkStatement, type StatementShape } from './statement-checks.ts';

export const SQL_DIALECTS = ['postgres', 'mysql', 'mariadb', 'sqlite', 'mssql'] as const;
export type CandidateDialect = (typeof SQL_DIALECTS)[number];

export interface CandidateStatement extends StatementShape {
  /** 1-based line of the statement in the candidate text. */
  line: number;
}

/** Bad candidate SQL: the parser's message, and where (1-based line and column). */
export class SqlParseError extends Error {
  override name = 'SqlParseError';
  constructor(message: string, readonly line?: number, readonly column?: number) {
    super(message);
  }
}

const PLACEHOLDERS = /\$0|%s|\?|(?<!:):[A-Za-z_]\w*/g;

/** Parses a candidate query (throws SqlParseError); an empty text is an error too. */
export async function parseCandidate(sql: string, given?: CandidateDialect): Promise<CandidateStatement[]> {
  if (!sql.trim()) throw new SqlParseError('The query is empty.');
  const dialect = given ?? dialectFromText(sql) ?? 'postgres';
  if (dialect === 'mysql' || dialect === 'mariadb' || dialect === 'sqlite') {
    try {
      return shapes(sql, await parseOther(sql, dialect));
    } catch (err) {
      if (!(err instanceof DialectParseError)) throw err;
      if (given) throw dialectError(sql, err, dialect);
      // Guessed from a clue only: PostgreSQL's parser may still read it; if not, the guessed dialect's error.
      try { return await parsePostgres(sql, 'postgres'); } catch { throw dialectError(sql, err, dialect); }
    }
  }
  return parsePostgres(sql, dialect);
}

/** MySQL / SQLite: as written, then with `$n` / `%s` / `:name` placeholders as `?`. */
async function parseOther(sql: string, dialect: 'mysql' | 'mariadb' | 'sqlite'): Promise<PgStatement[]> {
  try {
    return await parseDialect(sql, dialect, false);
  } catch (first) {
    const rewritten = sql.replace(/\$\d+|%s|(?<!:):[A-Za-z_]\w*|\?\d+/g, '?');
    if (rewritten === sql) throw first;
    try { return await parseDialect(rewritten, dialect, false); } catch { throw first; }
  }
}

function dialectError(sql: string, e: DialectParseError, dialect: 'mysql' | 'mariadb' | 'sqlite'): SqlParseError {
  const text = sql.split('\n')[e.line - 1] ?? '';
  return new SqlParseError(`Cannot parse the query as ${dialectLabel(dialect)}: ${e.message} at line ${e.line}, column ${e.column}:\n  ${text}\n  ${' '.repeat(Math.max(0, e.column - 1))}^`, e.line, e.column);
}

function shapes(text: string, stmts: PgStatement[]): CandidateStatement[] {
  if (!stmts.length) throw new SqlParseError('The query holds no SQL statement (only comments or whitespace).');
  const bytes = Buffer.from(text, 'utf8');
  return stmts.map((s) => {
    const lead = /^\s*/.exec(bytes.subarray(s.location, s.location + Math.max(s.length, 1)).toString('utf8'))![0];
    const before = bytes.subarray(0, s.location).toString('utf8') + lead;
    return { ...checkStatement(s.stmt), line: before.split('\n').length };
  });
}

async function parsePostgres(sql: string, dialect: 'postgres' | 'mssql'): Promise<CandidateStatement[]> {
  await loadPgParser();
  let text = sql;
  let stmts;
  try {
    stmts = parsePg(text);
  } catch (first) {
    let n = 0;
    const rewritten = sql.replace(PLACEHOLDERS, () => `$${++n}`);
    try {
      if (n === 0) throw first;
      stmts = parsePg(rewritten);
      text = rewritten;
    } catch {
      throw parseError(sql, first as Error & { sqlDetails?: { cursorPosition?: number } }, dialect);
    }
  }
  return shapes(text, stmts);
}

function parseError(sql: string, e: Error & { sqlDetails?: { cursorPosition?: number } }, dialect: 'postgres' | 'mssql'): SqlParseError {
  const pos = e.sqlDetails?.cursorPosition;
  let line: number | undefined;
  let column: number | undefined;
  let where = '';
  if (pos !== undefined && pos >= 0) {
    const head = sql.slice(0, pos).split('\n');
    line = head.length;
    column = head[head.length - 1]!.length + 1;
    const text = sql.split('\n')[line - 1] ?? '';
    where = ` at line ${line}, column ${column}:\n  ${text}\n  ${' '.repeat(column - 1)}^`;
  }
  const hint = dialect === 'postgres'
    ? ''
    : `\nadvise_sql has no SQL Server parser (it parses postgres, mysql, mariadb, sqlite; mssql is read only where it agrees with PostgreSQL): rewrite the query in PostgreSQL syntax (e.g. LIMIT instead of TOP, double quotes for [bracketed] names).`;
  return new SqlParseError(`Cannot parse the query as ${dialect === 'postgres' ? 'PostgreSQL' : `${dialect} (read as PostgreSQL)`}: ${e.message}${where}${hint}`, line, column);
}
