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
  const m = doc.links.length;
  const links: GraphLink[] = [];
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  const rel = new Uint8Array(m);
  let danglingLinks = 0;
  // Links come grouped by source (graph.json's order): the previous link's source lookup is reused.
  let lastSource: NodeKey | undefined;
  let lastS: NodeId | undefined;
  let lastRelation: string | undefined;
  let lastRel = 0;
  let e = 0;
  for (let j = 0; j < m; j++) {
    const link = doc.links[j]!;
    const s = link.source === lastSource ? lastS : (lastS = idOf.get((lastSource = link.source)));
    const t = idOf.get(link.target);
    if (s === undefined || t === undefined) {
      danglingLinks++;
      continue;
    }
    links.push(link);
    src[e] = s;
    dst[e] = t;
    rel[e] = link.relation === lastRelation ? lastRel : (lastRel = relationId((lastRelation = link.relation)));
    e++;
  }
  return {
    doc,
    nodes,
    idOf,
    links,
    src: e === m ? src : src.slice(0, e),
    dst: e === m ? dst : dst.slice(0, e),
    rel: e === m ? rel : rel.slice(0, e),
    danglingLinks,
  };
}

/**
 * Edge ids grouped by source and by target (CSR over edge ids, in edge order within a node):
 * `outEdges[outOff[v] .. outOff[v + 1])` are the edges leaving v. Counting sort, O(n + m).
 */
export interface EdgeCsr {
  outOff: Uint32Array;
  outEdges: Uint32Array;
  inOff: Uint32Array;
  inEdges: Uint32Array;
}

export function edgeCsr(n: number, src: Uint32Array, dst: Uint32Array): EdgeCsr {
  const m = src.length;
  const outOff = new Uint32Array(n + 1);
  const inOff = new Uint32Array(n + 1);
  for (let e = 0; e < m; e++) {
    outOff[src[e]! + 1]!++;
    inOff[dst[e]! + 1]!++;
  }
  for (let i = 0; i < n; i++) {
    outOff[i + 1]! += outOff[i]!;
    inOff[i + 1]! += inOff[i]!;
  }
  const outEdges = new Uint32Array(m);
  const inEdges = new Uint32Array(m);
  const oc = outOff.slice(0, n);
  const ic = inOff.slice(0, n);
  for (let e = 0; e < m; e++) {
    outEdges[oc[src[e]!]!++] = e;
    inEdges[ic[dst[e]!]!++] = e;
  }
  return { outOff, outEdges, inOff, inEdges };
}
