import type { IndexedGraph } from '../graph/indexed-graph.ts';
import { OTHER_RELATION_ID, relationId, type GraphDocument, type NodeKey } from '../graph/model.ts';
import { NONE, snapshotToDocument, type GraphSnapshot } from '../graph/snapshot.ts';

/** Edge columns the GraphIndex keeps instead of per-link objects. */
export interface EdgeColumns {
  indexed: IndexedGraph;
  edgeConf: Uint8Array;
  edgeLine: Uint32Array;
  edgeFile: Map<number, string>;
  otherRel: Map<number, string>;
}

/**
 * Index a graph.cbor snapshot without materializing a link object per edge: node objects are built
 * (tools print their fields), edges go straight from the snapshot's columns into the dense arrays.
 * Dangling links are dropped, as indexGraph does. Browser-safe.
 */
export function indexSnapshot(snap: GraphSnapshot): { doc: GraphDocument; edges: EdgeColumns } {
  const doc = snapshotToDocument({ ...snap, linkCount: 0, linkColumns: [], linkExtras: new Map() });
  doc.links = [];
  const nodes = doc.nodes;
  const idOf = new Map<NodeKey, number>();
  for (let i = 0; i < nodes.length; i++) idOf.set(nodes[i]!.id, i);
  const m0 = snap.linkCount;
  const L = snap.link;
  const relIds = Uint8Array.from(snap.relations, (r) => relationId(r));
  const nodeFile = snap.node.sourceFile;
  let m = 0;
  for (let j = 0; j < m0; j++) if (L.src[j] !== NONE && L.dst[j] !== NONE && L.src[j]! < nodes.length && L.dst[j]! < nodes.length) m++;
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  const rel = new Uint8Array(m);
  const edgeConf = new Uint8Array(m);
  const edgeLine = new Uint32Array(m);
  const edgeFile = new Map<number, string>();
  const otherRel = new Map<number, string>();
  // Line number per string-table entry (-1: not parsed yet): locations repeat a lot.
  const lineOfString = new Int32Array(snap.strings.length).fill(-1);
  let e = 0;
  for (let j = 0; j < m0; j++) {
    const s = L.src[j]!;
    const t = L.dst[j]!;
    if (s === NONE || t === NONE || s >= nodes.length || t >= nodes.length) continue;
    src[e] = s;
    dst[e] = t;
    const ri = L.relation[j]!;
    const r = ri === 0xffff || ri >= relIds.length ? OTHER_RELATION_ID : relIds[ri]!;
    rel[e] = r;
    if (r === OTHER_RELATION_ID) {
      const name = ri === 0xffff ? 'other' : (snap.relations[ri] ?? 'other');
      if (name !== 'other') otherRel.set(e, name);
    }
    const c = L.confidence[j]!;
    edgeConf[e] = c <= 2 ? c : 0;
    const loc = L.sourceLocation[j]!;
    if (loc !== NONE) {
      let line = lineOfString[loc]!;
      if (line < 0) {
        const match = /(\d+)/.exec(snap.strings[loc] ?? '');
        line = match ? Number(match[1]) : 0;
        lineOfString[loc] = line;
      }
      edgeLine[e] = line;
    }
    const sf = L.sourceFile[j]!;
    // Compare string-table indices (not node objects): the site file is usually the source's file.
    if (sf !== NONE && sf !== nodeFile[s]) edgeFile.set(e, snap.strings[sf]!);
    e++;
  }
  const indexed: IndexedGraph = { doc, nodes, idOf, links: [], src, dst, rel, danglingLinks: m0 - m };
  return { doc, edges: { indexed, edgeConf, edgeLine, edgeFile, otherRel } };
}
