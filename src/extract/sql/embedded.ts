/**
 * SQL in code: string and template literals passed to database clients' query calls (`pg`/`mysql2`
 * `query`/`execute`, `postgres` `unsafe`, better-sqlite3 `prepare`/`exec`, Prisma `$queryRaw*` /
 * `$executeRaw*`, knex `raw`; Python `execute`/`executemany`/SQLAlchemy `text`). Each becomes a
 * SqlQueryFact: the tables read and written, the columns filtered on, and -- when a non-constant is
 * spliced into the text by interpolation or `+` -- why it looks injectable. Tagged templates
 * (`` sql`...${x}` ``, `` $queryRaw`...` ``) bind their values as parameters and are not injectable.
 * Cost: one `descendantsOfType` walk, only for files whose text names a client method.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact } from '../facts.ts';
import type { LanguageId } from '../languages.ts';
import type { SqlQueryFact } from './facts.ts';
import { accessOf, loadPgParser, parsePg } from './pg-ast.ts';

const METHODS = new Set(['query', 'execute', 'executemany', 'exec', 'prepare', 'raw', 'unsafe', 'text',
  '$queryRaw', '$queryRawUnsafe', '$executeRaw', '$executeRawUnsafe']);
const MENTIONS = /\b(?:query|execute|executemany|exec|prepare|raw|unsafe|text)\s*\(|\$(?:query|execute)Raw/;
const LOOKS_SQL = /^\s*\(?\s*(?:select|insert|update|delete|with|merge)\b/i;
/** An ALL_CAPS name is taken for a constant (`TABLE`, `COLUMNS`). */
const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

/** The SQL query facts of a parsed JS/TS/Python file (empty when none). */
export async function embeddedSql(root: Node, source: string, language: LanguageId, symbols: SymbolFact[]): Promise<SqlQueryFact[]> {
  const py = language === 'python';
  if (!py && language !== 'typescript' && language !== 'tsx' && language !== 'javascript') return [];
  if (!MENTIONS.test(source)) return [];
  const out: SqlQueryFact[] = [];
  for (const call of root.descendantsOfType(py ? 'call' : 'call_expression')) {
    if (!call) continue;
    const fn = call.childForFieldName('function');
    const args = call.childForFieldName('arguments');
    if (!fn || !args) continue;
    const method = fn.type === 'identifier' ? fn.text : fn.childForFieldName(py ? 'attribute' : 'property')?.text;
    if (!method || !METHODS.has(method)) continue;
    const tagged = args.type === 'template_string';
    const arg = tagged ? args : args.namedChildren.find((c) => c && c.type !== 'comment') ?? null;
    if (!arg) continue;
    const built = sqlText(arg, py);
    if (!built || !LOOKS_SQL.test(built.sql)) continue;
    await loadPgParser();
    let stmts;
    try { stmts = parsePg(built.sql); } catch { continue; }
    const reads = new Set<string>(); const writes = new Set<string>(); const columns = new Set<string>();
    let selectStar = false;
    for (const s of stmts) {
      const a = accessOf(s.stmt);
      a.reads.forEach((t) => reads.add(t)); a.writes.forEach((t) => writes.add(t)); a.columns.forEach((c) => columns.add(c));
      selectStar ||= a.selectStar;
    }
    if (reads.size + writes.size === 0) continue;
    const line = call.startPosition.row + 1;
    const unsafeCall = method.endsWith('Unsafe') || method === 'unsafe';
    const injection = built.spliced.length && (!tagged || unsafeCall) ? built.spliced.join(', ') : undefined;
    const scope = scopeAt(symbols, line);
    // On the node too: the server keeps node attributes, not per-link ones (audit_sql reads these).
    if (scope >= 0 && (injection || selectStar)) {
      const s = symbols[scope]!;
      s.extra = { ...s.extra, ...(injection && !s.extra?.sql_injection ? { sql_injection: `L${line} ${fn.text.length > 60 ? method : fn.text}: ${injection}` } : {}), ...(selectStar ? { sql_select_star: `L${line}` } : {}) };
    }
    out.push({
      scope, line, reads: [...reads].sort(), writes: [...writes].sort(), columns: [...columns].sort(),
      ...(selectStar ? { selectStar } : {}), ...(injection ? { injection } : {}), client: fn.text.length > 60 ? method : fn.text,
    });
  }
  return out;
}

