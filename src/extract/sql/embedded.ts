/**
 * SQL in code: string and template literals passed to database clients' query calls (`pg`/`mysql2`
 * `query`/`execute`, `postgres` `unsafe`, better-sqlite3 `prepare`/`exec`, Prisma `$queryRaw*` /
 * `$executeRaw*`, knex `raw`; Python `execute`/`executemany`/SQLAlchemy `text`; Go and Java in
 * embedded-go.ts / embedded-java.ts). Each becomes a SqlQueryFact: the tables read and written, the
 * columns filtered on, and -- when a non-constant is spliced into the text by interpolation, `+`,
 * `%` or `.format` -- why it looks injectable. Tagged templates (`` sql`...${x}` ``,
 * `` $queryRaw`...` ``) bind their values as parameters and are not injectable.
 * Cost: one `descendantsOfType` walk, only for files whose text names a client method.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolFact } from '../facts.ts';
import type { LanguageId } from '../languages.ts';
import type { SqlQueryFact } from './facts.ts';
import { CONSTANT_NAME, clientName, printf, recordQuery, SqlText } from './embedded-common.ts';
import { embeddedGoSql } from './embedded-go.ts';
import { embeddedJavaSql } from './embedded-java.ts';
import { nPlusOne, type ReadCall } from './n-plus-one.ts';

const METHODS = new Set(['query', 'execute', 'executemany', 'exec', 'prepare', 'raw', 'unsafe', 'text',
  '$queryRaw', '$queryRawUnsafe', '$executeRaw', '$executeRawUnsafe']);
const MENTIONS = /\b(?:query|execute|executemany|exec|prepare|raw|unsafe|text)\s*\(|\$(?:query|execute)Raw/;

/** The SQL query facts of a parsed file (empty when none, or not a language with SQL clients here). */
export async function embeddedSql(root: Node, source: string, language: LanguageId, symbols: SymbolFact[]): Promise<SqlQueryFact[]> {
  if (language === 'go') return embeddedGoSql(root, source, symbols);
  if (language === 'java') return embeddedJavaSql(root, source, symbols);
  const py = language === 'python';
  if (!py && language !== 'typescript' && language !== 'tsx' && language !== 'javascript') return [];
  if (!MENTIONS.test(source)) return [];
  const out: SqlQueryFact[] = [];
  const read: (ReadCall & { fact: SqlQueryFact })[] = [];
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
    const text = new SqlText();
    const sql = sqlText(arg, py, text);
    if (sql === null) continue;
    const unsafeCall = method.endsWith('Unsafe') || method === 'unsafe';
    const before = out.length;
    await recordQuery({ call, client: clientName(fn.text, method), method, sql: text.finish(sql), spliced: text.spliced, bound: tagged && !unsafeCall }, symbols, out);
    const fact = out[before];
    if (fact) read.push({ call, tables: [...new Set([...fact.writes, ...fact.reads])], fact });
  }
  // N+1: a query in a loop over another query's rows, kept with the statement checks (audit_sql reads them).
  for (const { inner, outer } of read.length > 1 ? nPlusOne(read) : []) {
    const s = symbols[(inner as (typeof read)[number]).fact.scope];
    if (!s) continue;
    const entry = `L${inner.call.startPosition.row + 1} n_plus_one ${inner.tables.join(',')} ${outer.tables.join(',')}`;
    const prior = typeof s.extra?.sql_checks === 'string' ? s.extra.sql_checks + '\n' : '';
    s.extra = { ...s.extra, sql_checks: prior + entry };
  }
  return out;
}

