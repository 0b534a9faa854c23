/**
 * Recovery from syntax the newest TypeScript grammar on npm (tree-sitter-typescript 0.23.2) rejects
 * although `tsc` accepts it: generic call signatures on consecutive lines, `export type *`,
 * `abstract override`, import types in annotations and type arguments, `using` read as a name.
 * Without recovery the parser's error node swallows the rest of the class or file, and every
 * definition and call inside it is lost (8 of hono's 390 files, 30 of prisma's 4,500).
 *
 * Each rule rewrites text inside the lines around an error node only, keeping every character's
 * offset, line and column (blanks or same-length stand-ins), so spans and lines stay exact. A rewrite is
 * kept only when the re-parse has fewer errors; otherwise the previous tree stands.
 */
import type { Node, Parser, Tree } from 'web-tree-sitter';
import type { LanguageId } from './languages.ts';

/** One rewrite: a global regex and what each match becomes (the same length). */
interface Rule {
  name: string;
  pattern: RegExp;
  replace: (match: RegExpExecArray) => string;
}

const blank = (s: string): string => s.replace(/[^\n]/g, ' ');

const RULES: readonly Rule[] = [
  // `X\n  <K>(k: K): V` reads as `X<K>…`: a `;` in the indentation ends the member before.
  { name: 'call signature', pattern: /(?<=[^\s;,{(|&=<>]|[^=]>)((?:[ \t]*\n)+[ \t]*?)[ \t](?=(?:new\s*)?<\s*[A-Za-z_$])/g, replace: (m) => `${m[1]};` },
  { name: 'export type *', pattern: /(?<=\bexport\s+)type(?=\s*\*)/g, replace: (m) => blank(m[0]) },
  { name: 'abstract override', pattern: /(?<=\babstract\s+)override\b|\boverride(?=\s+abstract\b)/g, replace: (m) => blank(m[0]) },
  // `import('m').T` as a type (annotation, type argument, after typeof/readonly): a same-length name.
  { name: 'import type', pattern: /(?<=(?:\btypeof|\breadonly|[:<|&,]|\btype\s+[\w$]+\s*(?:<[^>\n]*>)?\s*=)\s*)import\s*\(\s*(['"])[^'"\n]*\1\s*\)/g, replace: (m) => '_'.repeat(m[0].length) },
  // `using` not followed by a name is not a `using` declaration.
  { name: 'using as a name', pattern: /(?<![.\w$])using\b(?!\s*[\w$])/g, replace: () => '_sing' },
  { name: 'import attributes', pattern: /(?<=(['"])[^'"\n]*\1\s*)(?:with|assert)\s*\{[^{}\n]*\}/g, replace: (m) => blank(m[0]) },
  { name: 'NUL character', pattern: /\u0000/g, replace: () => ' ' },
];

const RECOVERABLE: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript']);
const MAX_ROUNDS = 8;
const MAX_ERRORS = 32;

interface ErrorScore { count: number; chars: number }

/** Error and missing nodes, found by entering only subtrees that hold one (bounded). */
function errorNodes(root: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [root];
  while (stack.length && out.length < MAX_ERRORS) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) { out.push(n); continue; }
    for (const c of n.children) if (c && (c.hasError || c.isMissing)) stack.push(c);
  }
  return out;
}

function score(nodes: Node[]): ErrorScore {
  let chars = 0;
  for (const n of nodes) chars += n.endIndex - n.startIndex;
  return { count: nodes.length, chars };
}

const better = (a: ErrorScore, b: ErrorScore): boolean => a.count < b.count || (a.count === b.count && a.chars < b.chars);

/** The text ranges a rule may touch: whole lines from each error node's parent to the line after it. */
function spansOf(source: string, nodes: Node[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const n of nodes) {
    const from = n.parent && n.parent.parent ? n.parent.startIndex : n.startIndex;
    const start = source.lastIndexOf('\n', Math.max(0, from - 1)) + 1;
    // Through the line after the node: the token that upset the parser often starts there.
    const endNl = source.indexOf('\n', Math.max(n.endIndex, n.startIndex + 1));
    const after = endNl < 0 ? -1 : source.indexOf('\n', endNl + 1);
    spans.push([start, after < 0 ? source.length : after]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([s[0], s[1]]);
  }
  return merged;
}

/**
 * The source with `rule` applied where a match starts inside one of `spans`, or null when nothing
 * changed. The match runs over the whole text, so a rule can look behind the span's first line.
 */
function applyRule(source: string, spans: Array<[number, number]>, rule: Rule): string | null {
  const re = new RegExp(rule.pattern.source, rule.pattern.flags);
  let out = '';
  let at = 0;
  let span = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m[0].length === 0) { re.lastIndex++; continue; }
    while (span < spans.length && spans[span]![1] < m.index) span++;
    if (span === spans.length) break;
    if (m.index < spans[span]![0]) continue;
    const r = rule.replace(m);
    if (r.length !== m[0].length || r === m[0]) continue;
    out += source.slice(at, m.index) + r;
    at = m.index + m[0].length;
  }
  return at === 0 ? null : out + source.slice(at);
}

export interface Recovered {
  tree: Tree;
  /** The text the tree was parsed from: `source` with the kept rewrites (same length and lines). */
  source: string;
  /** Names of the rules kept, in order (empty when the first tree stood). */
  rewrites: string[];
}

/**
 * The best tree for `source`: `tree` itself when it has no errors or the language has no rules,
 * else the tree after the rewrites that reduced its errors. Deletes every tree it does not return.
 */
export function recoverSyntax(parser: Parser, language: LanguageId, source: string, tree: Tree): Recovered {
  if (!tree.rootNode.hasError || !RECOVERABLE.has(language)) return { tree, source, rewrites: [] };
  let current = { tree, source, rewrites: [] as string[] };
  let errors = errorNodes(tree.rootNode);
  let best = score(errors);
  for (let round = 0; round < MAX_ROUNDS && best.count > 0; round++) {
    let kept = false;
    for (const rule of RULES) {
      const text = applyRule(current.source, spansOf(current.source, errors), rule);
      if (text === null) continue;
      const next = parser.parse(text);
      if (!next) continue;
      const nextErrors = errorNodes(next.rootNode);
      const s = score(nextErrors);
      if (better(s, best)) {
        current.tree.delete();
        current = { tree: next, source: text, rewrites: [...current.rewrites, rule.name] };
        errors = nextErrors;
        best = s;
        kept = true;
        if (s.count === 0) break;
      } else {
        next.delete();
      }
    }
    if (!kept) break;
  }
  return current;
}
