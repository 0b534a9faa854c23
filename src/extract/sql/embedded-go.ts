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
import { clientName, joinedText, HOLE_NAME, printf, recordQuery, SQL_LITERAL, SqlText, unescape, valueOf, type Assignments } from './embedded-common.ts';

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
const PLACEHOLDER_CALL = /(?:^|\.)\w*[Pp]laceholders?$/;
const NUMERIC_CALLS = /^strconv\.(?:Itoa|FormatInt|FormatUint|FormatFloat|FormatBool)$/;

const GO: Assignments = {
  functions: new Set(['function_declaration', 'method_declaration', 'func_literal']),
  find(scope, name) {
    const out: { node: Node; value: Node | null; append: boolean }[] = [];
    for (const n of scope.descendantsOfType(['short_var_declaration', 'assignment_statement', 'var_spec', 'const_spec'])) {
      if (!n) continue;
      const spec = n.type === 'var_spec' || n.type === 'const_spec';
      const names = spec ? n.childrenForFieldName('name') : n.childForFieldName('left')?.namedChildren ?? [];
      const i = names.findIndex((x) => x?.text === name);
      if (i < 0) continue;
      const right = n.childForFieldName(spec ? 'value' : 'right');
      const value = right?.type === 'expression_list' ? right.namedChildren[i] : i === 0 ? right : null;
      if (!value && !(spec && !right)) continue; // `var q string`: the zero value, ""

      const op = n.type === 'assignment_statement' ? n.childForFieldName('operator')?.text ?? n.children.find((c) => c && !c.isNamed)?.text : '=';
      if (op !== '=' && op !== ':=' && op !== '+=' && n.type === 'assignment_statement') continue;
      out.push({ node: n, value, append: op === '+=' });
    }
    return out;
  },
};

/** The SQL query facts of a parsed Go file. */
export async function embeddedGoSql(root: Node, source: string, symbols: SymbolFact[]): Promise<SqlQueryFact[]> {
  if (!MENTIONS.test(source) || !SQL_LITERAL.test(source)) return [];
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
  if (depth > 8) return null; // names resolved through names (a + chain of any length is one level)
  const nested = (x: Node): string => goText(x, before, text, depth) ?? quoted(x) ?? text.hole(x.text);
  const joined = joinedText(n, (x) => goText(x, before, text, depth), nested);
  if (joined !== undefined) return joined;
  switch (n.type) {
    case 'interpreted_string_literal': return unescape(n.text.slice(1, -1));
    case 'raw_string_literal': return n.text.slice(1, -1);
    case 'int_literal': case 'float_literal': return n.text;
    case 'identifier': {
      const values = valueOf(n, before, GO);
      if (!values) return null;
      let out = '';
      for (const v of values) { const t = v ? goText(v, v.startIndex, text, depth + 1) : ''; if (t === null) return null; out += t; }
      return out;
    }
    case 'call_expression': {
      const fn = n.childForFieldName('function')?.text ?? '';
      const args = n.childForFieldName('arguments')?.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') ?? [];
      const q = quoted(n);
      if (q !== null) return q;
      if (fn === 'fmt.Sprintf' && args[0]) {
        const format = goText(args[0], before, text, depth + 1);
        if (format === null) return null;
        return printf(format, args.slice(1), text, (a) => constantText(a, before, depth));
      }
      if (fn === 'strings.Join' && args[0]) return listText(args[0], text, depth + 1);
      // A query builder's own method that returns one expression (`e.buildCondition()`).
      const callee = n.childForFieldName('function');
      const bodies = callee?.type === 'selector_expression' ? returnedBy(rootOf(n), callee.childForFieldName('field')?.text ?? '')
        : callee?.type === 'identifier' ? returnedBy(rootOf(n), callee.text) : [];
      // Several returns: the first's text when none splices anything, else a hole of the call.
      let first: string | null = null;
      for (const b of bodies) {
        const probe = new SqlText();
        const t = goText(b, b.startIndex, probe, depth + 1);
        if (t === null || probe.spliced.length) return bodies.length === 1 && t !== null ? goText(b, b.startIndex, text, depth + 1) : null;
        first ??= t;
      }
      return first;
    }
    default: return null;
  }
}

/** A constant's text (a literal, a name assigned only literals); null for anything that may vary. */
function constantText(n: Node, before: number, depth: number): string | null {
  const q = quoted(n);
  if (q !== null) return q;
  const probe = new SqlText();
  const t = n.type === 'interpreted_string_literal' || n.type === 'raw_string_literal' || n.type === 'int_literal' || n.type === 'identifier' || n.type === 'binary_expression' || n.type === 'call_expression'
    ? goText(n, before, probe, depth + 1) : null;
  return t !== null && probe.spliced.length === 0 ? t : null;
}

