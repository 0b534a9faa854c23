/**
 * Line rules over a source file's text: framework sentinels (code that says "not written yet" at run
 * time) and TODO / FIXME / XXX / HACK markers in comments. Pure functions on strings. Browser-safe.
 */

export type SentinelRule = 'throw_not_implemented' | 'raise_not_implemented' | 'todo_macro' | 'panic_todo' | 'sentinel_text';

export interface SentinelHit {
  rule: SentinelRule;
  line: number;
  /** The sentinel as written, e.g. `todo!()`. */
  text: string;
}

export interface MarkerHit {
  marker: 'TODO' | 'FIXME' | 'XXX' | 'HACK';
  line: number;
  /** The comment text from the marker on. */
  text: string;
}

/** Languages whose line comments start with `#`. */
const HASH_COMMENT: ReadonlySet<string> = new Set(['python', 'ruby', 'shell', 'bash', 'perl', 'r', 'toml', 'yaml', 'elixir']);

/** A message that says the code is not written: "not implemented" anywhere in it, or TODO / TBD / "implement me" first. */
const NOT_DONE = String.raw`(?:[^'"\x60\n]{0,40}?\b(?:not (?:yet )?implemented|unimplemented)|\s*(?:todo|tbd|implement me))\b`;

/** Per language: the sentinel forms and the rule each one is. */
const SENTINELS: Record<string, Array<[SentinelRule, RegExp]>> = {
  typescript: [['throw_not_implemented', new RegExp(String.raw`\bthrow\s+new\s+(?:(?:Type)?Error\(\s*(['"\x60])${NOT_DONE}[^'"\x60]*\1\s*\)|NotImplemented(?:Error|Exception)\b)`, 'i')]],
  python: [['raise_not_implemented', /\braise\s+NotImplementedError\b/]],
  rust: [['todo_macro', /\b(?:todo|unimplemented)!\s*\(/]],
  go: [['panic_todo', new RegExp(String.raw`\bpanic\(\s*(?:"${NOT_DONE}[^"]*"|errors\.New\(\s*"${NOT_DONE}[^"]*"\s*\))\s*\)`, 'i')]],
  java: [['throw_not_implemented', new RegExp(String.raw`\bthrow\s+new\s+(?:UnsupportedOperationException\(\s*"${NOT_DONE}[^"]*"\s*\)|NotImplementedException\b)`, 'i')]],
  csharp: [['throw_not_implemented', /\bthrow\s+new\s+NotImplementedException\b/]],
  kotlin: [['todo_macro', /(?<![\w.])TODO\(/]],
};
SENTINELS.javascript = SENTINELS.typescript!;
SENTINELS.tsx = SENTINELS.typescript!;

/** The `generic` profile: a throw / raise / panic whose message says it is not done, in any language. */
const GENERIC_SENTINEL = new RegExp(String.raw`\b(?:throw|raise|panic)\b[^\n]{0,40}?(['"\x60])${NOT_DONE}`, 'i');

const MARKER = /\b(TODO|FIXME|XXX|HACK)\b(?![-_/])/;

/** Column where the line's comment starts, or -1 (a comment opener inside a quoted string does not count). */
export function commentStart(line: string, language: string): number {
  const hash = HASH_COMMENT.has(language);
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (hash ? c === '#' : c === '/' && (line[i + 1] === '/' || line[i + 1] === '*')) return i;
    else if (!hash && c === '*' && line.slice(0, i).trim() === '') return i; // a block comment's middle line
  }
  return -1;
}

/** Every sentinel names one of these words: a file without any has none (checked on the whole text first). */
export const SENTINEL_HINT = /implemented|NotImplemented|todo|tbd|implement me/i;
/** A file without one of these has no marker. */
export const MARKER_HINT = /TODO|FIXME|XXX|HACK/;

/** Sentinels in a file's lines (1-based line numbers); a sentinel inside a comment is not one. */
export function findSentinels(lines: readonly string[], language: string, generic: boolean): SentinelHit[] {
  const rules: Array<[SentinelRule, RegExp]> = generic ? [['sentinel_text', GENERIC_SENTINEL]] : (SENTINELS[language] ?? []);
  if (!rules.length) return [];
  const hits: SentinelHit[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    for (const [rule, re] of rules) {
      const m = re.exec(line);
      if (!m) continue;
      const c = commentStart(line, language);
      if (c >= 0 && c < m.index) continue;
      hits.push({ rule, line: i + 1, text: m[0].length > 80 ? `${m[0].slice(0, 77)}...` : m[0] });
      break;
    }
  }
  return hits;
}

/** TODO / FIXME / XXX / HACK markers, in comments only (upper case, as written by convention). */
export function findMarkers(lines: readonly string[], language: string): MarkerHit[] {
  const hits: MarkerHit[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!MARKER.test(line)) continue;
    const c = commentStart(line, language);
    if (c < 0) continue;
    const m = MARKER.exec(line.slice(c));
    if (!m) continue;
    const text = line.slice(c + m.index).trim();
    hits.push({ marker: m[1] as MarkerHit['marker'], line: i + 1, text: text.length > 100 ? `${text.slice(0, 97)}...` : text });
  }
  return hits;
}
