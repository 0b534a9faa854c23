/**
 * Query predicates about a capture's ancestors, so that a tags pattern can be rooted at the node it
 * captures. `(class_body (method_definition) @d)` keeps a match state open at every class body
 * while the query walks the body's subtree: classes in methods in classes make the query
 * quadratic in the nesting. `((method_definition) @d (#parent-type? @d class_body))` opens none.
 *
 *   (#parent-type? @c type ...)                  the parent of @c is of one of the types
 *   (#grandparent-type? @c type ...)             the grandparent of @c is
 *   (#capture-parent? @c name)                   adds a capture `@name`: the parent of @c
 *   (#capture-grandparent-field? @c name field)  adds `@name`: the grandparent's `field` child
 *
 * The ancestors come from one cursor walk for all the matches (see ancestors.ts). Browser-safe.
 */
import type { Node, Query, QueryMatch } from 'web-tree-sitter';
import { surroundingsOf } from './ancestors.ts';

interface TypeCheck { capture: string; level: 0 | 1; types: ReadonlySet<string> }
/** Adds capture `name`: the ancestor at `level` of `capture`, or its `field` child. */
interface AddedCapture { capture: string; name: string; level: 0 | 1; field: string | null }
interface Rules { types: TypeCheck[]; added: AddedCapture[] }

const NO_RULES: Rules = { types: [], added: [] };
const rulesCache = new WeakMap<Query, Rules[]>();

function rulesOf(query: Query, pattern: number): Rules {
  let all = rulesCache.get(query);
  if (!all) rulesCache.set(query, (all = []));
  let rules = all[pattern];
  if (rules) return rules;
  rules = { types: [], added: [] };
  for (const p of query.predicatesForPattern(pattern)) {
    const [first, ...rest] = p.operands;
    const capture = first?.type === 'capture' ? first.name : undefined;
    const words = rest.map((o) => (o.type === 'string' ? o.value : ''));
    if (!capture || !words.length || words.includes('')) throw new Error(`Cannot run the tags query: #${p.operator} takes a capture and names (pattern ${pattern})`);
    if (p.operator === 'parent-type?' || p.operator === 'grandparent-type?') {
      rules.types.push({ capture, level: p.operator === 'parent-type?' ? 0 : 1, types: new Set(words) });
    } else if (p.operator === 'capture-parent?' && words.length === 1) {
      rules.added.push({ capture, name: words[0]!, level: 0, field: null });
    } else if (p.operator === 'capture-grandparent-field?' && words.length === 2) {
      rules.added.push({ capture, name: words[0]!, level: 1, field: words[1]! });
    } else {
      throw new Error(`Cannot run the tags query: unknown predicate #${p.operator} or wrong operands (pattern ${pattern})`);
    }
  }
  if (!rules.types.length && !rules.added.length) rules = NO_RULES;
  all[pattern] = rules;
  return rules;
}

function captured(m: QueryMatch, name: string): Node | undefined {
  for (const c of m.captures) if (c.name === name) return c.node;
  return undefined;
}

/** The matches whose ancestor predicates hold, in their order, with the captures they add. */
export function applyAncestorPredicates(query: Query, root: Node, matches: QueryMatch[]): QueryMatch[] {
  const asked: Node[] = [];
  for (const m of matches) {
    const rules = rulesOf(query, m.patternIndex);
    for (const r of [...rules.types, ...rules.added]) { const n = captured(m, r.capture); if (n) asked.push(n); }
  }
  if (!asked.length) return matches;
  const around = surroundingsOf(root, asked);
  const up = (node: Node | undefined): [Node | null, Node | null] => {
    const a = node && around.get(node.id);
    return a ? [a.parent, a.grandparent] : [null, null];
  };
  const kept: QueryMatch[] = [];
  for (const m of matches) {
    const rules = rulesOf(query, m.patternIndex);
    if (rules === NO_RULES) { kept.push(m); continue; }
    if (!rules.types.every((r) => { const a = up(captured(m, r.capture))[r.level]; return a !== null && r.types.has(a.type); })) continue;
    const added = rules.added.map((r) => {
      const ancestor = up(captured(m, r.capture))[r.level];
      return { name: r.name, node: r.field === null ? ancestor : ancestor?.childForFieldName(r.field) ?? null, patternIndex: m.patternIndex };
    });
    if (added.some((c) => !c.node)) continue;
    for (const c of added) m.captures.push(c as { name: string; node: Node; patternIndex: number });
    kept.push(m);
  }
  return kept;
}
