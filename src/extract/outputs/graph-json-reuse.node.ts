import type { GraphDocument } from '../../graph/model.ts';
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
  if (n === 0 || m === 0 || nodeFrom.length !== n || linkFrom.length !== m) return null;
  const prev = Buffer.from(previous.buffer, previous.byteOffset, previous.byteLength);
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
  const parts: Uint8Array[] = [];
  let fresh: string[] = [headerText(doc), '"nodes":[\n'];
  const flush = (): void => {
    if (fresh.length) parts.push(Buffer.from(fresh.join('')));
    fresh = [];
  };
  // A record's line holds its key first: checked at both ends of every copied run.
  const startsWith = (line: number, key: string): boolean => {
    const expect = Buffer.from(key);
    const start = starts[line]!;
    return starts[line + 1]! - start > expect.length && prev.compare(expect, 0, expect.length, start, start + expect.length) === 0;
  };
  /** Copy previous lines first..last (a run of records), without the last one's separator and line break. */
  const copyRun = (first: number, last: number): void => {
    flush();
    let end = starts[last + 1]! - 1;
    if (prev[end - 1] === 0x2c) end--;
    parts.push(prev.subarray(starts[first]!, end));
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
        if (depth === 1 && prev[i - 1] === 0x2c && prev.compare(COMMUNITY_KEY, 0, COMMUNITY_KEY.length, i, i + COMMUNITY_KEY.length) === 0) {
          const from = i + COMMUNITY_KEY.length;
          let d = prev[from] === 0x2d ? from + 1 : from;
          const digits = d;
          while (prev[d]! >= 0x30 && prev[d]! <= 0x39) d++;
          return d > digits && (prev[d] === 0x2c || prev[d] === 0x7d) ? [from, d] : null;
        }
        for (i++; i < end && prev[i] !== 0x22; i++) if (prev[i] === 0x5c) i++; // a string: skip it
      } else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
    }
    return null;
  };
  const patched = (k: number): boolean => newCommunity !== undefined && newCommunity[k] === 1;
  const section = (
    count: number, prevCount: number, firstLine: number, from: Int32Array, key: (k: number) => string, record: (k: number) => object, boundary: string,
    patch: (k: number) => boolean,
  ): boolean => {
    for (let k = 0; k < count;) {
      const f = from[k]!;
      if (f >= 0 && patch(k)) {
        if (f >= prevCount || !startsWith(firstLine + f, key(k))) return false;
        const at = communityAt(firstLine + f);
        const community = (doc.nodes[k] as { community?: unknown }).community;
        if (at && Number.isInteger(community)) {
          let end = starts[firstLine + f + 1]! - 1;
          if (prev[end - 1] === 0x2c) end--;
          flush();
          parts.push(prev.subarray(starts[firstLine + f]!, at[0]));
          fresh.push(String(community));
          flush();
          parts.push(prev.subarray(at[1], end));
        } else fresh.push(JSON.stringify(record(k)));
        fresh.push(k < count - 1 ? ',\n' : '\n');
        k++;
        continue;
      }
      if (f < 0) {
        // A run of new records: one stringify, split into lines the way stringifyGraph does.
        let e = k;
        while (e + 1 < count && from[e + 1]! < 0) e++;
        const batch: object[] = [];
        for (let r = k; r <= e; r++) batch.push(record(r));
        fresh.push(JSON.stringify(batch).slice(1, -1).replaceAll(`},${boundary}`, `},\n${boundary}`), e < count - 1 ? ',\n' : '\n');
        k = e + 1;
        continue;
      }
      let e = k;
      while (e + 1 < count && from[e + 1] === from[e]! + 1 && !patch(e + 1)) e++;
      const last = from[e]!;
      if (last >= prevCount || !startsWith(firstLine + f, key(k)) || !startsWith(firstLine + last, key(e))) return false;
      copyRun(firstLine + f, firstLine + last);
      fresh.push(e < count - 1 ? ',\n' : '\n');
      k = e + 1;
    }
    return true;
  };
  const nodeKey = (i: number): string => `{"id":${JSON.stringify(doc.nodes[i]!.id)},`;
  const linkKey = (j: number): string => {
    const l = doc.links[j]!;
    return `{"source":${JSON.stringify(l.source)},"target":${JSON.stringify(l.target)},"relation":${JSON.stringify(l.relation)},`;
  };
  if (!section(n, prevNodes, 3, nodeFrom, nodeKey, (i) => ordered(doc.nodes[i]!, NODE_KEYS), '{"id":', patched)) return null;
  fresh.push('],\n"links":[\n');
  if (!section(m, prevLinks, linksOpen + 1, linkFrom, linkKey, (j) => ordered(doc.links[j]!, LINK_KEYS), '{"source":', () => false)) return null;
  fresh.push(`],\n"hyperedges":${canonicalJson(doc.hyperedges ?? [])}}\n`);
  flush();
  return Buffer.concat(parts);
}
