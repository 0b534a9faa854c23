import { relationId, type GraphDocument, type GraphLink, type GraphNode, type NodeId, type NodeKey } from './model.ts';

/**
 * A graph document with dense node ids: the bridge between `graph.json` keys and the WASM core's
 * CSR arrays. Links whose endpoints are missing are dropped (and counted), so a hand-edited or
 * partial graph still loads. Browser-safe.
 */
export interface IndexedGraph {
  doc: GraphDocument;
  /** NodeId -> node; `nodes[i].id` is the key of NodeId i. */
  nodes: GraphNode[];
  idOf: Map<NodeKey, NodeId>;
  /** Kept links, in document order; link i is edge i of the core graph. */
  links: GraphLink[];
  src: Uint32Array;
  dst: Uint32Array;
  /** Relation id per edge (see RELATIONS in model.ts). */
  rel: Uint8Array;
  /** Links dropped because an endpoint is not a node. */
  danglingLinks: number;
}

/** Index a graph document: dense ids in node order, edge arrays in link order. */
export function indexGraph(doc: GraphDocument): IndexedGraph {
  const nodes = doc.nodes;
  const idOf = new Map<NodeKey, NodeId>();
  for (let i = 0; i < nodes.length; i++) idOf.set(nodes[i]!.id, i);
  const links: GraphLink[] = [];
  const src: number[] = [];
  const dst: number[] = [];
  const rel: number[] = [];
  let danglingLinks = 0;
  for (const link of doc.links) {
    const s = idOf.get(link.source);
    const t = idOf.get(link.target);
    if (s === undefined || t === undefined) {
      danglingLinks++;
      continue;
    }
    links.push(link);
    src.push(s);
    dst.push(t);
    rel.push(relationId(link.relation));
  }
  return {
    doc,
    nodes,
    idOf,
    links,
    src: Uint32Array.from(src),
    dst: Uint32Array.from(dst),
    rel: Uint8Array.from(rel),
    danglingLinks,
  };
}
