/**
 * SYNQL's errors: a parse or check error points at the spot (line:column, a caret under it) and says
 * what was expected; a budget error names the limit that stopped the query and how to narrow it.
 * Both are messages for the caller (the tool returns them with isError), never a crash.
 */

export class SynqlError extends Error {
  override name = 'SynqlError';
  constructor(
    message: string,
    /** Offset into the query text (UTF-16 units). */
    readonly offset: number,
    readonly source: string,
  ) {
    super(message);
  }

  get line(): number {
    return lineCol(this.source, this.offset).line;
  }

  get column(): number {
    return lineCol(this.source, this.offset).column;
  }

  /** `SYNQL error at 1:15: ...` with the offending line and a caret under the spot. */
  format(): string {
    const { line, column } = lineCol(this.source, this.offset);
    const lines = this.source.split('\n');
    const text = (lines[line - 1] ?? '').replace(/\t/g, ' ');
    const shown = text.length > 160 ? text.slice(Math.max(0, column - 80), column + 80) : text;
    const caretAt = text.length > 160 ? Math.min(column - 1, 80) : column - 1;
    return `SYNQL error at ${line}:${column}: ${this.message}\n  ${shown}\n  ${' '.repeat(Math.max(0, caretAt))}^`;
  }
}

/** A query that would pass one of the budgets (rows, hops, time, output rows). */
export class SynqlBudgetError extends Error {
  override name = 'SynqlBudgetError';
  constructor(
    readonly limit: 'rows' | 'hops' | 'time' | 'limit',
    message: string,
  ) {
    super(message);
  }
}

export function lineCol(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}
