/**
 * Query predicates about a capture's ancestors, so that a tags pattern can be rooted at the node it
 * captures. `(class_body (method_definition) @d)` keeps a match state open at every class body
 * while the query walks the body's subtree: classes in methods in classes make the query
 * quadratic in the nesting. `((method_definition) @d (#parent-type? @d class_body))` opens none.
 *
 *   (#parent-type? @c type ...)            the parent of @c is of one of the types
 *   (#grandparent-type? @c type ...)       the grandparent of @c is
 *   (#grandparent-owner? @c field)         adds an `@owner` capture: the grandparent's `field` child
 *
 * The ancestors come from one cursor walk for all the matches (see ancestors.ts). Browser-safe.
 */
import type { Node, Query, QueryMatch } from 'web-tree-sitter';
import { ancestorsOf, type Ancestors } from './ancestors.ts';

interface TypeCheck { capture: string; level: 0 | 1; types: ReadonlySet<string> }
interface OwnerRule { capture: string; field: string }
interface Rules { types: TypeCheck[]; owner: OwnerRule | null }

const NO_RULES: Rules = { types: [], owner: null };
const rulesCache = new WeakMap<Query, Rules[]>();

function rulesOf(query: Query, pattern: number): Rules {
  let all = rulesCache.get(query);
  if (!all) rulesCache.set(query, (all = []));
  let rules = all[pattern];
  if (rules) return rules;
  rules = { types: [], owner: null };
  for (const p of query.predicatesForPattern(pattern)) {
    const [first, ...rest] = p.operands;
    const capture = first?.type === 'capture' ? first.name : undefined;
    const words = rest.map((o) => (o.type === 'string' ? o.value : ''));
    if (!capture || !words.length || words.includes('')) throw new Error(`Cannot run the tags query: #${p.operator} takes a capture and names (pattern ${pattern})`);
    if (p.operator === 'parent-type?' || p.operator === 'grandparent-type?') {
      rules.types.push({ capture, level: p.operator === 'parent-type?' ? 0 : 1, types: new Set(words) });
    } else if (p.operator === 'grandparent-owner?' && words.length === 1) {
      rules.owner = { capture, field: words[0]! };
    } else {
      throw new Error(`Cannot run the tags query: unknown predicate #${p.operator} (pattern ${pattern})`);
    }
  }
  if (!rules.types.length && !rules.owner) rules = NO_RULES;
  all[pattern] = rules;
  return rules;
}

function captured(m: QueryMatch, name: string): Node | undefined {
  for (const c of m.captures) if (c.name === name) return c.node;
  return undefined;
}

/** The matches whose ancestor predicates hold, in their order, with the `@owner` captures they add. */
export function applyAncestorPredicates(query: Query, root: Node, matches: QueryMatch[]): QueryMatch[] {
  const asked: Node[] = [];
  for (const m of matches) {
    const rules = rulesOf(query, m.patternIndex);
    for (const r of rules.types) { const n = captured(m, r.capture); if (n) asked.push(n); }
    if (rules.owner) { const n = captured(m, rules.owner.capture); if (n) asked.push(n); }
  }
  if (!asked.length) return matches;
  const ancestors = ancestorsOf(root, asked);
  const up = (node: Node | undefined): Ancestors => (node && ancestors.get(node.id)) || [null, null];
  const kept: QueryMatch[] = [];
  for (const m of matches) {
    const rules = rulesOf(query, m.patternIndex);
    if (rules === NO_RULES) { kept.push(m); continue; }
    if (!rules.types.every((r) => { const a = up(captured(m, r.capture))[r.level]; return a !== null && r.types.has(a.type); })) continue;
    if (rules.owner) {
      const owner = up(captured(m, rules.owner.capture))[1]?.childForFieldName(rules.owner.field);
      if (!owner) continue;
      m.captures.push({ name: 'owner', node: owner, patternIndex: m.patternIndex });
    }
    kept.push(m);
  }
  return kept;
}
