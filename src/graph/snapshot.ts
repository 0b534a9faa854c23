import { decode } from 'cbor-x';
import { openSnapshot, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot-envelope.ts';
import { edgeCsr, type EdgeCsr } from './indexed-graph.ts';
import { OTHER_RELATION_ID, relationId, type Confidence, type GraphDocument, type GraphLink, type GraphMeta, type GraphNode, type Param, type Signature, type Span } from './model.ts';

/**
 * `graph.cbor`: the graph document in a columnar binary form that loads much faster than
 * `graph.json`. Every string lives once in a string table (one UTF-8 blob, NUL separated); nodes and
 * links are typed-array columns of string indices and numbers; links point at nodes by dense index,
 * so the core's edge arrays come out of the file without a lookup. Browser-safe.
 *
 * The columns sit in an envelope with their length and checksum (snapshot-envelope.ts): a damaged
 * file is refused before it is decoded. encodeGraph (snapshot-encode.ts) writes it. {@link decodeSnapshot} gives the columns (the fast path for the server and the explorer);
 * {@link decodeGraph} rebuilds a GraphDocument equal to the one encoded (fields that are absent stay
 * absent; keys the columns do not model travel in per-row `extras`).
 */

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION };
/** String index meaning "field absent". */
export const NONE = 0xffffffff;

export const CONFIDENCES: readonly Confidence[] = ['EXTRACTED', 'INFERRED', 'AMBIGUOUS'];

/** The decoded columns. String columns hold indices into `strings` ({@link NONE}: absent). */
export interface GraphSnapshot {
  strings: string[];
  nodeCount: number;
  linkCount: number;
  node: {
    id: Uint32Array;
    label: Uint32Array;
    fileType: Uint32Array;
    sourceFile: Uint32Array;
    sourceLocation: Uint32Array;
    kind: Uint32Array;
    visibility: Uint32Array;
    language: Uint32Array;
    doc: Uint32Array;
    /** Community id; meaningful where `hasCommunity[i]` is 1. */
    community: Int32Array;
    hasCommunity: Uint8Array;
    /** 0 absent, 1 false, 2 true. */
    isTest: Uint8Array;
    /** start_line, start_col, end_line, end_col per node; meaningful where `hasSpan[i]` is 1. */
    span: Int32Array;
    hasSpan: Uint8Array;
    sigRaw: Uint32Array;
    sigReturns: Uint32Array;
    /** Params of node i are `paramOffsets[i] .. paramOffsets[i + 1]`. */
    paramOffsets: Uint32Array;
    paramName: Uint32Array;
    paramType: Uint32Array;
    paramOptional: Uint8Array;
    paramDefault: Uint32Array;
  };
  link: {
    /** Dense node index of the source ({@link NONE} for a dangling link: see extras). */
    src: Uint32Array;
    dst: Uint32Array;
    /** Index into `relations`. */
    relation: Uint16Array;
    /** Index into EXTRACTED / INFERRED / AMBIGUOUS (255: see extras). */
    confidence: Uint8Array;
    confidenceScore: Float64Array;
    sourceFile: Uint32Array;
    sourceLocation: Uint32Array;
  };
  relations: string[];
  /** Query-ready edge columns (absent in files written before they existed: compute with {@link snapshotEdges}). */
  edges?: SnapshotEdges;
  /** Extra fields (not in the model) with one scalar type across rows, as columns. */
  nodeColumns: ExtraColumn[];
  linkColumns: ExtraColumn[];
  /** Row index -> remaining fields not held in any column (assigned over the column values). */
  nodeExtras: Map<number, Record<string, unknown>>;
  linkExtras: Map<number, Record<string, unknown>>;
  meta: GraphMeta;
  hyperedges: unknown[];
  builtAtCommit: string | null;
}

/**
 * An extra field stored column-wise: `s` string indices ({@link NONE} absent), `b` booleans
 * (0 absent, 1 false, 2 true), `i` int32 values where `has[i]` is 1.
 */
