import { Buffer, constants } from 'node:buffer';

/** A stdio line (one JSON-RPC message) may hold at most this many bytes unless the server is told otherwise. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** The largest limit that can be honoured: a longer line could not be decoded into one JavaScript string. */
export const MAX_LINE_BYTES_CEILING = constants.MAX_STRING_LENGTH;

export interface LineSink {
  /** A complete line, decoded as UTF-8, without its newline. */
  line(text: string): void;
  /**
   * The current line grew past the limit. Called once per such line, as soon as it crosses the
   * limit; the line's bytes up to the next newline are then dropped, never kept.
   */
  oversized(): void;
}

/**
 * Splits a byte stream into newline-terminated lines in time linear in its size: each chunk is
 * searched for a newline once, a partial line is kept as a list of chunk slices and joined once
 * when its newline arrives (appending to one growing buffer and searching it again from the start
 * on every chunk is quadratic; 100 MB took 130 s). Splitting on the 0x0A byte is safe in UTF-8, and
 * decoding only whole lines keeps characters split across chunks intact.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    readonly maxLineBytes: number,
    private readonly sink: LineSink,
  ) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1 || maxLineBytes > MAX_LINE_BYTES_CEILING) {
      throw new RangeError(`Cannot split lines: the line limit must be a whole number of bytes from 1 to ${MAX_LINE_BYTES_CEILING}, got ${maxLineBytes}`);
    }
  }

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(0x0a, start);
      this.keep(bytes, start, nl < 0 ? bytes.length : nl);
      if (nl < 0) return;
      this.emit();
      start = nl + 1;
    }
  }

  /** The input ended: a last line without a newline still counts. */
  end(): void {
    if (this.size > 0) this.emit();
    this.skipping = false;
  }

  private keep(bytes: Buffer, start: number, end: number): void {
    if (this.skipping || end === start) return;
    if (this.size + (end - start) > this.maxLineBytes) {
      this.parts = [];
      this.size = 0;
      this.skipping = true;
      this.sink.oversized();
      return;
    }
    this.parts.push(bytes.subarray(start, end));
    this.size += end - start;
  }

  private emit(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const parts = this.parts;
    const text = parts.length === 0 ? '' : parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    this.sink.line(text);
  }
}
