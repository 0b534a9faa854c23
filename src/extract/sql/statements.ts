/**
 * SQL text -> its statements' byte ranges, for the parsers that take one statement at a time
 * (node-sql-parser: see nsp-ast.ts). A lexer, not a parser: it knows quotes ('..', "..", `..`,
 * [..] in SQLite), comments (`--`, `#` in MySQL, `/* *\/`), MySQL's `DELIMITER` lines and trigger
 * bodies (`CREATE TRIGGER ... BEGIN ...; END`), so a `;` inside them does not end a statement.
 */

export interface StatementRange {
  /** The statement's text (leading comments and whitespace dropped, no terminator). */
  text: string;
  /** UTF-8 byte offset of the text in the source, and its byte length. */
  location: number;
  length: number;
}

const TRIGGER_HEAD = /^create\s+(?:definer\s*=\s*\S+\s+)?(?:temp(?:orary)?\s+)?trigger\b/i;

/** Splits `source` into statements; `hashComments`: `#` starts a comment (MySQL). */
export function splitStatements(source: string, hashComments: boolean): StatementRange[] {
  const out: StatementRange[] = [];
  let delimiter = ';';
  let start = 0; // char index where the current statement's text may begin
  let depth = 0; // BEGIN ... END nesting inside a trigger body
  let i = 0;
  let blank = true; // only whitespace and comments since `start`
  const n = source.length;
  let charAt = 0;
  let byteAt = 0;
  /** Byte offset of a char index (called with increasing indexes: linear overall). */
  const bytesTo = (index: number): number => {
    byteAt += Buffer.byteLength(source.slice(charAt, index));
    charAt = index;
    return byteAt;
  };
  const push = (end: number): void => {
    const raw = source.slice(start, end);
    const lead = /^(?:\s+|--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(raw)![0];
    // A `#` lead is a comment only in MySQL; elsewhere keep it (the parser will say what it is).
    const skip = hashComments ? lead.length : /^(?:\s+|--[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(raw)![0].length;
    const text = raw.slice(skip).trimEnd();
    if (text) {
      const location = bytesTo(start + skip);
      out.push({ text, location, length: Buffer.byteLength(text) });
    }
  };
  while (i < n) {
    const c = source[i]!;
    // DELIMITER lines (mysql client syntax) at a statement's start.
    if ((c === 'D' || c === 'd') && blank && /^delimiter[ \t]+\S+/i.test(source.slice(i, i + 40))) {
      const eol = source.indexOf('\n', i);
      const line = source.slice(i, eol < 0 ? n : eol);
      delimiter = line.trim().split(/\s+/)[1]!;
      i = eol < 0 ? n : eol + 1;
      start = i;
      continue;
    }
    if (c !== ' ' && c !== '\n' && c !== '\t' && c !== '\r' && !(c === '-' && source[i + 1] === '-') && !(c === '/' && source[i + 1] === '*') && !(c === '#' && hashComments)) blank = false;
    if (c === '\'' || c === '"' || c === '`' || (c === '[' && !hashComments)) {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      while (j < n) {
        if (source[j] === '\\' && c !== '[' && hashComments) { j += 2; continue; }
        if (source[j] === close) { if (source[j + 1] === close && c !== '[') { j += 2; continue; } break; }
        j++;
      }
      i = j + 1;
      continue;
    }
    if (c === '-' && source[i + 1] === '-') { const e = source.indexOf('\n', i); i = e < 0 ? n : e + 1; continue; }
    if (c === '#' && hashComments) { const e = source.indexOf('\n', i); i = e < 0 ? n : e + 1; continue; }
    if (c === '/' && source[i + 1] === '*') { const e = source.indexOf('*/', i + 2); i = e < 0 ? n : e + 2; continue; }
    if (/[A-Za-z]/.test(c) && (i === 0 || !/\w/.test(source[i - 1]!))) {
      const word = /^[A-Za-z_]+/.exec(source.slice(i, i + 12))![0].toLowerCase();
      if (word === 'begin' || word === 'case') {
        if (depth > 0 || TRIGGER_HEAD.test(source.slice(start, i).replace(/^(?:\s+|--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)*/, ''))) depth++;
      } else if (word === 'end' && depth > 0) depth--;
      i += word.length;
      continue;
    }
    if (depth === 0 && source.startsWith(delimiter, i)) {
      push(i);
      i += delimiter.length;
      start = i;
      blank = true;
      continue;
    }
    i++;
  }
  push(n);
  return out;
}
