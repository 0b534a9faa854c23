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

/**
 * Every whole-word occurrence of `name` in `text` (word boundary: no identifier character on either
 * side), classified by the lexical context it sits in. Linear in the text: one pass of the lexer,
 * with `indexOf` jumps to the next candidate.
 */
export function occurrences(text: string, name: string, language?: string): Occurrence[] {
  const out: Occurrence[] = [];
  if (!name) return out;
  let next = text.indexOf(name);
  if (next < 0) return out;
  const family = familyOf(language);
  const python = (language ?? '').toLowerCase() === 'python';
  const rust = (language ?? '').toLowerCase() === 'rust';
  const n = text.length;
  let line = 1;
  let lineStart = 0;
  let i = 0;
  // Lexer state: in code, or inside a comment/string until `close` (a '\n' closes a line comment).
  let where: Where = 'code';
  let close = '';
  // JS template literals: `${` opens code that a matching `}` closes; depth of braces per open template.
  const templates: number[] = [];
  let braces = 0;
  const emit = (at: number) => {
    const before = at > 0 ? text.charCodeAt(at - 1) : 32;
    const after = at + name.length < n ? text.charCodeAt(at + name.length) : 32;
    if (!isIdent(before) && !isIdent(after)) out.push({ line, col: at - lineStart + 1, where });
  };
  while (i < n) {
    // A candidate the lexer stepped over (inside an escape or a multi-character token) is no occurrence.
    if (next < i) next = text.indexOf(name, i);
    if (next < 0) break;
    if (i === next) {
      emit(i);
      i += name.length;
      next = text.indexOf(name, i);
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
      if (where === 'comment' && close === '\n') where = 'code';
      i++;
      continue;
    }
    if (where !== 'code') {
      if (c === 92 /* \ */ && where === 'string' && close !== '`raw') {
        // An escape: skip the next character (but keep line counting right).
        if (text.charCodeAt(i + 1) !== 10) i++;
        i++;
        continue;
      }
      if (close === '`' && c === 36 && text.charCodeAt(i + 1) === 123) {
        // `${` inside a template literal: code until the matching `}`.
        templates.push(braces);
        braces = 0;
        where = 'code';
        close = '';
        i += 2;
        continue;
      }
      const end = close === '`raw' ? '`' : close;
      if (end !== '\n' && text.startsWith(end, i)) {
        where = 'code';
        i += end.length;
        close = '';
        continue;
      }
      i++;
      continue;
    }
    // In code.
    if (templates.length && (c === 123 || c === 125)) {
      if (c === 123) braces++;
      else if (braces === 0) {
        braces = templates.pop()!;
        where = 'string';
        close = '`';
        i++;
        continue;
      } else braces--;
      i++;
      continue;
    }
    if (family === 'c' || family === 'sql' || family === 'lua') {
      if (c === 47 /* / */ && family === 'c') {
        const d = text.charCodeAt(i + 1);
        if (d === 47) {
          where = 'comment';
          close = '\n';
          i += 2;
          continue;
        }
        if (d === 42) {
          where = 'comment';
          close = '*/';
          i += 2;
          continue;
        }
      }
      if (c === 45 /* - */ && (family === 'sql' || family === 'lua') && text.charCodeAt(i + 1) === 45) {
        where = 'comment';
        close = family === 'lua' && text.startsWith('[[', i + 2) ? ']]' : '\n';
        i += 2;
        continue;
      }
      if (c === 35 /* # */ && language === 'php') {
        where = 'comment';
        close = '\n';
        i++;
        continue;
      }
    } else if (c === 35 /* # */) {
      where = 'comment';
      close = '\n';
      i++;
      continue;
    }
    if (c === 34 /* " */ || c === 39 /* ' */ || c === 96 /* ` */) {
      if (c === 39 && rust && !/^'(?:\\.|[^\\'\n])'/.test(text.slice(i, i + 12))) {
        i++; // a lifetime ('a), not a char literal
        continue;
      }
      const q = String.fromCharCode(c);
      if (python && text.startsWith(q + q + q, i)) {
        where = 'string';
        close = q + q + q;
        i += 3;
        continue;
      }
      where = 'string';
      // Go raw strings and JS templates are both backquoted; only JS templates interpolate.
      close = c === 96 && (language === 'go' || family !== 'c') ? '`raw' : q;
      i++;
      continue;
    }
    i++;
  }
  return out;
}

/** Is `to` an identifier a rename can introduce (letters, digits, `_`; `$` too in JavaScript/TypeScript/PHP)? */
export function isIdentifier(to: string, language?: string): boolean {
  const lang = (language ?? '').toLowerCase();
  const dollar = lang === 'typescript' || lang === 'tsx' || lang === 'javascript' || lang === 'php';
  return (dollar ? /^[\p{L}_$][\p{L}\p{N}_$]*$/u : /^[\p{L}_][\p{L}\p{N}_]*$/u).test(to);
}
