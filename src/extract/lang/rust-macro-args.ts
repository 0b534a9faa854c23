/**
 * Calls written in a Rust macro's arguments (`assert_eq!(a.len(), g())`, `println!("{}", f(x))`,
 * `vec![h()]`): tree-sitter keeps a macro's arguments as an unparsed token tree, so they are
 * re-parsed here as the arguments of a call (`fn m(){m(<tokens>);}`, the delimiters made
 * parentheses) and the tags query's call and macro captures of that small tree are reported at the
 * macro's position (the wrapper adds no line, so a row inside it is the token tree's row plus its own).
 * Arguments that are no expressions (`target: "x"`, `a = 1; "msg"`, types) parse with errors; the
 * well-formed calls among them are still found. Nested macros are re-parsed in turn, to MAX_DEPTH.
 * Cost: one parse and one query run over each macro's own text (never the file again).
 */
import type { Node, Parser, Query } from 'web-tree-sitter';

/** `macro_rules!` bodies are patterns, not code; deeper nests are left unread. */
const MAX_DEPTH = 3;
/** A token tree longer than this (generated tables) is not re-parsed. */
const MAX_TEXT = 20_000;
const PREFIX = 'fn m(){m';
const SUFFIX = ';}';

/** One call or macro capture found inside a macro's arguments; `line` is the file's (1-based). */
export interface MacroArgCapture {
  cap: 'reference.call' | 'reference.macro';
  node: Node;
  callee: Node | undefined;
  line: number;
}

/** The token tree holding a macro invocation's arguments, if any. */
function tokenTreeOf(macro: Node): Node | null {
  for (const c of macro.namedChildren) if (c && c.type === 'token_tree') return c;
  return null;
}

/**
 * Calls `visit` with every call/macro capture inside `macro`'s arguments (and, recursively, inside
 * the arguments of macros found there). Nodes are valid only during the callback: the re-parsed
 * tree is deleted when it returns.
 */
export function forEachMacroArgCapture(parser: Parser, query: Query, macro: Node, visit: (c: MacroArgCapture) => void, depth = 0): void {
  if (depth >= MAX_DEPTH) return;
  const name = macro.childForFieldName('macro');
  if (!name || name.text === 'macro_rules') return;
  const tt = tokenTreeOf(macro);
  if (!tt || tt.endIndex - tt.startIndex > MAX_TEXT || tt.namedChildCount === 0) return;
  const text = tt.text;
  const inner = text.slice(1, -1);
  const tree = parser.parse(`${PREFIX}(${inner})${SUFFIX}`);
  if (!tree) return;
  try {
    const rowBase = tt.startPosition.row;
    const start = PREFIX.length + 1; // the wrapper call's own node starts before the arguments
    for (const m of query.matches(tree.rootNode)) {
      let main: { name: string; node: Node } | undefined;
      let callee: Node | undefined;
      for (const c of m.captures) {
        if (c.name === 'callee') callee = c.node;
        else if (c.name === 'reference.call' || c.name === 'reference.macro') main = c;
      }
      if (!main || main.node.startIndex < start) continue;
      const cap = main.name as MacroArgCapture['cap'];
      visit({ cap, node: main.node, callee, line: rowBase + main.node.startPosition.row + 1 });
      if (cap === 'reference.macro') {
        forEachMacroArgCapture(parser, query, main.node, (c) => visit({ ...c, line: c.line + rowBase }), depth + 1);
      }
    }
  } finally {
    tree.delete();
  }
}
