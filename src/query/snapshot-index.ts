import type { EdgeCsr, IndexedGraph } from '../graph/indexed-graph.ts';
import type { GraphDocument, NodeKey } from '../graph/model.ts';
import { snapshotEdges, snapshotNodes, type GraphSnapshot } from '../graph/snapshot.ts';

/** Edge columns the GraphIndex keeps instead of per-link objects. */
export interface EdgeColumns {
  indexed: IndexedGraph;
  edgeConf: Uint8Array;
  edgeLine: Uint32Array;
  edgeFile: Map<number, string>;
  otherRel: Map<number, string>;
  csr?: EdgeCsr;
}

/**
 * Index a graph.cbor snapshot without materializing a link object per edge: node objects are views
 * over the node columns (tools print their fields), and the edge arrays, site lines and CSR come
 * straight from the snapshot's edge columns (computed here for files that predate them). Dangling
 * links are dropped, as indexGraph does. Browser-safe.
 */
export function indexSnapshot(snap: GraphSnapshot): { doc: GraphDocument; edges: EdgeColumns } {
  const nodes = snapshotNodes(snap);
  const doc: GraphDocument = {
    directed: true,
    multigraph: true,
    graph: snap.meta,
    nodes,
    links: [],
    hyperedges: snap.hyperedges,
    built_at_commit: snap.builtAtCommit,
  };
  const idOf = new Map<NodeKey, number>();
  for (let i = 0; i < nodes.length; i++) idOf.set(nodes[i]!.id, i);
  const E = snap.edges ?? snapshotEdges(snap.nodeCount, snap.link, snap.relations, snap.strings, snap.node.sourceFile);
  const edgeFile = new Map<number, string>();
  for (let k = 0; k + 1 < E.siteFile.length; k += 2) edgeFile.set(E.siteFile[k]!, snap.strings[E.siteFile[k + 1]!]!);
  const otherRel = new Map<number, string>();
  for (let k = 0; k + 1 < E.otherRel.length; k += 2) otherRel.set(E.otherRel[k]!, snap.relations[E.otherRel[k + 1]!]!);
  const indexed: IndexedGraph = { doc, nodes, idOf, links: [], src: E.src, dst: E.dst, rel: E.rel, danglingLinks: E.dangling };
  return { doc, edges: { indexed, edgeConf: E.conf, edgeLine: E.line, edgeFile, otherRel, csr: E } };
}