export interface ExtraColumn {
  key: string;
  kind: 's' | 'b' | 'i';
  values: Uint32Array | Uint8Array | Int32Array;
  has?: Uint8Array;
}

/**
 * The query-ready edge columns: the links whose endpoints are nodes ("kept" edges, in link order, as
 * indexGraph keeps them) with relation ids (RELATIONS bits), confidence (0 EXTRACTED, 1 INFERRED,
 * 2 AMBIGUOUS), the line of the call/reference site and the CSR over edge ids. graph.cbor carries
 * them, so a server or the explorer does no per-edge work when it loads.
 */
export interface SnapshotEdges extends EdgeCsr {
  src: Uint32Array;
  dst: Uint32Array;
  rel: Uint8Array;
  conf: Uint8Array;
  line: Uint32Array;
  /** Pairs (kept edge, string index): site files that differ from the source node's file. */
  siteFile: Uint32Array;
  /** Pairs (kept edge, index into relations): relation names outside RELATIONS. */
  otherRel: Uint32Array;
  /** Links dropped because an endpoint is not a node. */
  dangling: number;
}

/** Compute the {@link SnapshotEdges} of link columns. */
export function snapshotEdges(n: number, L: GraphSnapshot['link'], relations: readonly string[], strings: readonly string[], nodeFile: Uint32Array): SnapshotEdges {
  const m0 = L.src.length;
  let m = 0;
  for (let j = 0; j < m0; j++) if (L.src[j]! < n && L.dst[j]! < n) m++;
  const src = m === m0 ? L.src : new Uint32Array(m);
  const dst = m === m0 ? L.dst : new Uint32Array(m);
  const rel = new Uint8Array(m);
  const conf = new Uint8Array(m);
  const line = new Uint32Array(m);
  const siteFile: number[] = [];
  const otherRel: number[] = [];
  const relIds = Uint8Array.from(relations, (r) => relationId(r));
  // Line number per string-table entry (-1: not parsed yet): locations repeat a lot.
  const lineOfString = new Int32Array(strings.length).fill(-1);
  let e = 0;
  for (let j = 0; j < m0; j++) {
    const s = L.src[j]!;
    const t = L.dst[j]!;
    if (s >= n || t >= n) continue; // NONE is >= n too
    src[e] = s;
    dst[e] = t;
    const ri = L.relation[j]!;
    const r = ri >= relIds.length ? OTHER_RELATION_ID : relIds[ri]!;
    rel[e] = r;
    if (r === OTHER_RELATION_ID && ri < relations.length && relations[ri] !== 'other') otherRel.push(e, ri);
    const c = L.confidence[j]!;
    conf[e] = c <= 2 ? c : 0;
    const loc = L.sourceLocation[j]!;
    if (loc !== NONE) {
      let at = loc < lineOfString.length ? lineOfString[loc]! : 0;
      if (at < 0) {
        const match = /(\d+)/.exec(strings[loc] ?? '');
        at = match ? Number(match[1]) : 0;
        lineOfString[loc] = at;
      }
      line[e] = at;
    }
    const sf = L.sourceFile[j]!;
    // Compare string-table indices: the site file is usually the source node's file.
    if (sf !== NONE && sf !== nodeFile[s]) siteFile.push(e, sf);
    e++;
  }
  return {
    src, dst, rel, conf, line, ...edgeCsr(n, src, dst),
    siteFile: Uint32Array.from(siteFile), otherRel: Uint32Array.from(otherRel), dangling: m0 - m,
  };
}

/** Stored edge columns, when present and consistent with the file's counts (else they are recomputed). */
function storedEdges(wire: Wire, link: GraphSnapshot['link']): SnapshotEdges | undefined {
  const e = wire.edges;
  if (!e || !(e.rel instanceof Uint8Array) || !(e.outOff instanceof Uint32Array) || !(e.inOff instanceof Uint32Array)) return undefined;
  if (!(e.siteFile instanceof Uint32Array) || !(e.otherRel instanceof Uint32Array) || typeof e.dangling !== 'number') return undefined;
  const src = e.src ?? link.src;
  const dst = e.dst ?? link.dst;
  const m = wire.m - e.dangling;
  const sizes = [src.length, dst.length, e.rel.length, e.conf?.length, e.line?.length, e.outEdges?.length, e.inEdges?.length];
  if (sizes.some((size) => size !== m) || e.outOff.length !== wire.n + 1 || e.inOff.length !== wire.n + 1) return undefined;
  return { ...e, src, dst };
}

