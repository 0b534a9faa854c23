import { SynqlError } from './errors.ts';

export type TokenType = 'ident' | 'keyword' | 'number' | 'string' | 'punct' | 'eof';

export interface Token {
  type: TokenType;
  /** Keywords upper-cased; punctuation as written; strings unescaped; identifiers as written. */
  value: string;
  offset: number;
  /** Characters of the source the token covers. */
  length: number;
}

export const KEYWORDS = new Set([
  'MATCH', 'WHERE', 'RETURN', 'DISTINCT', 'ORDER', 'BY', 'ASC', 'ASCENDING', 'DESC', 'DESCENDING', 'SKIP',
  'LIMIT', 'AND', 'OR', 'XOR', 'NOT', 'IN', 'STARTS', 'ENDS', 'WITH', 'CONTAINS', 'IS', 'NULL', 'TRUE', 'FALSE', 'AS',
]);

/** Two-character operators, longest first. */
const PUNCT2 = ['<=', '>=', '<>', '!=', '=~', '..'];
const PUNCT1 = '()[]{},.:|*-<>=';

/** The query's tokens, ending with one `eof` token. `//` starts a comment to the end of the line. */
export function lex(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(source[i]!)) i++;
      const word = source.slice(start, i);
      const upper = word.toUpperCase();
      tokens.push(KEYWORDS.has(upper) ? { type: 'keyword', value: upper, offset: start, length: i - start } : { type: 'ident', value: word, offset: start, length: i - start });
      continue;
    }
    if (c === '`') {
      const end = source.indexOf('`', i + 1);
      if (end < 0) throw new SynqlError('unterminated `quoted name`: expected a closing backtick', start, source);
      tokens.push({ type: 'ident', value: source.slice(i + 1, end), offset: start, length: end + 1 - start });
      i = end + 1;
      continue;
    }
    if (isDigit(c)) {
      while (i < n && isDigit(source[i]!)) i++;
      // `1..3` is a range, not the number 1. followed by .3
      if (source[i] === '.' && isDigit(source[i + 1] ?? '')) {
        i++;
        while (i < n && isDigit(source[i]!)) i++;
      }
      if (i < n && isIdentStart(source[i]!)) throw new SynqlError(`malformed number '${source.slice(start, i + 1)}': expected digits`, start, source);
      tokens.push({ type: 'number', value: source.slice(start, i), offset: start, length: i - start });
      continue;
    }
    if (c === "'" || c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= n) throw new SynqlError(`unterminated string: expected a closing ${c}`, start, source);
        const d = source[i]!;
        if (d === c) {
          i++;
          break;
        }
        if (d === '\\') {
          const e = source[i + 1];
          if (e === undefined) throw new SynqlError(`unterminated string: expected a closing ${c}`, start, source);
          // Unknown escapes keep their backslash, so a regex's `\d` or `\.` reaches RE2 as written.
          value += e === 'n' ? '\n' : e === 't' ? '\t' : e === '\\' || e === "'" || e === '"' ? e : `\\${e}`;
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      tokens.push({ type: 'string', value, offset: start, length: i - start });
      continue;
    }
    const two = source.slice(i, i + 2);
    if (PUNCT2.includes(two)) {
      tokens.push({ type: 'punct', value: two, offset: start, length: 2 });
      i += 2;
      continue;
    }
    if (PUNCT1.includes(c)) {
      tokens.push({ type: 'punct', value: c, offset: start, length: 1 });
      i++;
      continue;
    }
    throw new SynqlError(`unexpected character '${c}'`, start, source);
  }
  tokens.push({ type: 'eof', value: '', offset: n, length: 0 });
  return tokens;
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isIdentPart(c: string): boolean {
  return isIdentStart(c) || isDigit(c);
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}
