/**
 * Stub bodies: a function whose body is empty, or only returns null / None / nil. Works on the
 * symbol's span text (from the graph's span, cut out of the source). Pure functions. Browser-safe.
 */

export type StubKind = 'empty' | 'return_null';

export interface StubBody {
  kind: StubKind;
  /** The body as written, trimmed (for the evidence). */
  body: string;
}

const BRACE_LANGUAGES: ReadonlySet<string> = new Set(['typescript', 'javascript', 'tsx', 'go', 'rust', 'java', 'csharp', 'kotlin', 'swift', 'c', 'cpp', 'php', 'scala', 'dart']);

/** `text` with comments removed (line and block comments; `#` ones for Python). Strings are kept as written. */
export function stripComments(text: string, hash: boolean): string {
  let out = '';
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quote = c;
      out += c;
    } else if (hash ? c === '#' : c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (!hash && c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return out;
}

/** Index just past the parameter list that starts at the first `(` (or -1). */
function paramsEnd(text: string): number {
  const open = text.indexOf('(');
  if (open < 0) return -1;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

const NULL_RETURN = /^return\s*(?:null|undefined|None|nil(?:\s*,\s*nil)*)\s*;?$/;

function classify(body: string, language: string): StubKind | undefined {
  const b = body.trim();
  if (b === '') return 'empty';
  if (language === 'python' && (b === 'pass' || b === '...')) return 'empty';
  if (language === 'go') return /^return\s+nil(?:\s*,\s*nil)+$/.test(b) ? 'return_null' : undefined; // a lone `return nil` is success
  if (NULL_RETURN.test(b) || (language === 'rust' && b === 'None')) return 'return_null';
  return undefined;
}

/**
 * The stub a function's span text holds, or undefined. `text` is the declaration from its first
 * character (as the span gives it) to its end.
 */
export function stubBody(text: string, language: string): StubBody | undefined {
  if (language === 'python') {
    const clean = stripComments(text, true);
    const end = paramsEnd(clean);
    if (end < 0) return undefined;
    const colon = clean.indexOf(':', end);
    if (colon < 0) return undefined;
    let body = clean.slice(colon + 1).trim();
    // A leading docstring is documentation, not a body.
    const doc = /^(?:[rbuRBU]{0,2})("""|''')[\s\S]*?\1|^(?:[rbuRBU]{0,2})(["'])(?:\\.|(?!\2).)*\2/.exec(body);
    if (doc) body = body.slice(doc[0].length).trim();
    const lines = body.split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length > 1) return undefined;
    const kind = classify(lines[0] ?? '', language);
    return kind ? { kind, body: lines[0] ?? '' } : undefined;
  }
  if (!BRACE_LANGUAGES.has(language)) return undefined;
  const clean = stripComments(text, false);
  const end = paramsEnd(clean);
  if (end < 0) return undefined;
  const rest = clean.slice(end);
  const arrow = /^[^{;]*?=>\s*/.exec(rest);
  if (arrow && rest[arrow[0].length] !== '{') {
    // An expression-bodied arrow: `=> null` is a stub, any other expression is a body.
    const expr = rest.slice(arrow[0].length).trim().replace(/[;,]$/, '').trim();
    return expr === 'null' || expr === 'undefined' ? { kind: 'return_null', body: expr } : undefined;
  }
  const open = rest.indexOf('{');
  const close = rest.lastIndexOf('}');
  if (open < 0 || close <= open) return undefined;
  const body = rest.slice(open + 1, close);
  const kind = classify(body, language);
  return kind ? { kind, body: body.trim() } : undefined;
}

/** Names whose empty body is the point (a no-op by design). */
export const NOOP_NAME = /^(?:noop|nop|_+|ignore|identity|empty|dispose|close|destroy|stop|reset|cleanup|teardown|unsubscribe)$|^(?:on|handle)[A-Z_]|(?:Noop|NoOp|Null|Fake|Mock|Dummy|Stub)/;

/** Is a declared return type one that makes `return null` the real answer (null, void, None, Option)? */
export function nullIsTheType(returns: string | undefined): boolean {
  if (!returns) return false;
  return /^(?:null|undefined|void|None|Promise<(?:void|null|undefined)>)$/.test(returns.trim());
}
