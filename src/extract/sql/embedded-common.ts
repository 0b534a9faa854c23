/**
 * What the per-language embedded-SQL readers (embedded.ts: TS/JS/Python, embedded-go.ts,
 * embedded-java.ts) share: building a query's text with its non-constant parts as holes, printf-style
 * formatting (Go `fmt.Sprintf`, Java `String.format`, Python `%`), finding the value a local name was
 * assigned just before the call, and turning the text into a SqlQueryFact (plus the node attributes
 * audit_sql reads).
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact } from '../facts.ts';
import type { SqlQueryFact } from './facts.ts';
import { accessOf, loadPgParser, parsePg } from './pg-ast.ts';
import { parseQuery } from './dialect.ts';
import { checkStatement } from './statement-checks.ts';

/**
 * A string literal that starts like a query (after quotes, whitespace, a parenthesis). Go and Java
 * build query text only from literals of the same file, so a file without one has no query: the
 * per-file test that keeps their readers off most files.
 */
export const SQL_LITERAL = /["`]\s*\(?\s*(?:select|insert|update|delete|with|merge)\b/i;
export const LOOKS_SQL = /^\s*\(?\s*(?:select|insert|update|delete|with|merge)\b/i;
/** An ALL_CAPS name is taken for a constant (`TABLE`, `COLUMNS`). */
export const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/;

/** The text of one query being built: non-constant parts become `$n` holes, their source text kept. */
export class SqlText {
  readonly spliced: string[] = [];
  private binds = 0;
  /** A non-constant spliced into the text (likely injection). */
  hole(text: string): string {
    this.spliced.push(text.length > 40 ? text.slice(0, 40) + '…' : text);
    return `$${this.spliced.length}`;
  }
  /** A value that cannot carry SQL (a number formatted with `%d`, a named constant): a placeholder. */
  bind(): string {
    this.binds++;
    return '$0';
  }
  /** The final text: client placeholders (`?`, `%s`, `%(name)s`, `:name`, `@name`, `$0`) as PostgreSQL's `$n`, so it parses; `::type` casts stay. */
  finish(sql: string): string {
    let n = this.spliced.length;
    // `"$" + strconv.Itoa(i)`: a placeholder's number made at run time.
    return sql.replace(/\$\$0/g, () => '$1').replace(/\$0|%(?:\(\w+\))?s|\?|(?<!:):[A-Za-z_]\w*|(?<![@\w])@[A-Za-z_]\w*/g, () => `$${++n}`);
  }
}

/** printf verbs that format a number or boolean: the value cannot carry SQL syntax. */
const NUMERIC_VERB = /[dibouxXeEfFgGt]$/;
const VERB = /%%|%[-+ #0-9.*]*[a-zA-Z]/g;

/**
 * `format` with each printf verb replaced by its argument: `piece(arg)` when it is a constant (null:
 * not one), a placeholder for a numeric verb, a hole otherwise. `%%` is `%`.
 */
export function printf(format: string, args: (Node | undefined)[], text: SqlText, constant: (n: Node) => string | null): string {
  let i = 0;
  return format.replace(VERB, (verb, at: number) => {
    if (verb === '%%') return '%';
    const arg = args[i++];
    // `$%d`: a placeholder's number (`$1`), whatever the value.
    if (format[at - 1] === '$' && NUMERIC_VERB.test(verb)) return '1';
    if (!arg) return text.bind();
    const c = constant(arg);
    if (c !== null) return c;
    return NUMERIC_VERB.test(verb) ? text.bind() : text.hole(arg.text);
  });
}

/** Go / Java / Python string escapes in a quoted literal's body (enough for SQL text). */
export function unescape(body: string): string {
  return body.includes('\\') ? body.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '' : c)) : body;
}

/** How a language assigns a name: the assignments to `name` under `scope`, in source order. */
/**
 * `(x)` and `a + b` of a string expression, the same in Go and Java: the joined text (`self` for
 * the left side and the inner one, `nested` for a right side that may be a hole); null when it is
 * not string-valued; undefined when `n` is neither form.
 */
export function joinedText(n: Node, self: (x: Node) => string | null, nested: (x: Node) => string): string | null | undefined {
  if (n.type === 'parenthesized_expression') { const inner = n.namedChildren[0]; return inner ? self(inner) : null; }
  if (n.type !== 'binary_expression') return undefined;
  if (n.childForFieldName('operator')?.text !== '+') return null;
  const l = n.childForFieldName('left'); const r = n.childForFieldName('right');
  if (!l || !r) return null;
  const a = self(l);
  return a === null ? null : a + nested(r);
}

export interface Assignments {
  /** Node types that open a function body (the scope a local lives in). */
  functions: ReadonlySet<string>;
  /** `{value, append}` for each assignment to `name` under `scope` (`append`: `+=`; value null: declared without one, the zero value ""). */
  find(scope: Node, name: string): { node: Node; value: Node | null; append: boolean }[];
}

/**
 * The value(s) `id` holds at `before` (a byte offset): the last plain assignment in its function
 * before that point and the `+=` appends after it, else the file's top-level one; null when it is
 * not assigned here (a parameter, another file's name).
 */
export function valueOf(id: Node, before: number, lang: Assignments): (Node | null)[] | null {
  let fn: Node | null = id.parent;
  while (fn && !lang.functions.has(fn.type)) fn = fn.parent;
  const pick = (list: { node: Node; value: Node | null; append: boolean }[]): (Node | null)[] | null => {
    const prior = list.filter((a) => a.node.endIndex <= before);
    let start = -1;
    for (let i = prior.length - 1; i >= 0; i--) if (!prior[i]!.append) { start = i; break; }
    return start < 0 ? null : prior.slice(start).map((a) => a.value);
  };
  // One scan per function (or file) and name: a file's query calls ask for the same few names.
  let names = scans.get(id.tree);
  if (!names) scans.set(id.tree, (names = new Map()));
  if (fn) {
    const key = `${fn.id}:${id.text}`;
    let list = names.get(key);
    if (!list) names.set(key, (list = lang.find(fn, id.text)));
    const local = pick(list);
    if (local) return local;
  }
  let root: Node = id;
  while (root.parent) root = root.parent;
  // Top level only: a name assigned in some other function is not this one.
  let list = names.get(id.text);
  if (!list) {
    list = lang.find(root, id.text).filter((a) => { let p = a.node.parent; while (p && !lang.functions.has(p.type)) p = p.parent; return !p; });
    names.set(id.text, list);
  }
  return pick(list);
}
const scans = new WeakMap<object, Map<string, { node: Node; value: Node | null; append: boolean }[]>>();

/** A query call's text, ready to parse. */
export interface BuiltQuery {
  call: Node;
  /** The client call as written (shortened to the method when long). */
  client: string;
  method: string;
  sql: string;
  /** The non-constant parts spliced into the text ([] when none); `bound`: they are bound as parameters after all (tagged templates). */
  spliced: string[];
  bound?: boolean;
}

/** The name a hole is read as where a name goes (never a table or column of the result). */
export const HOLE_NAME = 'synaptic_hole_';

/** Parses a built query; pushes its fact and marks the enclosing symbol (`sql_injection`, `sql_select_star`). */
export async function recordQuery(q: BuiltQuery, symbols: SymbolFact[], out: SqlQueryFact[]): Promise<void> {
  if (!LOOKS_SQL.test(q.sql)) return;
  await loadPgParser();
  let stmts;
  try { stmts = parsePg(q.sql); } catch {
    // MySQL / SQLite syntax (backticks, AUTO_INCREMENT, ...): that dialect's parser (dialect.ts).
    const other = await parseQuery(q.sql, undefined);
    if (other) stmts = other;
    else {
      // A hole where a name goes (`FROM " + table`, `FROM users " + where`): read the holes as names.
      if (!q.spliced.length) return;
      try { stmts = parsePg(q.sql.replace(/\$(\d+)/g, (m, k: string) => (Number(k) <= q.spliced.length ? `${HOLE_NAME}${k}` : m))); } catch { return; }
    }
  }
  const reads = new Set<string>(); const writes = new Set<string>(); const columns = new Set<string>();
  const add = (set: Set<string>, names: string[]) => { for (const x of names) if (!x.startsWith(HOLE_NAME)) set.add(x); };
  let selectStar = false;
  const line = q.call.startPosition.row + 1;
  const checks: string[] = [];
  for (const s of stmts) {
    const a = accessOf(s.stmt);
    add(reads, a.reads); add(writes, a.writes); add(columns, a.columns);
    selectStar ||= a.selectStar;
    checks.push(...statementChecks(s.stmt, line));
  }
  if (reads.size + writes.size === 0) return;
  const injection = q.spliced.length && !q.bound ? q.spliced.join(', ') : undefined;
  const scope = scopeAt(symbols, line);
  // On the node too: the server keeps node attributes, not per-link ones (audit_sql reads these).
  if (scope >= 0 && (injection || selectStar || checks.length)) {
    const s = symbols[scope]!;
    const prior = typeof s.extra?.sql_checks === 'string' ? s.extra.sql_checks.split('\n') : [];
    const merged = [...new Set([...prior, ...checks])].join('\n');
    s.extra = {
      ...s.extra, ...(injection && !s.extra?.sql_injection ? { sql_injection: `L${line} ${q.client}: ${injection}` } : {}), ...(selectStar ? { sql_select_star: `L${line}` } : {}),
      ...(merged ? { sql_checks: merged } : {}),
    };
  }
  out.push({
    scope, line, reads: [...reads].sort(), writes: [...writes].sort(), columns: [...columns].sort(),
    ...(selectStar ? { selectStar } : {}), ...(injection ? { injection } : {}), client: q.client,
  });
}

/**
 * A statement's raw checks for audit_sql (query/sql-audit.ts reads them against the schema), one
 * line each, starting with `L<line>`: `L7 filter <table> <col,col>` (columns compared directly in
 * WHERE / ON, by table), `L7 non_sargable <table|-> <column> <expr>`, `L7 leading_wildcard <table|-> <column> <pattern>`.
 * Unqualified columns of a multi-table statement are left out (no schema here to say whose they are).
 */
export function statementChecks(stmt: Record<string, any>, line: number): string[] {
  const shape = checkStatement(stmt);
  const out: string[] = [];
  const byTable = new Map<string, string[]>();
  const flat = (x: string): string => x.replace(/\s+/g, ' ');
  for (const f of shape.filters) {
    if (!f.table || f.table.startsWith(HOLE_NAME) || f.column.startsWith(HOLE_NAME)) continue;
    (byTable.get(f.table) ?? byTable.set(f.table, []).get(f.table)!).push(f.column);
  }
  for (const [t, cols] of byTable) out.push(`L${line} filter ${t} ${cols.join(',')}`);
  for (const i of shape.issues) {
    if (i.kind === 'no_where' || i.use.table?.startsWith(HOLE_NAME)) continue;
    out.push(`L${line} ${i.kind} ${i.use.table ?? '-'} ${i.use.column} ${flat(i.kind === 'non_sargable' ? i.expr : i.pattern)}`);
  }
  return out;
}

/** The callee as written, or just the method when that is long (a chained builder). */
export function clientName(fnText: string, method: string): string {
  return fnText.length > 60 ? method : fnText.replace(/\s+/g, '');
}

/** The innermost symbol whose span holds `line` (-1: top level). */
export function scopeAt(symbols: SymbolFact[], line: number): number {
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
