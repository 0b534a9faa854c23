/** UTF-8 byte helpers: pages and cuts that never split a character. */

/** True when `b` is a UTF-8 continuation byte (10xxxxxx). */
export function isContinuation(b: number): boolean {
  return (b & 0xc0) === 0x80;
}

/** The largest cut <= `end` in `bytes` that falls on a character boundary. */
export function boundaryAtOrBefore(bytes: Uint8Array, end: number): number {
  let e = Math.min(end, bytes.length);
  while (e > 0 && e < bytes.length && isContinuation(bytes[e]!)) e--;
  return e;
}

/** Truncates `text` to at most `maxBytes` UTF-8 bytes on a character boundary. */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // Fast path: every UTF-16 unit is at most 3 bytes.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  const cut = boundaryAtOrBefore(bytes, maxBytes);
  return { text: bytes.subarray(0, cut).toString('utf8'), truncated: true };
}

/** UTF-8 byte length of a string. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export interface BytePage {
  text: string;
  /** Byte offset of the next page, or null at the end. */
  next: number | null;
  /** UTF-8 byte length of the whole body. */
  total: number;
}

/**
 * An exact byte page of `body` starting at `offset`, at most `pageBytes` long, ending on a character
 * boundary. Throws RangeError for an offset inside a character or past the end.
 */
export function bytePage(body: string, offset: number, pageBytes: number): BytePage {
  const bytes = Buffer.from(body, 'utf8');
  const total = bytes.length;
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`Cannot read page: offset ${offset} is not a non-negative integer`);
  if (offset > total) throw new RangeError(`Cannot read page: offset ${offset} is past the end of the body (${total} bytes); restart at 0`);
  if (offset < total && isContinuation(bytes[offset]!)) {
    throw new RangeError(`Cannot read page: offset ${offset} is inside a UTF-8 character; pass an offset returned as next, or 0`);
  }
  let end = boundaryAtOrBefore(bytes, offset + Math.max(4, pageBytes));
  if (end <= offset && offset < total) {
    // A page smaller than one character: take the whole character.
    end = offset + 1;
    while (end < total && isContinuation(bytes[end]!)) end++;
  }
  return { text: bytes.subarray(offset, end).toString('utf8'), next: end < total ? end : null, total };
}
