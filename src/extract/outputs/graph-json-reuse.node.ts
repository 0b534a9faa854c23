import type { GraphDocument, GraphLink } from '../../graph/model.ts';
import { LINK_KEYS, NODE_KEYS, canonicalJson, headerText, ordered } from './graph-json.ts';

/**
 * graph.json of `doc` (as {@link stringifyGraph} writes it) as UTF-8 bytes, copying from `previous`
 * (the bytes of an earlier graph.json that stringifyGraph wrote) the lines of records that did not
 * change: `nodeFrom[i]` / `linkFrom[j]` is the index of record i / j in the previous text, whose line
 * must then hold exactly the same record (-1: serialize it). Only the header and new records are
 * serialized. Null when `previous` does not have stringifyGraph's layout or a copied line does not
 * start with its record's key (the caller then serializes in full).
 *
 * `newCommunity[i]` set: node i equals its previous record but for its community (communities are
 * numbered again after most edits): its line is copied around the number, which is written anew.
 */
export function reuseGraphText(
  previous: Uint8Array, doc: GraphDocument, nodeFrom: Int32Array, linkFrom: Int32Array, newCommunity?: Uint8Array,
): Uint8Array | null {
  const n = doc.nodes.length;
  const m = doc.links.length;
  const nodeKey = (i: number): string => `{"id":${JSON.stringify(doc.nodes[i]!.id)},`;
  const linkKey = (j: number): string => {
    const l: GraphLink = doc.links[j]!;
    return `{"source":${JSON.stringify(l.source)},"target":${JSON.stringify(l.target)},"relation":${JSON.stringify(l.relation)},`;
  };
  const nodeJson = (i: number): string => JSON.stringify(ordered(doc.nodes[i]!, NODE_KEYS));
  const linkJson = (j: number): string => JSON.stringify(ordered(doc.links[j]!, LINK_KEYS));
  const communityOf = (i: number): unknown => (doc.nodes[i] as { community?: unknown }).community;
  if (n === 0 || m === 0 || nodeFrom.length !== n || linkFrom.length !== m) return null;
  const prev = Buffer.from(previous.buffer, previous.byteOffset, previous.byteLength);
  const view = new Uint8Array(previous.buffer, previous.byteOffset, previous.byteLength);
  // Line starts of the previous text; its node and link sections from their bracket lines.
  const starts: number[] = [];
  for (let at = 0; at < prev.length;) {
    starts.push(at);
    const nl = prev.indexOf(10, at);
    if (nl < 0) return null;
    at = nl + 1;
  }
  starts.push(prev.length);
  const lines = starts.length - 1;
  const lineIs = (k: number, text: string): boolean => k >= 0 && k < lines && prev.toString('latin1', starts[k]!, starts[k + 1]! - 1) === text;
  if (lines < 7 || !lineIs(2, '"nodes":[')) return null;
  // Nodes run from line 3 up to the `],` + `"links":[` pair; links up to the final `],`.
  const linksOpen = (() => {
    for (let k = 3; k < lines; k++) if (prev[starts[k]!] === 0x5d && lineIs(k, '],') && lineIs(k + 1, '"links":[')) return k + 1;
    return -1;
  })();
  if (linksOpen < 0 || !lineIs(lines - 2, '],')) return null;
  const prevNodes = linksOpen - 1 - 3;
  const prevLinks = lines - 2 - (linksOpen + 1);
  // The new text is assembled in one buffer: copied ranges and written strings, no part list to join.
  const out = new ByteSink(prev.length + (prev.length >> 4) + 4096);
  out.text(headerText(doc));
  out.text('"nodes":[\n');
  // A record's line holds its key first: checked at both ends of every copied run.
  const scratch = new ByteSink(1024);
  const startsWith = (line: number, key: string): boolean => {
    scratch.length = 0;
    scratch.text(key);
    const len = scratch.length;
    const start = starts[line]!;
    return starts[line + 1]! - start > len && scratch.equalsAt(view, start);
  };
  /** Copy previous lines first..last (a run of records), without the last one's separator and line break. */
  const copyRun = (first: number, last: number): void => {
    let end = starts[last + 1]! - 1;
    if (prev[end - 1] === 0x2c) end--;
    out.bytes(view, starts[first]!, end);
  };
  /**
   * Where previous line `line` holds its record's own community number (the top-level
   * `"community":<int>` key; nested objects and strings are skipped): [start, end) of the digits.
   */
  const COMMUNITY_KEY = Buffer.from('"community":');
  const communityAt = (line: number): [number, number] | null => {
    const end = starts[line + 1]! - 1;
    let depth = 0;
    for (let i = starts[line]!; i < end; i++) {
      const c = prev[i]!;
      if (c === 0x22) {
        if (depth === 1 && prev[i - 1] === 0x2c && startsAt(view, i, COMMUNITY_KEY)) {
          const from = i + COMMUNITY_KEY.length;
          let d = prev[from] === 0x2d ? from + 1 : from;
          const digits = d;
          while (prev[d]! >= 0x30 && prev[d]! <= 0x39) d++;
          return d > digits && (prev[d] === 0x2c || prev[d] === 0x7d) ? [from, d] : null;
        }
        i = stringEnd(prev, i, end); // skip the string: its quotes and commas are not structure
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
    }
    return null;
  };
  const patched = (k: number): boolean => newCommunity !== undefined && newCommunity[k] === 1;
  const section = (
    count: number, prevCount: number, firstLine: number, from: Int32Array, key: (k: number) => string, record: (k: number) => string, boundary: string,
    patch: (k: number) => boolean,
  ): boolean => {
    for (let k = 0; k < count;) {
      const f = from[k]!;
      if (f >= 0 && patch(k)) {
        if (f >= prevCount || !startsWith(firstLine + f, key(k))) return false;
        const at = communityAt(firstLine + f);
        const community = communityOf(k);
        if (at && Number.isInteger(community)) {
          let end = starts[firstLine + f + 1]! - 1;
          if (prev[end - 1] === 0x2c) end--;
          out.bytes(view, starts[firstLine + f]!, at[0]);
          out.text(String(community));
          out.bytes(view, at[1], end);
        } else out.text(record(k));
        out.text(k < count - 1 ? ',\n' : '\n');
        k++;
        continue;
      }
      if (f < 0) {
        // A run of new records: one stringify, split into lines the way stringifyGraph does.
        let e = k;
        while (e + 1 < count && from[e + 1]! < 0) e++;
        // (JSON.stringify of the array, which stringifyGraph splits, is the records joined by commas)
        const batch: string[] = [];
        for (let r = k; r <= e; r++) batch.push(record(r));
        out.text(batch.join(',').replaceAll(`},${boundary}`, `},\n${boundary}`));
        out.text(e < count - 1 ? ',\n' : '\n');
        k = e + 1;
        continue;
      }
      let e = k;
      while (e + 1 < count && from[e + 1] === from[e]! + 1 && !patch(e + 1)) e++;
      const last = from[e]!;
      if (last >= prevCount || !startsWith(firstLine + f, key(k)) || !startsWith(firstLine + last, key(e))) return false;
      copyRun(firstLine + f, firstLine + last);
      out.text(e < count - 1 ? ',\n' : '\n');
      k = e + 1;
    }
    return true;
  };
  if (!section(n, prevNodes, 3, nodeFrom, nodeKey, nodeJson, '{"id":', patched)) return null;
  out.text('],\n"links":[\n');
  if (!section(m, prevLinks, linksOpen + 1, linkFrom, linkKey, linkJson, '{"source":', () => false)) return null;
  out.text(`],\n"hyperedges":${canonicalJson(doc.hyperedges ?? [])}}\n`);
  return out.result();
}

function startsAt(bytes: Uint8Array, at: number, expect: Uint8Array): boolean {
  for (let i = 0; i < expect.length; i++) if (bytes[at + i] !== expect[i]) return false;
  return true;
}

/** Index of the quote closing the JSON string whose opening quote is at `open` (or `end`). */
function stringEnd(buf: Buffer, open: number, end: number): number {
  for (let q = buf.indexOf(0x22, open + 1); q >= 0 && q < end; q = buf.indexOf(0x22, q + 1)) {
    let slashes = 0;
    while (buf[q - 1 - slashes] === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return end;
}

const utf8 = new TextEncoder();

/**
 * A growing byte buffer that ranges and strings (UTF-8) are appended to. Plain Uint8Arrays, typed-array
 * set and a byte loop for short ASCII: Buffer's copy/write/subarray cost ~1 µs a call, and an update
 * makes tens of thousands of these calls.
 */
class ByteSink {
  buffer: Uint8Array;
  length = 0;
  constructor(into: number | Uint8Array) {
    this.buffer = typeof into === 'number' ? new Uint8Array(into) : into;
  }
  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes));
    bigger.set(this.buffer.subarray(0, this.length));
    this.buffer = bigger;
  }
  /** Append `from[start, end)` (`from` a plain Uint8Array: its subarray is cheap). */
  bytes(from: Uint8Array, start: number, end: number): void {
    this.room(end - start);
    this.buffer.set(from.subarray(start, end), this.length);
    this.length += end - start;
  }
  text(s: string): void {
    this.room(s.length * 3);
    if (s.length <= 64) {
      const b = this.buffer;
      let at = this.length;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          this.length += utf8.encodeInto(s, b.subarray(this.length)).written;
          return;
        }
        b[at++] = c;
      }
      this.length = at;
      return;
    }
    this.length += utf8.encodeInto(s, this.buffer.subarray(this.length)).written;
  }
  /** Whether `bytes[start...]` begins with this sink's content. */
  equalsAt(bytes: Uint8Array, start: number): boolean {
    const b = this.buffer;
    for (let i = 0; i < this.length; i++) if (bytes[start + i] !== b[i]) return false;
    return true;
  }
  result(): Buffer {
    return Buffer.from(this.buffer.buffer, this.buffer.byteOffset, this.length);
  }
}
