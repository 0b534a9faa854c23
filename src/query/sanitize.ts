/**
 * Sanitization of graph-derived text (labels, relations, paths) before it reaches tool output.
 * Names come from source code, so a crafted identifier, string key or file name could carry control
 * characters, line breaks or markup meant to read as instructions to the model. Browser-safe.
 */

const MAX_LABEL = 200;

// C0/C1 controls, DEL, line/paragraph separators, bidi overrides and isolates, zero-width characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]+/g;

/**
 * Make one graph-derived string safe to print on a single output line: control characters and
 * newlines become a space, angle brackets become look-alike guillemets (no `<system>` tags),
 * code fences and markdown headings are defused, and the result is capped at 200 characters.
 */
export function sanitize(text: unknown, max = MAX_LABEL): string {
  let s = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text);
  if (isPlain(s, max)) return s; // the common case: nothing below would change it
  s = s.replace(CONTROL, ' ');
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
