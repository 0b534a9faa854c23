/**
 * One candidate query (advise_sql) -> the shape of each statement, over the same PostgreSQL parser
 * and statement checks as extraction. Client placeholders (`?`, `%s`, `:name`) are read as `$n`
 * when the text does not parse as written. Other dialects parse only where they agree with
 * PostgreSQL; otherwise the error says which dialect is supported.
 */
import { loadPgParser, parsePg } from './pg-ast.ts';
import { checkStatement, type StatementShape } from './statement-checks.ts';

export const SQL_DIALECTS = ['postgres', 'mysql', 'mssql', 'sqlite'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

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
export async function parseCandidate(sql: string, dialect: SqlDialect = 'postgres'): Promise<CandidateStatement[]> {
  if (!sql.trim()) throw new SqlParseError('The query is empty.');
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
  if (!stmts.length) throw new SqlParseError('The query holds no SQL statement (only comments or whitespace).');
  const bytes = Buffer.from(text, 'utf8');
  return stmts.map((s) => {
    const lead = /^\s*/.exec(bytes.subarray(s.location, s.location + Math.max(s.length, 1)).toString('utf8'))![0];
    const before = bytes.subarray(0, s.location).toString('utf8') + lead;
    return { ...checkStatement(s.stmt), line: before.split('\n').length };
  });
}

function parseError(sql: string, e: Error & { sqlDetails?: { cursorPosition?: number } }, dialect: SqlDialect): SqlParseError {
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
    : `\nadvise_sql parses PostgreSQL only (supported dialects: postgres; ${dialect} is read only where it agrees with PostgreSQL): rewrite the query in PostgreSQL syntax (e.g. double quotes for backtick-quoted names, LIMIT instead of TOP).`;
  return new SqlParseError(`Cannot parse the query as ${dialect === 'postgres' ? 'PostgreSQL' : `${dialect} (read as PostgreSQL)`}: ${e.message}${where}${hint}`, line, column);
}
