/**
 * SQL in Go: the query argument of `database/sql` (`db.Query`, `QueryRow`, `Exec`, `Prepare` and
 * their `...Context` forms), sqlx (`Get`, `Select`, `MustExec`, `Queryx`, `NamedExec`, ...), pgx
 * (`Query`, `QueryRow`, `Exec`, batch `Queue`) and gorm `Raw`. The text may be a literal, a raw
 * string, a `+` concatenation, a `fmt.Sprintf`, or a local / package-level name assigned one of
 * those before the call (`q := fmt.Sprintf(...); db.Query(q)`, `query += " AND ..."`). A
 * non-constant formatted with `%s`/`%v`/`%q` or concatenated is likely injection; `%d` of a value,
 * constants and `?`/`$1`/`:name`/`@name` placeholders are not.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact } from '../facts.ts';
import type { SqlQueryFact } from './facts.ts';
import { clientName, printf, recordQuery, SqlText, unescape, valueOf, type Assignments } from './embedded-common.ts';

const METHODS = new Set([
  'Query', 'QueryRow', 'QueryContext', 'QueryRowContext', 'Exec', 'ExecContext', 'Prepare', 'PrepareContext',
  'Get', 'GetContext', 'Select', 'SelectContext', 'MustExec', 'MustExecContext', 'Queryx', 'QueryRowx', 'QueryxContext',
  'QueryRowxContext', 'NamedExec', 'NamedExecContext', 'NamedQuery', 'NamedQueryContext', 'Preparex', 'PreparexContext',
  'PrepareNamed', 'PrepareNamedContext', 'Queue', 'Raw',
]);
const MENTIONS = /\.(?:Query|Exec|Prepare|Get|Select|MustExec|Named|Queue|Raw)\w*\(/;
/** The query is one of a call's first three arguments (`ctx`, a destination come first). */
const MAX_ARG = 3;
/** Formatting calls whose result is a number's text: cannot carry SQL. */
const NUMERIC_CALLS = /^strconv\.(?:Itoa|FormatInt|FormatUint|FormatFloat|FormatBool)$/;

const GO: Assignments = {
  functions: new Set(['function_declaration', 'method_declaration', 'func_literal']),
  find(scope, name) {
    const out: { node: Node; value: Node; append: boolean }[] = [];
    for (const n of scope.descendantsOfType(['short_var_declaration', 'assignment_statement', 'var_spec', 'const_spec'])) {
      if (!n) continue;
      const spec = n.type === 'var_spec' || n.type === 'const_spec';
      const names = spec ? n.childrenForFieldName('name') : n.childForFieldName('left')?.namedChildren ?? [];
      const i = names.findIndex((x) => x?.text === name);
      if (i < 0) continue;
      const right = n.childForFieldName(spec ? 'value' : 'right');
      const value = right?.type === 'expression_list' ? right.namedChildren[i] : i === 0 ? right : null;
      if (!value) continue;
      const op = n.type === 'assignment_statement' ? n.childForFieldName('operator')?.text ?? n.children.find((c) => c && !c.isNamed)?.text : '=';
      if (op !== '=' && op !== ':=' && op !== '+=' && n.type === 'assignment_statement') continue;
      out.push({ node: n, value, append: op === '+=' });
    }
    return out;
  },
};

/** The SQL query facts of a parsed Go file. */
export async function embeddedGoSql(root: Node, source: string, symbols: SymbolFact[]): Promise<SqlQueryFact[]> {
  if (!MENTIONS.test(source)) return [];
  const out: SqlQueryFact[] = [];
  for (const call of root.descendantsOfType('call_expression')) {
    const fn = call?.childForFieldName('function');
    if (!call || fn?.type !== 'selector_expression') continue;
    const method = fn.childForFieldName('field')?.text;
    if (!method || !METHODS.has(method)) continue;
    const args = call.childForFieldName('arguments')?.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') ?? [];
    for (const arg of args.slice(0, MAX_ARG)) {
      const text = new SqlText();
      const sql = goText(arg, call.startIndex, text, 0);
      if (sql === null || !/^\s*\(?\s*(?:select|insert|update|delete|with|merge)\b/i.test(sql)) continue;
      await recordQuery({ call, client: clientName(fn.text, method), method, sql: text.finish(sql), spliced: text.spliced }, symbols, out);
      break;
    }
  }
  return out;
}

/**
 * The text `n` evaluates to, non-constants as holes; null when it is not string-valued here (a
 * parameter or another file's name as the whole query).
 */
function goText(n: Node, before: number, text: SqlText, depth: number): string | null {
  if (depth > 4) return null;
  const nested = (x: Node): string => goText(x, before, text, depth + 1) ?? (numeric(x) ? text.bind() : text.hole(x.text));
  switch (n.type) {
    case 'interpreted_string_literal': return unescape(n.text.slice(1, -1));
    case 'raw_string_literal': return n.text.slice(1, -1);
    case 'int_literal': case 'float_literal': return n.text;
    case 'parenthesized_expression': { const inner = n.namedChildren[0]; return inner ? goText(inner, before, text, depth) : null; }
    case 'binary_expression': {
      if (n.childForFieldName('operator')?.text !== '+') return null;
      const l = n.childForFieldName('left'); const r = n.childForFieldName('right');
      if (!l || !r) return null;
      const a = goText(l, before, text, depth + 1);
      return a === null ? null : a + nested(r);
    }
    case 'identifier': {
      const values = valueOf(n, before, GO);
      if (!values) return null;
      let out = '';
      for (const v of values) { const t = goText(v, v.startIndex, text, depth + 1); if (t === null) return null; out += t; }
      return out;
    }
    case 'call_expression': {
      const fn = n.childForFieldName('function')?.text ?? '';
      const args = n.childForFieldName('arguments')?.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') ?? [];
      if (fn === 'fmt.Sprintf' && args[0]) {
        const format = goText(args[0], before, text, depth + 1);
        if (format === null) return null;
        return printf(format, args.slice(1), text, (a) => constantText(a, before, depth));
      }
      return null;
    }
    default: return null;
  }
}

/** A constant's text (a literal, a name assigned only literals); null for anything that may vary. */
function constantText(n: Node, before: number, depth: number): string | null {
  if (numeric(n)) return '$0';
  const probe = new SqlText();
  const t = n.type === 'interpreted_string_literal' || n.type === 'raw_string_literal' || n.type === 'int_literal' || n.type === 'identifier' || n.type === 'binary_expression'
    ? goText(n, before, probe, depth + 1) : null;
  return t !== null && probe.spliced.length === 0 ? t : null;
}

/** `strconv.Itoa(n)` and the like: a number's text. */
function numeric(n: Node): boolean {
  return n.type === 'call_expression' && NUMERIC_CALLS.test(n.childForFieldName('function')?.text ?? '');
}