/** The columns of graph.cbor, as CBOR inside its envelope (what encodeGraph writes and decodeSnapshot reads). */
export interface Wire {
  strings: Uint8Array | string[];
  n: number;
  m: number;
  node: Record<string, unknown>;
  link: Record<string, unknown>;
  relations: string[];
  edges?: Omit<SnapshotEdges, 'src' | 'dst'> & { src?: Uint32Array; dst?: Uint32Array };
  nodeColumns: ExtraColumn[];
  linkColumns: ExtraColumn[];
  nodeExtras: [number, Record<string, unknown>][];
  linkExtras: [number, Record<string, unknown>][];
  meta: GraphMeta;
  hyperedges: unknown[];
  builtAtCommit: string | null;
}

export const NODE_FIELDS = new Set([
  'id', 'label', 'file_type', 'source_file', 'source_location', 'kind', 'visibility', 'language', 'doc',
  'community', 'is_test', 'span', 'signature',
]);
function applyColumns(rows: Record<string, unknown>[], columns: ExtraColumn[], strings: string[]): void {
  for (const col of columns) {
    const { key, values } = col;
    if (col.kind === 's') {
      for (let i = 0; i < rows.length; i++) if (values[i] !== NONE) rows[i]![key] = strings[values[i]!];
    } else if (col.kind === 'b') {
      for (let i = 0; i < rows.length; i++) if (values[i]) rows[i]![key] = values[i] === 2;
    } else {
      const has = col.has!;
      for (let i = 0; i < rows.length; i++) if (has[i]) rows[i]![key] = values[i];
    }
  }
}

/**
 * Decode graph.cbor bytes into columns (fast: no per-node objects). Throws when the file is not a
 * graph.cbor, of another version, or damaged (SnapshotDamagedError: length or checksum).
 */
export function decodeSnapshot(bytes: Uint8Array): GraphSnapshot {
  const wire = decode(openSnapshot(bytes)) as Wire;
  if (!wire || typeof wire !== 'object' || !Array.isArray(wire.relations)) throw new TypeError('Cannot decode graph snapshot: its columns are not a graph');
  const strings = Array.isArray(wire.strings)
    ? wire.strings
    : wire.strings.length === 0 && wire.n === 0 ? [] : new TextDecoder().decode(wire.strings).split('\0');
  return {
    strings,
    nodeCount: wire.n,
    linkCount: wire.m,
    node: wire.node as GraphSnapshot['node'],
    link: wire.link as GraphSnapshot['link'],
    relations: wire.relations,
    edges: storedEdges(wire, wire.link as GraphSnapshot['link']),
    nodeColumns: wire.nodeColumns ?? [],
    linkColumns: wire.linkColumns ?? [],
    nodeExtras: new Map(wire.nodeExtras),
    linkExtras: new Map(wire.linkExtras),
    meta: wire.meta,
    hyperedges: wire.hyperedges,
    builtAtCommit: wire.builtAtCommit ?? null,
  };
}

