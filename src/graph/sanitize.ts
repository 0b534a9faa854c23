/**
 * Sanitization of text that reaches a reader (tool output, resources, GRAPH_REPORT.md, the CLI).
 * Names come from source code, so a crafted identifier, string key or file name could carry control
 * characters, line breaks or markup meant to read as instructions to the model or to a terminal.
 * Two rules, one function each: `sanitize` for names (labels, paths, ids: strict, one line, no
 * markup) and `sanitizeSource` for source text (verbatim printable code, only invisible characters
 * escaped, so a line can still be used for an edit). Browser-safe.
 */

const MAX_LABEL = 200;

/**
 * Characters a reader cannot see or that a terminal or model would act on: C0 and C1 controls and
 * DEL (Cc: ESC starts ANSI/OSC sequences, BEL, CR, LF, NEL), format characters (Cf: bidi
 * embeddings, overrides, isolates and marks, zero-width space/joiners, word joiner, BOM, soft
 * hyphen, Unicode tag characters), line and paragraph separators (Zl, Zp) and lone surrogates (Cs).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]+/gu;
/** The same class, one character at a time, tab excepted (indentation is printable code). */
const INVISIBLE_IN_SOURCE = /(?!\t)[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * Make one name (label, path, id, relation text, a client's echoed argument) safe to print on a
 * single output line: invisible characters (see INVISIBLE: controls, newlines, bidi, zero-width)
 * become a space, angle brackets become look-alike guillemets (no `<system>` tags),
 * code fences and markdown headings are defused, and the result is capped at 200 characters.
 */
export function sanitize(text: unknown, max = MAX_LABEL): string {
  let s = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text);
  if (isPlain(s, max)) return s; // the common case: nothing below would change it
  s = s.replace(INVISIBLE, ' ');
  s = s.replace(/</g, '\u2039').replace(/>/g, '\u203a');
  s = s.replace(/`{3,}/g, "'''");
  s = s.replace(/\[\[|\]\]/g, (m) => (m === '[[' ? '[ [' : '] ]'));
  s = s.replace(/ {2,}/g, ' ').trim();
  if (s.length > max) s = s.slice(0, max - 1) + '\u2026';
  return s;
}

/**
 * True when `sanitize` would return the text unchanged: printable ASCII without angle brackets,
 * backticks, `[[`/`]]`, doubled or edge spaces, within the length cap. One pass, no allocation.
 */
function isPlain(s: string, max: number): boolean {
  const n = s.length;
  if (n > max) return false;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32) {
      if (c !== 32 || prev === 32 || i === 0 || i === n - 1) return false;
    } else if (c >= 127 || c === 60 || c === 62 || c === 96) return false;
    else if ((c === 91 || c === 93) && prev === c) return false;
    prev = c;
  }
  return true;
}

/** Relation names seen so far (a graph has a few dozen; listings print one per line). */
const relationMemo = new Map<string, string>();

/** Sanitize a relation name: only `[A-Za-z0-9_.-]` survive. */
export function sanitizeRelation(relation: unknown): string {
  const raw = String(relation ?? '');
  const known = relationMemo.get(raw);
  if (known !== undefined) return known;
  const safe = raw.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60) || 'unknown';
  if (relationMemo.size < 1024 && raw.length <= 200) relationMemo.set(raw, safe);
  return safe;
}

/**
 * Make one line of source text safe to print while keeping it verbatim: printable code (angle
 * brackets, `=>`, backticks, quotes, any script, tabs) is returned unchanged, and each invisible
 * character (see INVISIBLE) becomes a visible escape of its code point, `\u{1b}`, `\u{202e}`. A
 * final CR (the end of a CRLF line) is dropped. The escape is ambiguous only with source that
 * spells `\u{…}` itself; callers that need the exact text say when a line was escaped.
 */
export function sanitizeSource(line: string): string {
  const s = line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
  return hasInvisible(s) ? s.replace(INVISIBLE_IN_SOURCE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`) : s;
}

/** {@link sanitizeSource} of each line of a multi-line text; its line breaks are kept (as LF). */
export function sanitizeSourceText(text: string): string {
  return text.split('\n').map(sanitizeSource).join('\n');
}

/**
 * Multi-line prose for a model's context (a report, a memory body): {@link sanitizeSourceText}, and
 * `<` becomes the look-alike `‹` so no `<system>`-style tag can open; other printable text is kept.
 */
export function sanitizeProse(text: string): string {
  return sanitizeSourceText(text).replace(/</g, '\u2039');
}

/**
 * True when `sanitizeSource` would escape something: a scan of char codes that settles printable
 * ASCII and tab without a regex (most source lines), and asks the character class otherwise.
 */
function hasInvisible(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 32 && c < 127) continue;
    if (c === 9) continue;
    if (c < 32 || c === 127) return true;
    INVISIBLE_IN_SOURCE.lastIndex = i;
    return INVISIBLE_IN_SOURCE.test(s);
  }
  return false;
}

/** Invisible characters JSON.stringify leaves raw (it escapes C0 and lone surrogates); its indentation's LF is kept. */
const INVISIBLE_IN_JSON = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * JSON text (JSON.stringify output) with every invisible character inside its strings written as a
 * `\uXXXX` escape: the same values for a JSON reader, nothing a terminal acts on (JSON.stringify
 * leaves C1, bidi, zero-width, tag characters and U+2028/2029 raw).
 */
export function jsonWithoutInvisible(json: string): string {
  return json.replace(INVISIBLE_IN_JSON, (c) => {
    let out = '';
    for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
