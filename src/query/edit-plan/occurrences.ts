/**
 * Where an identifier occurs in a source file, and whether each occurrence is code, a comment or a
 * string literal. A small lexer per comment/string family (not a parser): enough to tell a call
 * `normalizePath(p)` from `// normalizePath is slow` or `'normalizePath'`, so a rename plan edits the
 * first and only lists the others for review. Browser-safe.
 */

export type Where = 'code' | 'comment' | 'string';

export interface Occurrence {
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units of the line (what editors and search_text print). */
  col: number;
  where: Where;
}

type Family = 'c' | 'hash' | 'lua' | 'sql';

const HASH = new Set(['python', 'ruby', 'shell', 'bash', 'yaml', 'toml', 'r', 'perl', 'elixir', 'nim', 'julia', 'make', 'cmake', 'dockerfile']);

function familyOf(language: string | undefined): Family {
  const lang = (language ?? '').toLowerCase();
  if (HASH.has(lang)) return 'hash';
  if (lang === 'lua') return 'lua';
  if (lang === 'sql') return 'sql';
  return 'c';
}

/** Identifier characters: ASCII letters, digits, `_`, `$`, and any non-ASCII letter (approximated as >= 0x80). */
function isIdent(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c >= 0x80;
}

/** What can end a template literal's text: an escape, the closing backquote, or `${`. */
const TEMPLATE = /[\\`$]/g;

/** The characters that may open a comment or a string in code, per family (and PHP's `#`); braces too inside a template's `${}`. */
const SPECIALS = new Map<string, RegExp>();

function codeSpecials(family: Family, php: boolean, braces: boolean): RegExp {
  const key = `${family}${php ? 'p' : ''}${braces ? 'b' : ''}`;
  let re = SPECIALS.get(key);
  if (!re) SPECIALS.set(key, (re = specialsRegExp(family, php, braces)));
  return re;
}

function specialsRegExp(family: Family, php: boolean, braces: boolean): RegExp {
  const open = family === 'c' ? (php ? '/#' : '/') : family === 'hash' ? '#' : '\\-';
  return new RegExp(`[${open}"'\`${braces ? '{}' : ''}]`, 'g');
}

/**
 * Every whole-word occurrence of `name` in `text` (word boundary: no identifier character on either
 * side), classified by the lexical context it sits in. One pass that jumps (a sticky search for the
 * next character that can open a comment or a string, `indexOf` for where it closes): ~10x faster
 * than a character loop on real code, which a rename over ~200 files needs.
 */
export function occurrences(text: string, name: string, language?: string): Occurrence[] {
  const out: Occurrence[] = [];
  if (!name) return out;
  let next = text.indexOf(name);
  if (next < 0) return out;
  const lang = (language ?? '').toLowerCase();
  const family = familyOf(lang);
  const python = lang === 'python';
  const rust = lang === 'rust';
  const php = lang === 'php';
  const templates = family === 'c' && lang !== 'go' && !rust;
  const plain = codeSpecials(family, php, false);
  const nested = codeSpecials(family, php, true);
  const n = text.length;
  // Lines are counted only up to each emitted occurrence (occurrences come in text order).
  let line = 1;
  let lineStart = 0;
  let counted = 0;
  const emitUpTo = (end: number, where: Where) => {
    while (next >= 0 && next < end) {
      const before = next > 0 ? text.charCodeAt(next - 1) : 32;
      const after = next + name.length < n ? text.charCodeAt(next + name.length) : 32;
      if (!isIdent(before) && !isIdent(after)) {
        for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < next; nl = text.indexOf('\n', nl + 1)) {
          line++;
          lineStart = nl + 1;
        }
        counted = next;
        out.push({ line, col: next - lineStart + 1, where });
      }
      next = text.indexOf(name, next + name.length);
    }
  };
  /** End (exclusive) of a quoted string opened at `at` by `q`, honouring escapes; a newline ends a one-line string. */
  const stringEnd = (at: number, q: string, multiline: boolean): number => {
    const from = at + q.length;
    for (let i = from; ; ) {
      const j = text.indexOf(q, i);
      if (!multiline) {
        const nl = text.indexOf('\n', i);
        if (nl >= 0 && (j < 0 || nl < j)) return nl;
      }
      if (j < 0) return n;
      let slashes = 0;
      for (let b = j - 1; b >= from && text.charCodeAt(b) === 92; b--) slashes++;
      if (slashes % 2 === 0) return j + q.length;
      i = j + 1;
    }
  };
  // Template literals: the brace depth of each open `${`, innermost last.
  const stack: number[] = [];
  let depth = 0;
  let pos = 0;
  /** Scan a template literal's text from `at` (after the backquote or a closing `}`): returns where code resumes. */
  const templateText = (at: number): number => {
    TEMPLATE.lastIndex = at;
    for (let m = TEMPLATE.exec(text); m; m = TEMPLATE.exec(text)) {
      const i = m.index;
      const c = text.charCodeAt(i);
      if (c === 92) TEMPLATE.lastIndex = i + 2;
      else if (c === 96) {
        emitUpTo(i, 'string');
        return i + 1;
      } else if (text.charCodeAt(i + 1) === 123) {
        emitUpTo(i, 'string');
        stack.push(depth);
        depth = 0;
        return i + 2;
      }
    }
    emitUpTo(n, 'string');
    return n;
  };
  while (pos < n && next >= 0) {
    const re = stack.length ? nested : plain;
    re.lastIndex = pos;
    const m = re.exec(text);
    const at = m ? m.index : n;
    emitUpTo(at, 'code');
    if (!m) break;
    const c = text.charCodeAt(at);
    let end: number;
    let where: Where = 'string';
    if (c === 123 /* { */) {
      depth++;
      pos = at + 1;
      continue;
    }
    if (c === 125 /* } */) {
      if (depth > 0) depth--;
      else {
        depth = stack.pop()!;
        pos = templateText(at + 1);
        continue;
      }
      pos = at + 1;
      continue;
    }
    if (c === 47 /* / */) {
      const d = text.charCodeAt(at + 1);
      if (d === 47) {
        where = 'comment';
        const nl = text.indexOf('\n', at);
        end = nl < 0 ? n : nl;
      } else if (d === 42) {
        where = 'comment';
        const close = text.indexOf('*/', at + 2);
        end = close < 0 ? n : close + 2;
      } else {
        pos = at + 1;
        continue;
      }
    } else if (c === 45 /* - */) {
      if (text.charCodeAt(at + 1) !== 45) {
        pos = at + 1;
        continue;
      }
      where = 'comment';
      const long = family === 'lua' && text.startsWith('[[', at + 2);
      const close = long ? text.indexOf(']]', at) : text.indexOf('\n', at);
      end = close < 0 ? n : long ? close + 2 : close;
    } else if (c === 35 /* # */) {
      where = 'comment';
      const nl = text.indexOf('\n', at);
      end = nl < 0 ? n : nl;
    } else if (c === 96 && templates) {
      pos = templateText(at + 1);
      continue;
    } else if (c === 39 && rust && !/^'(?:\\.|[^\\'\n])'/.test(text.slice(at, at + 12))) {
      pos = at + 1; // a lifetime ('a), not a char literal
      continue;
    } else {
      const q = String.fromCharCode(c);
      const triple = python && text.startsWith(q + q + q, at);
      // Go raw strings (and other backquoted strings outside JS) have no escapes.
      if (c === 96) {
        const close = text.indexOf('`', at + 1);
        end = close < 0 ? n : close + 1;
      } else end = stringEnd(at, triple ? q + q + q : q, triple);
    }
    emitUpTo(end, where);
    pos = end;
  }
  return out;
}

/** Is `to` an identifier a rename can introduce (letters, digits, `_`; `$` too in JavaScript/TypeScript/PHP)? */
export function isIdentifier(to: string, language?: string): boolean {
  const lang = (language ?? '').toLowerCase();
  const dollar = lang === 'typescript' || lang === 'tsx' || lang === 'javascript' || lang === 'php';
  return (dollar ? /^[\p{L}_$][\p{L}\p{N}_$]*$/u : /^[\p{L}_][\p{L}\p{N}_]*$/u).test(to);
}
