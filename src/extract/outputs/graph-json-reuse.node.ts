import type { GraphDocument } from '../../graph/model.ts';
import { LINK_KEYS, NODE_KEYS, canonicalJson, headerText, ordered } from './graph-json.ts';

/**
 * graph.json of `doc` (as {@link stringifyGraph} writes it) as UTF-8 bytes, copying from `previous`
 * (the bytes of an earlier graph.json that stringifyGraph wrote) the lines of records that did not
 * change: `nodeFrom[i]` / `linkFrom[j]` is the index of record i / j in the previous text, whose line
 * must then hold exactly the same record (-1: serialize it). Only the header and new records are
 * serialized. Null when `previous` does not have stringifyGraph's layout or a copied line does not
 * start with its record's key (the caller then serializes in full).
 */
export function reuseGraphText(previous: Uint8Array, doc: GraphDocument, nodeFrom: Int32Array, linkFrom: Int32Array): Uint8Array | null {
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
  const section = (
    count: number, prevCount: number, firstLine: number, from: Int32Array, key: (k: number) => string, record: (k: number) => object, boundary: string,
  ): boolean => {
    for (let k = 0; k < count;) {
      const f = from[k]!;
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
      while (e + 1 < count && from[e + 1] === from[e]! + 1) e++;
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
  if (!section(n, prevNodes, 3, nodeFrom, nodeKey, (i) => ordered(doc.nodes[i]!, NODE_KEYS), '{"id":')) return null;
  fresh.push('],\n"links":[\n');
  if (!section(m, prevLinks, linksOpen + 1, linkFrom, linkKey, (j) => ordered(doc.links[j]!, LINK_KEYS), '{"source":')) return null;
  fresh.push(`],\n"hyperedges":${canonicalJson(doc.hyperedges ?? [])}}\n`);
  flush();
  return Buffer.concat(parts);
}
