import { close, openSync, writev } from 'node:fs';
import type { GraphDocument, GraphLink } from '../../graph/model.ts';
import { stagedRename, type StagedWrite } from '../repo-files.node.ts';
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
 * numbered again after most edits): its line is copied around the number, which is written anew;
 * 1 when the previous record had an integer community, 2 when it had none or another value.
 */
export function reuseGraphText(
  previous: Uint8Array, doc: GraphDocument, nodeFrom: Int32Array, linkFrom: Int32Array, newCommunity?: Uint8Array,
): Uint8Array | null {
  return reuseGraphRanges(previous, doc, nodeFrom, linkFrom, newCommunity)?.toBuffer() ?? null;
}

/**
 * {@link reuseGraphText} as ranges of `previous` and of the newly written bytes, not one buffer: an
 * update's graph.json is mostly the previous one, and copying ~50 MB into a fresh buffer costs the
 * copy, its page faults and, as external memory, a full garbage collection of the heap.
 */
export function reuseGraphRanges(
  previous: Uint8Array, doc: GraphDocument, nodeFrom: Int32Array, linkFrom: Int32Array, newCommunity?: Uint8Array,
): GraphText | null {
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
  const starts = lineStarts(prev);
  if (!starts) return null;
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
  // The new text as ranges: of the previous text where copied, of written blocks elsewhere.
  const out = new GraphText(view);
  out.text(headerText(doc));
  out.text('"nodes":[\n');
  // A record's line holds its key first: checked at both ends of every copied run.
  let scratch = new Uint8Array(1024);
  const startsWith = (line: number, key: string): boolean => {
    if (scratch.length < 3 * key.length) scratch = new Uint8Array(3 * key.length);
    const len = utf8.encodeInto(key, scratch).written;
    const start = starts[line]!;
    if (starts[line + 1]! - start <= len) return false;
    for (let i = 0; i < len; i++) if (view[start + i] !== scratch[i]) return false;
    return true;
  };
  /** Copy previous lines first..last (a run of records), without the last one's separator and line break. */
  const copyRun = (first: number, last: number): void => {
    let end = starts[last + 1]! - 1;
    if (prev[end - 1] === 0x2c) end--;
    out.bytes(starts[first]!, end);
  };
  /**
   * Where previous line `line` holds its record's own community number (the top-level
   * `"community":<int>` key; nested objects and strings are skipped): [start, end) of the digits.
   */
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
  /**
   * {@link communityAt} without walking the line, for a record whose previous one had an integer
   * community (`newCommunity` 1). Any `"community":` in a JSON line is a key (inside a string its
   * quotes are escaped), so when the line holds only one and that one follows a comma, it is the
   * record's own. Undefined: walk the line.
   */
  const quickCommunityAt = (line: number): [number, number] | undefined => {
    const start = starts[line]!;
    const end = starts[line + 1]! - 1;
    const at = prev.subarray(start, end).indexOf(COMMUNITY_KEY);
    const key = start + at;
    if (at < 0 || prev[key - 1] !== 0x2c) return undefined;
    const from = key + COMMUNITY_KEY.length;
    let d = prev[from] === 0x2d ? from + 1 : from;
    const digits = d;
    while (prev[d]! >= 0x30 && prev[d]! <= 0x39) d++;
    if (d === digits || (prev[d] !== 0x2c && prev[d] !== 0x7d)) return undefined;
    // (the keys after it are a few extra fields: a short walk)
    for (let j = d; j + COMMUNITY_KEY.length <= end; j++) if (prev[j] === 0x22 && startsAt(view, j, COMMUNITY_KEY)) return undefined;
    return [from, d];
  };
  /**
   * Whether previous line `line` starts with node k's key, compared char by char when the id needs
   * no JSON escape (what `startsWith(line, nodeKey(k))` answers, without a string per call).
   * Undefined: an id with characters JSON escapes.
   */
  const idAt = (line: number, k: number): boolean | undefined => {
    const id = doc.nodes[k]!.id;
    if (typeof id !== 'string') return undefined;
    const start = starts[line]! + ID_OPEN.length;
    if (start + id.length + 2 >= starts[line + 1]! || !startsAt(view, starts[line]!, ID_OPEN)) return false;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      if (c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c) return undefined;
      if (view[start + i] !== c) return false;
    }
    return view[start + id.length] === 0x22 && view[start + id.length + 1] === 0x2c;
  };
  const patched = (k: number): boolean => newCommunity !== undefined && newCommunity[k] !== 0;
  const section = (
    count: number, prevCount: number, firstLine: number, from: Int32Array, key: (k: number) => string, record: (k: number) => string, boundary: string,
    patch: (k: number) => boolean,
  ): boolean => {
    for (let k = 0; k < count;) {
      const f = from[k]!;
      if (f >= 0 && patch(k)) {
        if (f >= prevCount || !(idAt(firstLine + f, k) ?? startsWith(firstLine + f, key(k)))) return false;
        const at = (newCommunity![k] === 1 ? quickCommunityAt(firstLine + f) : undefined) ?? communityAt(firstLine + f);
        const community = communityOf(k);
        if (at && Number.isInteger(community)) {
          let end = starts[firstLine + f + 1]! - 1;
          if (prev[end - 1] === 0x2c) end--;
          out.bytes(starts[firstLine + f]!, at[0]);
          out.int(community as number);
          out.bytes(at[1], end);
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
  return out;
}

const COMMUNITY_KEY = Buffer.from('"community":');
const ID_OPEN = Buffer.from('{"id":"');

/** Offsets of each line of `text` and, last, its length; null unless the text ends with a line break. */
function lineStarts(text: Buffer): Int32Array | null {
  let starts = new Int32Array(Math.max(1024, text.length >> 8));
  let count = 0;
  for (let at = 0; at < text.length;) {
    if (count + 1 >= starts.length) {
      const bigger = new Int32Array(2 * starts.length);
      bigger.set(starts);
      starts = bigger;
    }
    starts[count++] = at;
    const nl = text.indexOf(10, at);
    if (nl < 0) return null;
    at = nl + 1;
  }
  starts[count++] = text.length;
  return starts.subarray(0, count);
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

/** Written bytes go into blocks of this size (a longer string gets a block of its own size). */
const BLOCK = 1 << 20;

/**
 * Text as a list of byte ranges, each of the previous text or of a block of written bytes, in order.
 * Appending what directly follows the last range extends it (a copied line and the line after it, or
 * a separator the previous text has right there too), so a mostly copied text is a few ranges.
 */
export class GraphText {
  /** Range k: bytes [start[k], end[k]) of source[k] (0: the previous text; b > 0: block b - 1). */
  private source: Int32Array = new Int32Array(1024);
  private start: Int32Array = new Int32Array(1024);
  private end: Int32Array = new Int32Array(1024);
  private count = 0;
  private readonly blocks: Uint8Array[] = [];
  /** Where the last block is written up to. */
  private at = 0;
  length = 0;

  constructor(private readonly previous: Uint8Array) {}

  /** Append `previous[start, end)`. */
  bytes(start: number, end: number): void {
    if (end <= start) return;
    this.length += end - start;
    const k = this.count - 1;
    if (k >= 0 && this.source[k] === 0 && this.end[k] === start) this.end[k] = end;
    else this.push(0, start, end);
  }

  /** Append a string (UTF-8). */
  text(s: string): void {
    if (!s.length) return;
    // The previous text goes on with these very bytes (a line break, a separator): extend its range.
    const k = this.count - 1;
    if (s.length <= 4 && k >= 0 && this.source[k] === 0 && this.continuesWith(this.end[k]!, s)) {
      this.end[k]! += s.length;
      this.length += s.length;
      return;
    }
    if (this.blocks.length === 0 || this.at + 3 * s.length > this.blocks[this.blocks.length - 1]!.length) {
      this.blocks.push(new Uint8Array(Math.max(BLOCK, 3 * s.length)));
      this.at = 0;
    }
    const block = this.blocks[this.blocks.length - 1]!;
    let written: number;
    if (s.length <= 64) {
      written = 0;
      for (; written < s.length; written++) {
        const c = s.charCodeAt(written);
        if (c >= 0x80) break;
        block[this.at + written] = c;
      }
      if (written < s.length) written = utf8.encodeInto(s, block.subarray(this.at)).written;
    } else written = utf8.encodeInto(s, block.subarray(this.at)).written;
    const source = this.blocks.length;
    if (k >= 0 && this.source[k] === source && this.end[k] === this.at) this.end[k]! += written;
    else this.push(source, this.at, this.at + written);
    this.at += written;
    this.length += written;
  }

  /** Append the decimal digits of an integer. */
  int(value: number): void {
    this.text(String(value));
  }

  /** The text as one buffer. */
  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (const view of this.views(0, this.count)) {
      out.set(view, at);
      at += view.length;
    }
    return out;
  }

  /** Ranges `from` up to `to` as views. */
  views(from: number, to: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let k = from; k < to; k++) {
      const source = this.source[k]!;
      out.push((source === 0 ? this.previous : this.blocks[source - 1]!).subarray(this.start[k]!, this.end[k]!));
    }
    return out;
  }

  get ranges(): number {
    return this.count;
  }

  private continuesWith(at: number, s: string): boolean {
    const p = this.previous;
    if (at + s.length > p.length) return false;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 || p[at + i] !== c) return false;
    }
    return true;
  }

  private push(source: number, start: number, end: number): void {
    if (this.count === this.source.length) {
      const grow = (a: Int32Array): Int32Array => {
        const bigger = new Int32Array(2 * a.length);
        bigger.set(a);
        return bigger;
      };
      this.source = grow(this.source);
      this.start = grow(this.start);
      this.end = grow(this.end);
    }
    this.source[this.count] = source;
    this.start[this.count] = start;
    this.end[this.count++] = end;
  }
}

/**
 * Stage `text` as the new content of `path` (see stageAtomic): written in the background to a temp
 * file, renamed into place by `commit`. One vectored write request for all of its ranges (libuv
 * writes them IOV_MAX at a time on the thread pool, going on after a short write), so the write
 * proceeds while this thread stays busy, and the ranges are never copied into one buffer.
 */
export function stageGraphText(path: string, text: GraphText): StagedWrite {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  return stagedRename(tmp, path, writeRanges(tmp, text));
}

async function writeRanges(file: string, text: GraphText): Promise<void> {
  const fd = openSync(file, 'w');
  try {
    const views = text.views(0, text.ranges);
    const wrote = await new Promise<number>((resolve, reject) => writev(fd, views, null, (err, n) => (err ? reject(err) : resolve(n))));
    if (wrote !== text.length) throw new Error(`Cannot write ${file}: ${wrote} of ${text.length} bytes written`);
  } finally {
    await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}
