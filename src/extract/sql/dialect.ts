/**
 * SQL dialects: which parser reads a text, and the syntax clues that pick one when the project does
 * not say (dialect-project.node.ts reads the project). PostgreSQL goes to libpg-query (pg-ast.ts);
 * MySQL, MariaDB (read as MySQL) and SQLite to node-sql-parser's per-dialect builds, one statement
 * at a time (statements.ts), mapped to libpg-query's shapes (nsp-map.ts) so that the schema facts,
 * the access facts and the statement checks are the same code for every dialect. Row-level security
 * (policies, ENABLE ROW LEVEL SECURITY) and GRANT exist in PostgreSQL only.
 */
import type { SqlDialect } from './dialect-names.ts';
import { mapStatement, type NspDialect } from './nsp-map.ts';
import { loadPgParser, parsePg, type PgStatement } from './pg-ast.ts';
import { splitStatements } from './statements.ts';

export { dialectLabel, dialectNamed, SQL_DIALECT_NAMES, type SqlDialect } from './dialect-names.ts';

const MYSQL_CLUES = /`|\bAUTO_INCREMENT\b|\bENGINE\s*=|\bUNSIGNED\b|\bON\s+DUPLICATE\s+KEY\b|\bDEFAULT\s+CHARSET\b/i;
const SQLITE_CLUES = /\bAUTOINCREMENT\b|\bPRAGMA\s|\bWITHOUT\s+ROWID\b/i;

/** PostgreSQL's own syntax: dollar quoting, `::` casts, policies, RLS, extensions, serial, plpgsql. */
const POSTGRES_CLUES = /\$\$|::\s*[A-Za-z]|\bCREATE\s+(?:POLICY|EXTENSION)\b|\bROW\s+LEVEL\s+SECURITY\b|\bOWNER\s+TO\b|\bplpgsql\b|\b(?:big)?serial\b|\bsearch_path\b/i;
/** Comments and string literals: a backtick in a comment says nothing about the dialect. */
const NOT_CODE = /--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\]|''|\\.)*'/g;

/**
 * The dialect a text's own syntax says, comments and strings aside: PostgreSQL-only syntax ->
 * PostgreSQL; else backticks, AUTO_INCREMENT, ENGINE= -> MySQL; AUTOINCREMENT, PRAGMA -> SQLite.
 */
export function dialectFromText(sql: string): SqlDialect | undefined {
  if (!/[`A-Za-z]/.test(sql)) return undefined;
  const code = sql.replace(NOT_CODE, ' ');
  if (POSTGRES_CLUES.test(code)) return 'postgres';
  if (SQLITE_CLUES.test(code)) return 'sqlite';
  if (MYSQL_CLUES.test(code)) return 'mysql';
  return undefined;
}

/** What reads a text: the project's (or the user's) dialect, else the text's clues, else PostgreSQL. */
export function chooseDialect(given: SqlDialect | undefined, sql: string): SqlDialect {
  return given ?? dialectFromText(sql) ?? 'postgres';
}

interface NspParser { astify(sql: string, options?: { database?: string }): unknown }
const parsers = new Map<NspDialect, Promise<NspParser>>();

/** Loads node-sql-parser's build for a dialect (once per thread; only that dialect's grammar, ~0.25 MB). */
function loadNsp(d: NspDialect): Promise<NspParser> {
  let p = parsers.get(d);
  if (!p) {
    p = (d === 'mysql' ? import('node-sql-parser/build/mysql.js') : import('node-sql-parser/build/sqlite.js'))
      .then((m: any) => new ((m.default ?? m).Parser)() as NspParser);
    parsers.set(d, p);
  }
  return p;
}

const nspOf = (d: SqlDialect): NspDialect => (d === 'sqlite' ? 'sqlite' : 'mysql');

/** Bad SQL in a node-sql-parser dialect: the message, and the 1-based line / column in the whole text. */
export class DialectParseError extends Error {
  override name = 'DialectParseError';
  constructor(message: string, readonly line: number, readonly column: number) {
    super(message);
  }
}

