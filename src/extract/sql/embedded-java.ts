/**
 * SQL in Java: JDBC (`Statement.executeQuery` / `executeUpdate` / `execute` / `addBatch`,
 * `Connection.prepareStatement` / `prepareCall`), Spring `JdbcTemplate` / `NamedParameterJdbcTemplate`
 * (`query`, `queryForObject`, `queryForList`, `update`, `batchUpdate`, ...), `JdbcClient.sql` and JPA
 * `createNativeQuery`. The first argument may be a literal, a text block, a `+` concatenation, a
 * `String.format` / `.formatted`, or a local variable / field assigned one of those (`sql += " AND
 * ..."` appends). A non-constant concatenated or formatted with `%s` is likely injection; ALL_CAPS
 * constants, final fields holding literals and `?` / `:name` placeholders are not.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact } from '../facts.ts';
import type { SqlQueryFact } from './facts.ts';
import { CONSTANT_NAME, clientName, joinedText, LOOKS_SQL, printf, recordQuery, SQL_LITERAL, SqlText, unescape, valueOf, type Assignments } from './embedded-common.ts';

const METHODS = new Set([
  'executeQuery', 'executeUpdate', 'executeLargeUpdate', 'execute', 'addBatch', 'prepareStatement', 'prepareCall',
  'query', 'queryForObject', 'queryForList', 'queryForMap', 'queryForRowSet', 'queryForStream', 'queryForLong', 'queryForInt',
  'update', 'batchUpdate', 'createNativeQuery', 'sql',
]);
const MENTIONS = /\b(?:execute\w*|addBatch|prepare(?:Statement|Call)|query\w*|update|batchUpdate|createNativeQuery|sql)\s*\(/;

const JAVA: Assignments = {
  functions: new Set(['method_declaration', 'constructor_declaration', 'lambda_expression', 'static_initializer']),
  find(scope, name) {
    const out: { node: Node; value: Node; append: boolean }[] = [];
    for (const n of scope.descendantsOfType(['variable_declarator', 'assignment_expression'])) {
      if (!n) continue;
      if (n.type === 'variable_declarator') {
        const value = n.childForFieldName('value');
        if (n.childForFieldName('name')?.text === name && value) out.push({ node: n, value, append: false });
        continue;
      }
      const op = n.childForFieldName('operator')?.text;
      const value = n.childForFieldName('right');
      const left = n.childForFieldName('left');
      const target = left?.type === 'field_access' ? left.childForFieldName('field')?.text : left?.text;
      if (target === name && value && (op === '=' || op === '+=')) out.push({ node: n, value, append: op === '+=' });
    }
    return out;
  },
};

/** The SQL query facts of a parsed Java file. */
export async function embeddedJavaSql(root: Node, source: string, symbols: SymbolFact[]): Promise<SqlQueryFact[]> {
  if (!MENTIONS.test(source) || !SQL_LITERAL.test(source)) return [];
  const out: SqlQueryFact[] = [];
  for (const call of root.descendantsOfType('method_invocation')) {
    const method = call?.childForFieldName('name')?.text;
    if (!call || !method || !METHODS.has(method)) continue;
    const arg = call.childForFieldName('arguments')?.namedChildren.find((c) => c && c.type !== 'line_comment' && c.type !== 'block_comment');
    if (!arg) continue;
    const text = new SqlText();
    const sql = javaText(arg, call.startIndex, text, 0);
    if (sql === null || !LOOKS_SQL.test(sql)) continue;
    const object = call.childForFieldName('object');
    const callee = object ? `${object.text}.${method}` : method;
    await recordQuery({ call, client: clientName(callee, method), method, sql: text.finish(sql), spliced: text.spliced }, symbols, out);
  }
  return out;
}

/** A Java string literal's value (`"..."` or a `"""` text block). */
function literal(n: Node): string {
  const t = n.text;
  return t.startsWith('"""') ? t.slice(3, -3) : unescape(t.slice(1, -1));
}

/** The text `n` evaluates to, non-constants as holes; null when it is not string-valued here. */
function javaText(n: Node, before: number, text: SqlText, depth: number): string | null {
  if (depth > 4) return null; // names resolved through names (a + chain of any length is one level)
  const nested = (x: Node): string => javaText(x, before, text, depth) ?? (constantName(x) ? text.bind() : text.hole(x.text));
  const joined = joinedText(n, (x) => javaText(x, before, text, depth), nested);
  if (joined !== undefined) return joined;
  switch (n.type) {
    case 'string_literal': return literal(n);
    case 'decimal_integer_literal': case 'decimal_floating_point_literal': return n.text;
    case 'identifier': case 'field_access': {
      const id = n.type === 'field_access' ? n.childForFieldName('field') : n;
      // `this.sql` / `Queries.FIND`: the field of this file, if it is one.
      if (!id || (n.type === 'field_access' && n.childForFieldName('object')?.type !== 'this' && !CONSTANT_NAME.test(id.text))) return null;
      const values = valueOf(id, before, JAVA);
      if (!values) return null;
      let out = '';
      for (const v of values) { const t = v ? javaText(v, v.startIndex, text, depth + 1) : null; if (t === null) return null; out += t; }
      return out;
    }
    case 'method_invocation': {
      const name = n.childForFieldName('name')?.text;
      const object = n.childForFieldName('object');
      const args = n.childForFieldName('arguments')?.namedChildren.filter((c): c is Node => !!c && !c.type.endsWith('comment')) ?? [];
      // String.format("...%s", x) and "...%s".formatted(x).
      const format = name === 'format' && object?.text === 'String' && args[0] ? args[0] : name === 'formatted' && object ? object : null;
      if (!format) return null;
      const f = javaText(format, before, text, depth + 1);
      if (f === null) return null;
      return printf(f, format === object ? args : args.slice(1), text, (a) => constantText(a, before, depth));
    }
    default: return null;
  }
}

/** `PAGE_SIZE`, `Limits.MAX`: an ALL_CAPS name is a constant even when its value is elsewhere. */
function constantName(n: Node): boolean {
  const id = n.type === 'field_access' ? n.childForFieldName('field') : n;
  return !!id && (id.type === 'identifier') && CONSTANT_NAME.test(id.text);
}

/** A constant's text (a literal, a name assigned only literals, an ALL_CAPS name); null for anything that may vary. */
function constantText(n: Node, before: number, depth: number): string | null {
  const probe = new SqlText();
  const t = javaText(n, before, probe, depth + 1);
  if (t !== null) return probe.spliced.length === 0 ? t : null;
  return constantName(n) ? '$0' : null;
}
