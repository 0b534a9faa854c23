/**
 * The per-language hooks of fact extraction. The tags query (queries/<lang>.scm) finds the nodes;
 * a `LangSpec` reads the language-specific details out of them (callee shapes, imports, bindings,
 * signatures, visibility, docs). Hooks receive tree-sitter nodes and return plain data.
 */
import type { Node } from 'web-tree-sitter';
import type { NodeKind, Param, Visibility } from '../../graph/model.ts';
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

/** The comment block right before a node (doc comment), skipping nothing but whitespace. */
export function precedingComment(node: Node, commentTypes: readonly string[]): Node | null {
  let prev = node.previousNamedSibling;
  // Ruby puts a class's leading comment before the enclosing body node.
  if (!prev && node.parent && node.parent.firstNamedChild?.id === node.id && node.parent.type === 'body_statement') prev = node.parent.previousNamedSibling;
  if (!prev || !commentTypes.includes(prev.type)) return null;
  if (node.startPosition.row - prev.endPosition.row > 1) return null;
  return prev;
}

/** Raw declaration header: the text from the node start up to the body (single-spaced, capped). */
export function headerText(node: Node, body: Node | null, source: string): string {
  let end = body ? body.startIndex : node.endIndex;
  if (!body) {
    const brace = source.indexOf('{', node.startIndex);
    if (brace >= 0 && brace < end) end = brace;
  }
  let raw = source.slice(node.startIndex, end).replace(/\s+/g, ' ').trim();
  if (raw.endsWith('{') || raw.endsWith(':')) raw = raw.slice(0, -1).trimEnd();
  return raw.length > 300 ? raw.slice(0, 300) + '…' : raw;
}

/** Strips quotes from a string literal's text. */
export function unquote(text: string): string {
  const m = /^[bfruBFRU]*(['"`])([\s\S]*)\1$/.exec(text);
  return m ? m[2]! : text;
}