/** Which statements of a `.sql` file matter to the schema (the rest -- SET, INSERT data, LOCK -- is not parsed). */
const SCHEMA_STATEMENT = /^(?:create|alter)\b/i;
const ROUTINE = /^create\s+(?:or\s+replace\s+)?(?:definer\s*=\s*\S+\s+)?(?:aggregate\s+)?(?:function|procedure)\s+(?:if\s+not\s+exists\s+)?((?:[`"\w]+\.)?[`"\w]+)/i;
const OTHER_CREATE = /^create\s+(?:or\s+replace\s+)?(?:definer\s*=\s*\S+\s+)?(?:temp(?:orary)?\s+)?(?:trigger|event|database|schema|user|role|virtual\s+table)\b/i;

/**
 * Parses a MySQL / MariaDB / SQLite text into libpg-query-shaped statements with their byte ranges.
 * `schemaOnly` (a `.sql` file): only CREATE / ALTER statements are parsed, routines are named from
 * their header, triggers and events are skipped. Throws DialectParseError for a statement the
 * parser rejects.
 */
export async function parseDialect(sql: string, dialect: Exclude<SqlDialect, 'postgres'>, schemaOnly: boolean): Promise<PgStatement[]> {
  const d = nspOf(dialect);
  const parser = await loadNsp(d);
  const database = d === 'sqlite' ? 'sqlite' : 'MySQL'; // MariaDB through the MySQL grammar
  const out: PgStatement[] = [];
  let lineAt = 0; // line count of the text before `charAt`
  let charAt = 0;
  for (const st of splitStatements(sql, d === 'mysql')) {
    if (schemaOnly && !SCHEMA_STATEMENT.test(st.text)) continue;
    if (schemaOnly && OTHER_CREATE.test(st.text)) continue;
    const routine = ROUTINE.exec(st.text);
    if (routine) {
      const name = routine[1]!.replace(/[`"]/g, '').split('.');
      out.push({ stmt: { CreateFunctionStmt: { funcname: name.map((n) => ({ String: { sval: n } })) } }, location: st.location, length: st.length });
      continue;
    }
    let asts: unknown;
    try {
      asts = parser.astify(st.text, { database });
    } catch (err) {
      const e = err as Error & { location?: { start?: { line?: number; column?: number } } };
      // The statement's first line in the whole text (byte offsets -> lines, counted forward once).
      const before = Buffer.from(sql, 'utf8').subarray(0, st.location).toString('utf8');
      lineAt += before.slice(charAt).split('\n').length - 1;
      charAt = before.length;
      const line = lineAt + (e.location?.start?.line ?? 1);
      const column = e.location?.start?.column ?? 1;
      // PEG messages list every expected token; the found one is what helps.
      const found = /but (.+) found\.?$/.exec(e.message ?? '')?.[1];
      throw new DialectParseError(found ? `syntax error at ${found}` : (e.message || 'syntax error').split('\n')[0]!.slice(0, 200), line, column);
    }
    for (const ast of Array.isArray(asts) ? asts : [asts]) {
      for (const stmt of mapStatement(ast as Record<string, any>, d)) out.push({ stmt, location: st.location, length: st.length });
    }
  }
  return out;
}

/**
 * A query found in code (any statement kind), for the embedded readers: with a MySQL / SQLite
 * setting that parser first, then PostgreSQL's; otherwise PostgreSQL's, then the dialect the text's
 * clues name (a backtick-quoted query in a project of no one dialect). Null when nothing parses it.
 */
export async function parseQuery(sql: string, setting: SqlDialect | 'off' | undefined): Promise<PgStatement[] | null> {
  if (setting === 'off') return null;
  const other = setting && setting !== 'postgres' ? setting : undefined;
  if (other) {
    try { return await parseDialect(sql, other, false); } catch { /* PostgreSQL's parser may still read it */ }
  }
  await loadPgParser();
  try { return parsePg(sql); } catch { /* below */ }
  const clue = other ? undefined : dialectFromText(sql);
  if (!clue || clue === 'postgres') return null;
  try { return await parseDialect(sql, clue, false); } catch { return null; }
}