/** The SQL text of a literal / template / concatenation, non-constant parts as `$n`, and those parts' text. */
function sqlText(node: Node, py: boolean): { sql: string; spliced: string[] } | null {
  const spliced: string[] = [];
  const piece = (n: Node): string | null => {
    switch (n.type) {
      case 'string': {
        if (!py) return unquote(n.text);
        // Python: f-strings carry `interpolation` children.
        let text = '';
        for (const c of n.namedChildren) {
          if (!c) continue;
          if (c.type === 'string_content') text += c.text;
          else if (c.type === 'interpolation') text += hole(c.text.slice(1, -1));
        }
        return text;
      }
      case 'template_string': {
        let text = '';
        let at = n.startIndex + 1;
        for (const c of n.namedChildren) {
          if (!c || c.type !== 'template_substitution') continue;
          text += n.text.slice(at - n.startIndex, c.startIndex - n.startIndex);
          const expr = c.namedChildren[0];
          text += expr && isConstant(expr) ? constantText(expr) : hole(c.text.slice(2, -1));
          at = c.endIndex;
        }
        return text + n.text.slice(at - n.startIndex, n.text.length - 1);
      }
      case 'binary_expression': case 'binary_operator': {
        const op = n.childForFieldName('operator')?.text ?? n.children.find((c) => c && !c.isNamed)?.text;
        const l = n.childForFieldName('left');
        const r = n.childForFieldName('right');
        if (!l || !r) return null;
        if (op === '%' && py) { const left = piece(l); return left === null ? null : left.replace(/%s/g, () => hole(r.text)); }
        if (op !== '+') return null;
        const a = piece(l); const b = piece(r);
        return a === null || b === null ? null : a + b;
      }
      case 'parenthesized_expression': { const inner = n.namedChildren[0]; return inner ? piece(inner) : null; }
      case 'concatenated_string': return n.namedChildren.map((c) => (c ? piece(c) ?? '' : '')).join('');
      default: return isConstant(n) ? constantText(n) : hole(n.text);
    }
  };
  const hole = (text: string): string => {
    spliced.push(text.length > 40 ? text.slice(0, 40) + '…' : text);
    return `$${spliced.length}`;
  };
  const sql = piece(node);
  if (sql === null) return null;
  // Client placeholders (`?`, `%s`, `:name`) as PostgreSQL's `$n`, so the text parses; `::type` casts stay.
  let n = spliced.length;
  return { sql: sql.replace(/\$0|%s|\?|(?<!:):[A-Za-z_]\w*/g, () => `$${++n}`), spliced };
}

function isConstant(n: Node): boolean {
  return n.type === 'number' || n.type === 'integer' || n.type === 'float' || (n.type === 'identifier' && CONSTANT_NAME.test(n.text))
    || (n.type === 'string' && !n.namedChildren.some((c) => c?.type === 'interpolation'));
}

/** A constant's SQL: a literal's text; a named constant (value unknown here) a bind placeholder. */
function constantText(n: Node): string {
  return n.type === 'string' ? unquote(n.text) : n.type === 'identifier' ? '$0' : n.text;
}

function unquote(text: string): string {
  return text.length >= 2 ? text.slice(1, -1) : text;
}

/** The innermost symbol whose span holds `line` (-1: top level). */
function scopeAt(symbols: SymbolFact[], line: number): number {
  let best = -1;
  let size = Infinity;
  for (let i = 0; i < symbols.length; i++) {
    const s = symbols[i]!.span;
    if (s.start_line <= line && line <= s.end_line && s.end_line - s.start_line < size) {
      best = i;
      size = s.end_line - s.start_line;
    }
  }
  return best;
}