/** The SQL text of a literal / template / concatenation / Python `%` or `.format`, non-constant parts as holes. */
function sqlText(node: Node, py: boolean, text: SqlText): string | null {
  const piece = (n: Node): string | null => {
    switch (n.type) {
      case 'string': {
        if (!py) return unquote(n.text);
        // Python: f-strings carry `interpolation` children.
        let out = '';
        for (const c of n.namedChildren) {
          if (!c) continue;
          if (c.type === 'string_content') out += c.text;
          else if (c.type === 'interpolation') out += text.hole(c.text.slice(1, -1));
        }
        return out;
      }
      case 'template_string': {
        let out = '';
        let at = n.startIndex + 1;
        for (const c of n.namedChildren) {
          if (!c || c.type !== 'template_substitution') continue;
          out += n.text.slice(at - n.startIndex, c.startIndex - n.startIndex);
          const expr = c.namedChildren[0];
          out += expr && isConstant(expr) ? constantText(expr) : text.hole(c.text.slice(2, -1));
          at = c.endIndex;
        }
        return out + n.text.slice(at - n.startIndex, n.text.length - 1);
      }
      case 'binary_expression': case 'binary_operator': {
        const op = n.childForFieldName('operator')?.text ?? n.children.find((c) => c && !c.isNamed)?.text;
        const l = n.childForFieldName('left');
        const r = n.childForFieldName('right');
        if (!l || !r) return null;
        if (op === '%' && py) {
          const left = piece(l);
          if (left === null) return null;
          // `"... %s ... %s" % (a, b)`: one value per verb; a dict (`%(name)s`) or other value: one hole.
          const values = r.type === 'tuple' || r.type === 'parenthesized_expression' ? r.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') : [r];
          if (r.type === 'dictionary' || /%\(\w+\)/.test(left)) return left.replace(/%\(\w+\)[a-z]/g, () => text.hole(r.text));
          return printf(left, values, text, constantPiece);
        }
        if (op !== '+') return null;
        const a = piece(l); const b = piece(r);
        return a === null || b === null ? null : a + b;
      }
      case 'parenthesized_expression': { const inner = n.namedChildren[0]; return inner ? piece(inner) : null; }
      case 'concatenated_string': return n.namedChildren.map((c) => (c ? piece(c) ?? '' : '')).join('');
      case 'call': {
        // Python `"... {} ... {name}".format(a, name=b)`.
        const fn = n.childForFieldName('function');
        const object = fn?.type === 'attribute' ? fn.childForFieldName('object') : null;
        if (py && object?.type === 'string' && fn?.childForFieldName('attribute')?.text === 'format') {
          const format = piece(object);
          if (format === null) return null;
          const args = n.childForFieldName('arguments')?.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') ?? [];
          const positional = args.filter((a) => a.type !== 'keyword_argument');
          const named = new Map(args.filter((a) => a.type === 'keyword_argument').map((a) => [a.childForFieldName('name')?.text ?? '', a.childForFieldName('value')]));
          let next = 0;
          return format.replace(/\{\{|\}\}|\{([^{}!:]*)(?:![rsa])?(?::[^{}]*)?\}/g, (m, key: string) => {
            if (m === '{{') return '{';
            if (m === '}}') return '}';
            const arg = key === '' ? positional[next++] : /^\d+$/.test(key) ? positional[Number(key)] : named.get(key.split(/[.[]/)[0]!);
            if (!arg) return text.bind();
            return constantPiece(arg) ?? text.hole(arg.text);
          });
        }
        return isConstant(n) ? constantText(n) : text.hole(n.text);
      }
      default: return isConstant(n) ? constantText(n) : text.hole(n.text);
    }
  };
  const constantPiece = (n: Node): string | null => (isConstant(n) ? constantText(n) : null);
  return piece(node);
}

function isConstant(n: Node): boolean {
  return n.type === 'number' || n.type === 'integer' || n.type === 'float' || (n.type === 'identifier' && CONSTANT_NAME.test(n.text))
    || (n.type === 'string' && !n.namedChildren.some((c) => c?.type === 'interpolation'));
}

/** A constant's SQL: a literal's text; a named constant (value unknown here) a bind placeholder. */
function constantText(n: Node): string {
  if (n.type !== 'string') return n.type === 'identifier' ? '$0' : n.text;
  // A Python string's content (prefixes and triple quotes stripped), a JS literal's inside.
  const content = n.namedChildren.filter((c) => c?.type === 'string_content');
  return content.length ? content.map((c) => c!.text).join('') : unquote(n.text);
}

function unquote(text: string): string {
  return text.length >= 2 ? text.slice(1, -1) : text;
}