/** Copy node i's scalar fields (those present) onto `node`, in graph.json's key order. */
function assignScalars(node: GraphNode, c: GraphSnapshot['node'], S: string[], i: number): void {
  if (c.id[i] !== NONE) node.id = S[c.id[i]!]!;
  if (c.label[i] !== NONE) node.label = S[c.label[i]!]!;
  if (c.fileType[i] !== NONE) node.file_type = S[c.fileType[i]!]!;
  if (c.sourceFile[i] !== NONE) node.source_file = S[c.sourceFile[i]!]!;
  if (c.sourceLocation[i] !== NONE) node.source_location = S[c.sourceLocation[i]!]!;
  if (c.kind[i] !== NONE) node.kind = S[c.kind[i]!]! as GraphNode['kind'];
  if (c.visibility[i] !== NONE) node.visibility = S[c.visibility[i]!]! as GraphNode['visibility'];
  if (c.language[i] !== NONE) node.language = S[c.language[i]!]!;
  if (c.doc[i] !== NONE) node.doc = S[c.doc[i]!]!;
  if (c.hasCommunity[i]) node.community = c.community[i]!;
  if (c.isTest[i]) node.is_test = c.isTest[i] === 2;
}

function spanAt(c: GraphSnapshot['node'], i: number): Span | undefined {
  if (!c.hasSpan[i]) return undefined;
  const b = 4 * i;
  return { start_line: c.span[b]!, start_col: c.span[b + 1]!, end_line: c.span[b + 2]!, end_col: c.span[b + 3]! };
}

function signatureAt(c: GraphSnapshot['node'], S: string[], i: number): Signature | undefined {
  if (c.sigRaw[i] === NONE) return undefined;
  const params: Param[] = [];
  for (let p = c.paramOffsets[i]!; p < c.paramOffsets[i + 1]!; p++) {
    const param: Param = { name: S[c.paramName[p]!]! };
    if (c.paramType[p] !== NONE) param.type = S[c.paramType[p]!]!;
    if (c.paramOptional[p]) param.optional = c.paramOptional[p] === 2;
    if (c.paramDefault[p] !== NONE) param.default = S[c.paramDefault[p]!]!;
    params.push(param);
  }
  const sig: Signature = { params, raw: S[c.sigRaw[i]!]! };
  if (c.sigReturns[i] !== NONE) sig.returns = S[c.sigReturns[i]!]!;
  return sig;
}

const ROW = Symbol('snapshot row');

/**
 * Node objects for a query index over a snapshot: each holds only its row; every field is a getter
 * over the columns (absent fields read as undefined), so a load allocates one small object per node
 * instead of up to five with a dozen properties each. Read-only views for tools: `toJSON` gives the
 * node as graph.json has it; use {@link snapshotToDocument} for plain, mutable data.
 */
