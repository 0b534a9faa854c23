/**
 * N+1 queries in TS/JS and Python: a query call inside a loop (for / for-of / while, a `forEach` /
 * `map` / ... callback, a Python comprehension) whose iterated expression holds the rows of another
 * query call of the same function -- the call itself (`for (const r of (await db.query(q)).rows)`),
 * a name assigned from it (`const { rows } = await db.query(q)`), or in Python the cursor it ran on
 * (`cur.execute(q)` then `for r in cur.fetchall()` / `for r in cur`). Runs after the file's query
 * calls are read (embedded.ts), over those calls only.
 */
import type { Node } from 'web-tree-sitter';

/** A query call of the file, with the tables it names. */
export interface ReadCall { call: Node; tables: string[] }

/** An inner query and the query whose rows its loop walks. */
export interface NPlusOne { inner: ReadCall; outer: ReadCall }

const FUNCTIONS = new Set(['function_declaration', 'function_expression', 'function', 'arrow_function', 'method_definition',
  'generator_function_declaration', 'generator_function', 'function_definition', 'lambda']);
const ITERATORS = new Set(['forEach', 'map', 'flatMap', 'filter', 'reduce', 'some', 'every', 'find']);
const COMPREHENSIONS = new Set(['list_comprehension', 'generator_expression', 'set_comprehension', 'dictionary_comprehension']);
const FETCHES = new Set(['fetchall', 'fetchmany', 'fetchone', 'all', 'scalars', 'mappings']);

const inside = (outer: Node, n: Node): boolean => outer.startIndex <= n.startIndex && n.endIndex <= outer.endIndex;

/** The loops around `call` up to its function, each as [loop node, its iterated / tested expressions]. */
function loopsAround(call: Node): { loop: Node; heads: Node[]; scope: Node }[] {
  const found: { loop: Node; heads: Node[] }[] = [];
  let n: Node | null = call.parent;
  let scope: Node | null = null;
  while (n) {
    const body = n.childForFieldName('body');
    if ((n.type === 'for_in_statement' || (n.type === 'for_statement' && n.childForFieldName('right'))) && body && inside(body, call)) {
      found.push({ loop: n, heads: [n.childForFieldName('right')!] });
    } else if ((n.type === 'for_statement' || n.type === 'while_statement' || n.type === 'do_statement') && body && inside(body, call)) {
      const c = n.childForFieldName('condition');
      if (c) found.push({ loop: n, heads: [c] });
    } else if (COMPREHENSIONS.has(n.type) && body && inside(body, call)) {
      const heads = n.namedChildren.filter((c) => c?.type === 'for_in_clause').map((c) => c!.childForFieldName('right')).filter((c): c is Node => !!c);
      found.push({ loop: n, heads });
    } else if (FUNCTIONS.has(n.type)) {
      // A callback of `rows.forEach(...)` / `rows.map(...)` loops over `rows`, in the same function.
      const iterated = n.parent?.type === 'arguments' ? n.parent.parent : null;
      const fn = iterated?.type === 'call_expression' ? iterated.childForFieldName('function') : null;
      const prop = fn?.type === 'member_expression' ? fn.childForFieldName('property')?.text : undefined;
      if (!iterated || !prop || !ITERATORS.has(prop)) { scope = n; break; }
      found.push({ loop: iterated, heads: [fn!.childForFieldName('object')!] });
      n = iterated;
    }
    n = n.parent;
  }
  if (!scope) { scope = call; while (scope.parent) scope = scope.parent; }
  return found.map((f) => ({ ...f, scope: scope! }));
}

/** The names an expression reads (identifiers, not property names). */
function namesIn(n: Node, out = new Set<string>()): Set<string> {
  if (n.type === 'identifier') out.add(n.text);
  for (const c of n.namedChildren) if (c && c.type !== 'property_identifier' && !(n.type === 'attribute' && c === n.childForFieldName('attribute'))) namesIn(c, out);
  return out;
}

/** The receiver of a method call (`cur` of `cur.execute(...)`), as written. */
function receiver(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  return fn?.childForFieldName('object')?.text;
}

/** `R.fetchall()` and the like, or `R` itself: the rows of the query last run on cursor R (Python). */
function cursorOf(n: Node): string {
  if (n.type === 'call') {
    const fn = n.childForFieldName('function');
    if (fn?.type === 'attribute' && FETCHES.has(fn.childForFieldName('attribute')?.text ?? '')) return fn.childForFieldName('object')!.text;
  }
  return n.text;
}

/** Values assigned to `name` under `scope` before `before` (TS declarators and assignments, Python assignments). */
function valuesOf(scope: Node, name: string, before: number): Node[] {
  const out: Node[] = [];
  for (const d of scope.descendantsOfType(['variable_declarator', 'assignment_expression', 'assignment'])) {
    if (!d || d.endIndex > before) continue;
    const target = d.childForFieldName(d.type === 'variable_declarator' ? 'name' : 'left');
    const value = d.childForFieldName(d.type === 'variable_declarator' ? 'value' : 'right');
    if (!target || !value) continue;
    const bound = target.type === 'identifier' ? [target] : target.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']).filter((x): x is Node => !!x);
    if (bound.some((b) => b.text === name)) out.push(value);
  }
  return out;
}

/** Each query call of `calls` (in source order) run in a loop over another one's rows. */
export function nPlusOne(calls: ReadCall[]): NPlusOne[] {
  const out: NPlusOne[] = [];
  for (const inner of calls) {
    for (const { loop, heads, scope } of loopsAround(inner.call)) {
      // The other query calls of the function before the loop, or in its head.
      const earlier = calls.filter((c) => c !== inner && inside(scope, c.call) && (c.call.startIndex < loop.startIndex || heads.some((h) => inside(h, c.call))));
      const feeds = (value: Node): ReadCall | undefined =>
        earlier.find((c) => inside(value, c.call)) ?? earlier.findLast((c) => c.call.startIndex < value.startIndex && receiver(c.call) !== undefined && receiver(c.call) === cursorOf(value));
      let outer: ReadCall | undefined;
      for (const h of heads) {
        outer = feeds(h);
        for (const name of outer ? [] : namesIn(h)) {
          for (const v of valuesOf(scope, name, loop.startIndex)) { outer = feeds(v); if (outer) break; }
          if (outer) break;
        }
        if (outer) break;
      }
      if (outer) { out.push({ inner, outer }); break; }
    }
  }
  return out;
}
