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
  /** True for a body-less overload declaration that joins the next same-named definition (Python `@typing.overload`). */
  overloadDecl?(def: DefInfo): boolean;
  /** Visibility and export status of a definition. */
  visibility(def: DefInfo, name: string): { visibility: Visibility; exported: boolean; isDefault?: boolean; isStatic?: boolean; isGetter?: boolean };
  /** Parameters, return type text and raw header of a callable (or a type's header). */
  signature(def: DefInfo, source: string): SignatureInfo | undefined;
  /** The doc comment of a definition, whole (see {@link commentText}). */
  doc(def: DefInfo): string | undefined;
  /** A type expression node -> name path (generics, arrays, nullability stripped), if nameable. */
  typePath(node: Node): NamePath | undefined;
  /** Statement captures (`@import`, `@export`, `@local`, `@param`, `@field`, ...). `scope` is the enclosing def index. */
  statement(capture: string, node: Node, scope: number, sink: Sink, defs: DefInfo[]): void;
  /** Hazard / special handling of a call: returns true when the call is consumed (not a normal call). */
  specialCall?(call: Node, callee: Node, sink: Sink): boolean;
  /** A call's arguments, for languages that pick among overloads by them (Java). */
  callArgs?(call: Node): Expr[] | undefined;
  /** Package / namespace of the file, if the language declares one. */
  packageName?(root: Node): string | undefined;
}

/** A doc comment is kept up to this many characters (outputs print a shorter, one-line summary). */
export const MAX_DOC_CHARS = 1000;
const COMMENT_START = /^\s*(\/\*\*?|\*\/|\*(?!\*)|\/\/[/!]?|#!?|--|=begin|=end)\s?/;

/**
 * The text of a doc comment made of one or more comment nodes (a block comment, or consecutive
 * `//`, `///`, `#` lines): comment markers removed from each line, blank lines at either end
 * dropped, lines joined by newlines, capped at {@link MAX_DOC_CHARS}. Undefined when empty.
 */
export function commentText(comments: readonly Node[] | string): string | undefined {
  const lines: string[] = [];
  // (a Rust line comment's node holds its newline)
  for (const text of typeof comments === 'string' ? [comments] : comments.map((c) => c.text.replace(/\r?\n$/, ''))) {
    for (const raw of text.split('\n')) lines.push(raw.replace(COMMENT_START, '').replace(/\s*\*\/\s*$/, '').trimEnd());
  }
  return docLines(lines);
}

/** A docstring's text (quotes already removed): common indentation removed, trimmed, capped. */
export function docstringText(text: string): string | undefined {
  const lines = text.split('\n');
  const rest = lines.slice(1).filter((l) => l.trim());
  const indent = rest.length ? Math.min(...rest.map((l) => l.length - l.trimStart().length)) : 0;
  return docLines([lines[0]!.trim(), ...lines.slice(1).map((l) => l.slice(indent).trimEnd())]);
}

function docLines(lines: string[]): string | undefined {
  let a = 0;
  let b = lines.length;
  while (a < b && !lines[a]!.trim()) a++;
  while (b > a && !lines[b - 1]!.trim()) b--;
  if (a === b) return undefined;
  const text = lines.slice(a, b).join('\n');
  return text.length > MAX_DOC_CHARS ? text.slice(0, MAX_DOC_CHARS) + '…' : text;
}

/**
 * The doc comment right before a definition's node, its parent or its grandparent (`level`): the
 * run of comment siblings ending at most one line above it, each at most one line below the one
 * before (consecutive `//` lines are one comment), oldest first; empty when there is none.
 * `skip`: sibling types that may sit between the comment and the node (Rust `#[..]`, C# `[..]`).
 */
export function precedingComments(def: DefInfo, level: 0 | 1 | 2, commentTypes: readonly string[], skip?: RegExp): Node[] {
  const node = level === 0 ? def.node : level === 1 ? def.parentNode : def.grandparentNode;
  if (!node) return [];
  let before = def.before[level];
  // Ruby puts a class's leading comment before the enclosing body node.
  if (before.first && level < 2 && (level === 0 ? def.parentNode : def.grandparentNode)?.type === 'body_statement') before = def.before[level + 1];
  const run = before.nodes;
  let i = run.length - 1;
  let below = node.startPosition.row;
  if (skip) {
    for (; i >= 0 && skip.test(run[i]!.type) && below - run[i]!.endPosition.row <= 1; i--) below = run[i]!.startPosition.row;
  }
  const out: Node[] = [];
  for (; i >= 0; i--) {
    const c = run[i]!;
    if (!commentTypes.includes(c.type) || below - c.endPosition.row > 1) break;
    out.push(c);
    below = c.startPosition.row;
  }
  return out.reverse();
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