/**
 * The text of a value that is safe to splice whatever it holds: a number's text (`strconv.Itoa(n)`),
 * a quoted literal (`pq.QuoteLiteral(s)`: a placeholder) or identifier (`pq.QuoteIdentifier(c)`,
 * `pgx.Identifier{...}.Sanitize()`: a name); null otherwise.
 */
function quoted(n: Node): string | null {
  if (n.type !== 'call_expression') return null;
  const fn = n.childForFieldName('function')?.text ?? '';
  // `placeholders(len(args))`, `db.Placeholder(1)`: helpers that print bind markers.
  if (NUMERIC_CALLS.test(fn) || fn === 'pq.QuoteLiteral' || PLACEHOLDER_CALL.test(fn)) return '$0';
  return fn === 'pq.QuoteIdentifier' || /^pgx\.Identifier\{[\s\S]*\}\.Sanitize$/.test(fn) ? `${HOLE_NAME}0` : null;
}

function rootOf(n: Node): Node {
  let r = n;
  while (r.parent) r = r.parent;
  return r;
}

/** The returned expressions of this file's method or function `name` ([] when not here, or one returns several values). */
function returnedBy(root: Node, name: string): Node[] {
  if (!name) return [];
  for (const d of root.namedChildren) {
    if (!d || (d.type !== 'method_declaration' && d.type !== 'function_declaration') || d.childForFieldName('name')?.text !== name) continue;
    const out: Node[] = [];
    for (const r of d.childForFieldName('body')?.descendantsOfType('return_statement') ?? []) {
      const list = r?.namedChildren[0];
      if (list?.type !== 'expression_list' || list.namedChildCount !== 1) return [];
      out.push(list.namedChildren[0]!);
    }
    return out;
  }
  return [];
}

/**
 * `strings.Join(conds, " AND ")` of a list this file fills (`conds = append(conds, "a = $1")`,
 * `b.conds = append(b.conds, ...)`, `[]string{...}`, in any function): the first element's text when
 * every element is constant, else a hole of the first one that is not; null when nothing fills it here.
 */
function listText(list: Node, text: SqlText, depth: number): string | null {
  const field = list.type === 'selector_expression' ? list.childForFieldName('field')?.text : list.type === 'identifier' ? list.text : undefined;
  if (!field || depth > 8) return null;
  const same = (x: Node | null | undefined): boolean => !!x && (list.type === 'selector_expression' ? x.type === 'selector_expression' && x.childForFieldName('field')?.text === field : x.type === 'identifier' && x.text === field);
  const values: Node[] = [];
  // A local list: its own function's appends; a field (`b.conds`): the whole file's.
  let scope: Node | null = list.type === 'identifier' ? list.parent : null;
  while (scope && !GO.functions.has(scope.type)) scope = scope.parent;
  for (const a of (scope ?? rootOf(list)).descendantsOfType(['assignment_statement', 'short_var_declaration'])) {
    const left = a?.childForFieldName('left')?.namedChildren ?? [];
    const right = a?.childForFieldName('right')?.namedChildren ?? [];
    const i = left.findIndex((x) => same(x));
    if (i < 0 || left.length !== right.length) continue;
    const v = right[i]!;
    const args = v.type === 'call_expression' && v.childForFieldName('function')?.text === 'append' ? v.childForFieldName('arguments')?.namedChildren ?? [] : null;
    if (v.type === 'call_expression' && v.childForFieldName('function')?.text === 'make') continue; // an empty list
    if (args && same(args[0])) values.push(...args.slice(1).filter((x): x is Node => !!x && x.type !== 'variadic_argument'));
    else if (v.type === 'composite_literal') values.push(...(v.childForFieldName('body')?.namedChildren ?? []).map((e) => e?.namedChildren[0] ?? e).filter((x): x is Node => !!x));
    else return null;
  }
  // `counterConditions: []string{"e.user_id = $1"}` in a struct literal.
  for (const k of rootOf(list).descendantsOfType('keyed_element')) {
    const [key, value] = [k?.namedChildren[0], k?.namedChildren[k.namedChildCount - 1]];
    const lit = value?.type === 'literal_element' ? value.namedChildren[0] : value;
    if (key?.text === field && lit?.type === 'composite_literal') values.push(...(lit.childForFieldName('body')?.namedChildren ?? []).map((e) => e?.namedChildren[0] ?? e).filter((x): x is Node => !!x));
  }
  if (!values.length) return null;
  let first: string | null = null;
  for (const v of values) {
    const c = constantText(v, v.startIndex, depth);
    if (c === null) return text.hole(v.text);
    first ??= c;
  }
  return first;
}