export function snapshotNodes(snap: GraphSnapshot): GraphNode[] {
  const S = snap.strings;
  const c = snap.node;
  const str = (col: Uint32Array, i: number): string | undefined => (col[i] === NONE ? undefined : S[col[i]!]);
  class SnapshotNode {
    readonly [ROW]: number;
    constructor(i: number) {
      this[ROW] = i;
    }
    get id() { return str(c.id, this[ROW]); }
    get label() { return str(c.label, this[ROW]); }
    get file_type() { return str(c.fileType, this[ROW]); }
    get source_file() { return str(c.sourceFile, this[ROW]); }
    get source_location() { return str(c.sourceLocation, this[ROW]); }
    get kind() { return str(c.kind, this[ROW]); }
    get visibility() { return str(c.visibility, this[ROW]); }
    get language() { return str(c.language, this[ROW]); }
    get doc() { return str(c.doc, this[ROW]); }
    get community() { return c.hasCommunity[this[ROW]] ? c.community[this[ROW]] : undefined; }
    get is_test() { const t = c.isTest[this[ROW]]; return t ? t === 2 : undefined; }
    get span() { return spanAt(c, this[ROW]); }
    get signature() { return signatureAt(c, S, this[ROW]); }
    toJSON(): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        const v = (this as unknown as Record<string, unknown>)[key];
        if (v !== undefined) out[key] = v;
      }
      return Object.assign(out, this);
    }
  }
  const keys = [...NODE_FIELDS];
  const proto = SnapshotNode.prototype;
  for (const col of snap.nodeColumns) {
    if (NODE_FIELDS.has(col.key)) continue;
    keys.push(col.key);
    const { values } = col;
    const get = col.kind === 's'
      ? function (this: SnapshotNode) { return str(values as Uint32Array, this[ROW]); }
      : col.kind === 'b'
        ? function (this: SnapshotNode) { const b = values[this[ROW]]; return b ? b === 2 : undefined; }
        : function (this: SnapshotNode) { return col.has![this[ROW]] ? values[this[ROW]] : undefined; };
    Object.defineProperty(proto, col.key, { get, configurable: true });
  }
  const nodes = new Array<GraphNode>(snap.nodeCount);
  for (let i = 0; i < snap.nodeCount; i++) nodes[i] = new SnapshotNode(i) as unknown as GraphNode;
  // Fields no column models (rare) become own properties, shadowing the getters.
  for (const [i, extras] of snap.nodeExtras) {
    for (const [key, value] of Object.entries(extras)) Object.defineProperty(nodes[i]!, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return nodes;
}

/** Rebuild the full GraphDocument from columns. */
export function snapshotToDocument(snap: GraphSnapshot): GraphDocument {
  const S = snap.strings;
  const c = snap.node;
  const nodes: GraphNode[] = new Array(snap.nodeCount);
  for (let i = 0; i < snap.nodeCount; i++) {
    const node = {} as GraphNode;
    assignScalars(node, c, S, i);
    const span = spanAt(c, i);
    if (span) node.span = span;
    const sig = signatureAt(c, S, i);
    if (sig) node.signature = sig;
    nodes[i] = node;
  }
  applyColumns(nodes as unknown as Record<string, unknown>[], snap.nodeColumns, S);
  for (const [i, extras] of snap.nodeExtras) Object.assign(nodes[i]!, extras);
  const l = snap.link;
  const links: GraphLink[] = new Array(snap.linkCount);
  for (let j = 0; j < snap.linkCount; j++) {
    // Nearly every link has every field: one literal of that shape (its fields in the object, in
    // this order), not an empty object grown field by field.
    if (l.src[j] !== NONE && l.dst[j] !== NONE && l.relation[j] !== 0xffff && l.confidence[j] !== 255 && !Number.isNaN(l.confidenceScore[j])
      && l.sourceFile[j] !== NONE && l.sourceLocation[j] !== NONE) {
      links[j] = {
        source: nodes[l.src[j]!]!.id, target: nodes[l.dst[j]!]!.id, relation: snap.relations[l.relation[j]!]!,
        confidence: CONFIDENCES[l.confidence[j]!]!, confidence_score: l.confidenceScore[j]!,
        source_file: S[l.sourceFile[j]!]!, source_location: S[l.sourceLocation[j]!]!,
      } as GraphLink;
      continue;
    }
    const link = {} as GraphLink;
    if (l.src[j] !== NONE) link.source = nodes[l.src[j]!]!.id;
    if (l.dst[j] !== NONE) link.target = nodes[l.dst[j]!]!.id;
    if (l.relation[j] !== 0xffff) link.relation = snap.relations[l.relation[j]!]!;
    if (l.confidence[j] !== 255) link.confidence = CONFIDENCES[l.confidence[j]!]!;
    if (!Number.isNaN(l.confidenceScore[j])) link.confidence_score = l.confidenceScore[j]!;
    if (l.sourceFile[j] !== NONE) link.source_file = S[l.sourceFile[j]!]!;
    if (l.sourceLocation[j] !== NONE) link.source_location = S[l.sourceLocation[j]!]!;
    links[j] = link;
  }
  applyColumns(links as unknown as Record<string, unknown>[], snap.linkColumns, S);
  for (const [j, extras] of snap.linkExtras) Object.assign(links[j]!, extras);
  return {
    directed: true,
    multigraph: true,
    graph: snap.meta,
    nodes,
    links,
    hyperedges: snap.hyperedges,
    built_at_commit: snap.builtAtCommit,
  };
}

/** Decode graph.cbor bytes into a GraphDocument equal to the encoded one. */
export function decodeGraph(bytes: Uint8Array): GraphDocument {
  return snapshotToDocument(decodeSnapshot(bytes));
}
