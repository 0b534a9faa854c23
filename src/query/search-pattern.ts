/**
 * search_text's patterns run in RE2 (re2js, a pure-JS port): matching is linear in the input, so a
 * client's `(a+)+$` cannot stall the event loop the way a backtracking RegExp does. The price is
 * the features RE2 lacks (backreferences, lookaround); a pattern using one is refused by name.
 */
import type { RE2JS as RE2JSClass } from 're2js';
import { sanitize } from './sanitize.ts';

export class SearchPatternError extends Error {
  override name = 'SearchPatternError';
}

export interface PatternOptions {
  literal?: boolean;
  /** true / false, or undefined for smart case (insensitive unless the pattern has an uppercase letter). */
  caseSensitive?: boolean;
}

/** A compiled search: a cheap whole-file test, then the matches of one line. */
export interface SearchPattern {
  /** False when no line of `text` can match (one DFA pass; most files stop here). */
  mayMatch(text: string): boolean;
  /** Matches in one line, leftmost first; `index` is in UTF-16 units like String.prototype.indexOf. */
  matches(line: string): Iterable<{ index: number; text: string }>;
}

let re2js: typeof RE2JSClass | undefined;

/** Loaded on first search: the engine costs ~30 ms to import and most sessions never search text. */
async function engine(): Promise<typeof RE2JSClass> {
  re2js ??= (await import('re2js')).RE2JS;
  return re2js;
}

/**
 * A find-anywhere test for one regex in RE2 (structural_search's =~): the same engine, the same
 * refusal of features RE2 lacks, JavaScript escapes accepted.
 */
export async function compileRegexTest(pattern: string): Promise<(s: string) => boolean> {
  const RE2JS = await engine();
  const feature = unsupportedFeature(pattern);
  if (feature) throw new SearchPatternError(`the regex uses ${feature}, which the linear-time regex engine (RE2) does not support`);
  try {
    const re = RE2JS.compile(jsEscapesToRe2(pattern));
    return (s) => re.test(s);
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
    throw new SearchPatternError(`invalid regex (${why}; RE2 syntax)`);
  }
}

export async function compileSearchPattern(pattern: string, options: PatternOptions): Promise<SearchPattern> {
  const RE2JS = await engine();
  const insensitive = options.caseSensitive === false || (options.caseSensitive === undefined && !/[A-Z]/.test(pattern));
  let source = options.literal ? RE2JS.quote(pattern) : pattern;
  if (!options.literal) {
    const feature = unsupportedFeature(pattern);
    if (feature) {
      throw new SearchPatternError(
        `Cannot search text: the pattern '${pattern}' uses ${feature}, which the linear-time regex engine (RE2) does not support; rewrite the pattern without it, or pass literal=true for a fixed string`,
      );
    }
    source = jsEscapesToRe2(pattern);
  }
  const flags = insensitive ? RE2JS.CASE_INSENSITIVE : 0;
  let perLine: RE2JSClass;
  let perFile: RE2JSClass;
  try {
    perLine = RE2JS.compile(source, flags);
    // MULTILINE so ^ and $ also hold at line ends: any per-line match is then a whole-file match.
    perFile = RE2JS.compile(source, flags | RE2JS.MULTILINE);
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).replace(/^error parsing regexp: /, '');
    throw new SearchPatternError(`Cannot search text: invalid regex '${sanitize(pattern, 400)}' (${why}; RE2 syntax); pass literal=true for a fixed string`);
  }
  // \A, \z and (?-m) pin to the whole text, where a line's match may not be one: no prefilter then.
  const lineBound = !/\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/.test(source);
  return {
    mayMatch: (text) => !lineBound || perFile.test(text),
    *matches(line) {
      if (!perLine.test(line)) return; // the DFA test is several times faster than a capturing match
      for (const m of perLine.matchAll(line)) yield { index: m.index!, text: m[0] }; // always set on a match
    },
  };
}

/**
 * The JavaScript regex features RE2 has no linear-time form of, named as a client would look them
 * up. Escapes and character classes are skipped, so `\(?=` or `[(?=]` are not mistaken for lookahead.
 */
export function unsupportedFeature(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      if (!inClass && n !== undefined && n >= '1' && n <= '9') return `a backreference (\\${n})`;
      if (!inClass && n === 'k' && pattern[i + 2] === '<') return 'a named backreference (\\k<name>)';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      if (pattern.startsWith('[^]', i)) return "the match-anything class [^] (use [\\s\\S] or (?s:.))";
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++; // a leading ] is a literal member
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const op = pattern.slice(i + 2, i + 4);
      if (op.startsWith('=')) return 'a lookahead (?=...)';
      if (op.startsWith('!')) return 'a negative lookahead (?!...)';
      if (op === '<=') return 'a lookbehind (?<=...)';
      if (op === '<!') return 'a negative lookbehind (?<!...)';
    }
  }
  return undefined;
}

/** JavaScript's `\uXXXX` and `\u{X...}` escapes in RE2's spelling, `\x{X...}`; everything else verbatim. */
function jsEscapesToRe2(pattern: string): string {
  return pattern.replace(/\\(?:u([0-9A-Fa-f]{4})|u\{([0-9A-Fa-f]{1,6})\}|([\s\S]))/g, (all, hex4?: string, hexN?: string) =>
    hex4 !== undefined ? `\\x{${hex4}}` : hexN !== undefined ? `\\x{${hexN}}` : all,
  );
}
