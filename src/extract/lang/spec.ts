/**
 * The per-language hooks of fact extraction. The tags query (queries/<lang>.scm) finds the nodes;
 * a `LangSpec` reads the language-specific details out of them (callee shapes, imports, bindings,
 * signatures, visibility, docs). Hooks receive tree-sitter nodes and return plain data.
 */
import type { Node, Point } from 'web-tree-sitter';
import type { NodeKind, Param, Visibility } from '../../graph/model.ts';
import type { Preceding } from '../ancestors.ts';
import type { BindingFact, ExportFact, Expr, HazardFact, ImportFact, NamePath } from '../facts.ts';

export interface DefInfo {
  node: Node;
  nameNode: Node;
  kind: NodeKind;
  /** Index of the enclosing definition, -1 at top level. */
  parent: number;
  parentKind: NodeKind | null;
  /** Name of the enclosing definition, null at top level. */
  parentName: string | null;
  /** The node's parent and grandparent in the syntax tree (`Node.parent` costs O(depth) a call). */
  parentNode: Node | null;
  grandparentNode: Node | null;
  /** The comments and attributes right before the node, its parent and its grandparent (see ancestors.ts). */
  before: readonly [Preceding, Preceding, Preceding];
  /** `@owner` capture: the receiver/impl type of a method declared outside its type. */
  owner?: string;
}

export interface SignatureInfo {
  params: Param[];
  returns?: string;
  raw: string;
  /** The return type as a name path, for typing `f().g()` receivers. */
  returnPath?: NamePath;
}

export interface Sink {
  imports: ImportFact[];
  exports: ExportFact[];
  bindings: BindingFact[];
  /** The symbol index of the current call or statement, -1 for file level. */
  readonly scope: number;
  /** Records a hazard in the current scope. */
  hazard(kind: HazardFact['kind'], node: Node, key?: string): void;
  /** Records a base type (`node`, a type expression) of the enclosing definition. */
  base(relation: string, node: Node): void;
  /** Node ids a hook marks for a later capture of the same file (declarators of an `export`). */
  marks: Set<number>;
}

export interface LangSpec {
  /** Expression -> Expr for receivers and callees. */
  expr(node: Node, depth: number): Expr;
  /** Optional refinement of a definition: kind fix-ups (method vs function, constructor); null drops it. */
  refineDef?(def: DefInfo): { kind: NodeKind; name?: string } | null;
  /** Visibility and export status of a definition. */
  visibility(def: DefInfo, name: string): { visibility: Visibility; exported: boolean; isDefault?: boolean; isStatic?: boolean; isGetter?: boolean };
  /** Parameters, return type text and raw header of a callable (or a type's header). */
  signature(def: DefInfo, source: string): SignatureInfo | undefined;
  /** First line of the doc comment of a definition. */
  doc(def: DefInfo): string | undefined;
  /** A type expression node -> name path (generics, arrays, nullability stripped), if nameable. */
  typePath(node: Node): NamePath | undefined;
  /** Statement captures (`@import`, `@export`, `@local`, `@param`, `@field`, ...). `scope` is the enclosing def index. */
  statement(capture: string, node: Node, scope: number, sink: Sink, defs: DefInfo[]): void;
  /** Hazard / special handling of a call: returns true when the call is consumed (not a normal call). */
  specialCall?(call: Node, callee: Node, sink: Sink): boolean;
  /** Package / namespace of the file, if the language declares one. */
  packageName?(root: Node): string | undefined;
}

/** First line of a comment's text, without comment markers. */
export function firstCommentLine(text: string): string | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/\/?|#|--|"""|''')\s?/, '').replace(/\*\/\s*$/, '').replace(/("""|''')\s*$/, '').trim();
    if (line) return line.length > 200 ? line.slice(0, 200) : line;
  }
  return undefined;
}

/**
 * The comment right before a definition's node, its parent or its grandparent (`level`): the
 * previous named sibling when it is a comment at most one line above.
 */
export function precedingComment(def: DefInfo, level: 0 | 1 | 2, commentTypes: readonly string[]): Node | null {
  const node = level === 0 ? def.node : level === 1 ? def.parentNode : def.grandparentNode;
  if (!node) return null;
  let before = def.before[level];
  // Ruby puts a class's leading comment before the enclosing body node.
  if (before.first && level < 2 && (level === 0 ? def.parentNode : def.grandparentNode)?.type === 'body_statement') before = def.before[level + 1];
  const prev = before.nodes.at(-1);
  if (!prev || !commentTypes.includes(prev.type)) return null;
  if (node.startPosition.row - prev.endPosition.row > 1) return null;
  return prev;
}

/**
 * Raw declaration header: the text from the node start up to the body (or its first `{`), without
 * comments, single-spaced, capped. The comments are the tree's comment nodes (a pattern over the
 * text would also cut a string holding `//` or `/*`).
 */
export function headerText(node: Node, body: Node | null, source: string, commentTypes: readonly string[]): string {
  let text = withoutComments(node, body ? body.startIndex : node.endIndex, body ? body.startPosition : node.endPosition, source, commentTypes);
  if (!body) {
    const brace = text.indexOf('{');
    if (brace >= 0) text = text.slice(0, brace);
  }
  let raw = text.replace(/\s+/g, ' ').trim();
  if (raw.endsWith('{') || raw.endsWith(':')) raw = raw.slice(0, -1).trimEnd();
  return raw.length > 300 ? raw.slice(0, 300) + '…' : raw;
}

/** A node's text without comments, single-spaced and capped like a header (return types in a signature). */
export function plainText(node: Node, source: string, commentTypes: readonly string[]): string {
  const text = withoutComments(node, node.endIndex, node.endPosition, source, commentTypes).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? text.slice(0, 300) + '…' : text;
}

/** Every comment of the languages parsed here starts with `/` or `#` (or Ruby's `=begin`). */
const MAY_HOLD_COMMENT = /[/#]|=begin/;

/** The source from `node`'s start to `end` (at point `endPoint`), each comment node in it replaced by a space. */
function withoutComments(node: Node, end: number, endPoint: Point, source: string, commentTypes: readonly string[]): string {
  const text = source.slice(node.startIndex, end);
  if (!MAY_HOLD_COMMENT.test(text)) return text; // (asking the tree costs more than the test)
  let out = '';
  let at = node.startIndex;
  // Visits only the nodes before `endPoint` (a header, not the body after it).
  for (const c of node.descendantsOfType(commentTypes as string[], node.startPosition, endPoint)) {
    if (!c || c.startIndex < at || c.endIndex > end) continue;
    // The comment and the space around it go; one space stays where there was space or it parted two words.
    const before = out + source.slice(at, c.startIndex);
    const left = before.trimEnd();
    let next = c.endIndex;
    while (next < end && /\s/.test(source[next]!)) next++;
    const l = left.at(-1) ?? '';
    const r = next < end ? source[next]! : '';
    const spaced = left.length < before.length || next > c.endIndex || (/\w/.test(l) && /\w/.test(r));
    out = left + (spaced && !/[([]/.test(l) && !/[,;)\]]/.test(r) ? ' ' : '');
    at = next;
  }
  return out + source.slice(at, end);
}

/** Strips quotes from a string literal's text. */
export function unquote(text: string): string {
  const m = /^[bfruBFRU]*(['"`])([\s\S]*)\1$/.exec(text);
  return m ? m[2]! : text;
}
