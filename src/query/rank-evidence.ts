/**
 * Evidence query_graph's ranking reads from a node beyond its name, path and doc comment, computed
 * per node on first use and kept for the index (a call touches a few hundred matches, so this costs
 * a call what it touches): the words of its signature (parameter names and types, return type), and
 * whether it is an error type or deprecated. Split from rank.ts, which scores the graph. Browser-safe.
 */
import { relationId, type GraphNode, type NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { splitWords, stem, STOPWORDS } from './tokens.ts';

/** Characters of a parameter's name, a type or a return type read for words. */
const TYPE_CHARS = 40;

/** Per index: the signature stems of each node asked for so far (`null`: none). */
const signatureWordsByIndex = new WeakMap<GraphIndex, Array<readonly string[] | null | undefined>>();
/**
 * Parameter names and types repeat across a graph (`request: Request`, `string`, `options`): each
 * text's stems computed once (splitting and stemming were most of a new question's first call).
 */
const textStems = new Map<string, readonly string[]>();
const TEXT_STEMS_MAX = 50_000;

function stemsOf(text: string): readonly string[] {
  let known = textStems.get(text);
  if (known) return known;
  const out: string[] = [];
  // A type's head says what it is; a long generic type spells out everything it touches.
  for (const w of splitWords(text.length > TYPE_CHARS ? text.slice(0, TYPE_CHARS) : text)) {
    if (w.length >= 2 && !STOPWORDS.has(w)) out.push(stem(w));
  }
  if (textStems.size >= TEXT_STEMS_MAX) textStems.clear();
  textStems.set(text, (known = out));
  return known;
}

/**
 * The stems of a node's parameter names, parameter types and return type (2+ letters, no
 * scaffolding words): `getPath = (request: Request): string` -> request, string. A function's
 * parameters say what it works on, which its name often leaves out. Null when there are none.
 */
export function signatureWords(ix: GraphIndex, v: NodeId): readonly string[] | null {
  let memo = signatureWordsByIndex.get(ix);
  if (!memo) signatureWordsByIndex.set(ix, (memo = new Array(ix.n)));
  const known = memo[v];
  if (known !== undefined) return known;
  const sig = ix.node(v).signature;
  let out: string[] | null = null;
  if (sig && typeof sig === 'object') {
    const words = new Set<string>();
    const add = (text: unknown): void => {
      if (typeof text !== 'string' || !text) return;
      for (const w of stemsOf(text)) words.add(w);
    };
    for (const p of Array.isArray(sig.params) ? sig.params.slice(0, 12) : []) {
      add(p?.name);
      add(p?.type);
    }
    add(sig.returns);
    if (words.size) out = [...words];
  }
  memo[v] = out;
  return out;
}

const ERROR_NAME = /(?:Error|Exception|Failure|Fault)s?$/;
/** A base that makes a class an error: `extends Error`, `(ValueError)`, `extends HTTPException`. */
const ERROR_BASE = /(?:\bextends\s+|\(\s*|,\s*)[\w.]*(?:Error|Exception)\b/;

const INHERITS = relationId('inherits');
const EXTENDS = relationId('extends');

/**
 * True for a class (or type) whose name or declared base says it is an error, or that inherits
 * (up to 4 steps in the graph) from one: `JwtTokenExpired extends Error`, Python's `class
 * InvalidProxyURL(InvalidURL)` with `class InvalidURL(RequestException, ValueError)`. Error types
 * are named after what fails, so they look like answers to a question about how that thing works;
 * they answer questions about errors.
 */
export function isErrorType(ix: GraphIndex, v: NodeId): boolean {
  for (let depth = 0; depth <= 4; depth++) {
    const node = ix.node(v);
    const kind = String(node.kind);
    if (kind !== 'class' && kind !== 'struct' && kind !== 'type_alias') return false;
    if (ERROR_NAME.test(String(node.label))) return true;
    const raw = node.signature?.raw;
    if (typeof raw === 'string' && ERROR_BASE.test(raw)) return true;
    let base = -1;
    for (let i = ix.outOff[v]!; i < ix.outOff[v + 1]!; i++) {
      const e = ix.outEdges[i]!;
      const r = ix.g.rel[e]!;
      if (r === INHERITS || r === EXTENDS) {
        base = ix.g.dst[e]!;
        break;
      }
    }
    if (base < 0 || base === v) return false;
    v = base;
  }
  return false;
}

/**
 * True when the doc comment says the symbol is deprecated or no longer works (`Deprecated:`,
 * `@deprecated`, "has been disabled"): a question is answered by the code in use.
 */
export function isDeprecated(node: GraphNode): boolean {
  const doc = node.doc;
  return typeof doc === 'string' && /\bdeprecated\b|\bhas\s+(?:therefore\s+)?been\s+(?:disabled|removed)\b/i.test(doc);
}
