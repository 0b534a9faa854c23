import { Encoder, decode } from 'cbor-x';
import { edgeCsr, type EdgeCsr } from './indexed-graph.ts';
import { OTHER_RELATION_ID, relationId, type Confidence, type GraphDocument, type GraphLink, type GraphMeta, type GraphNode, type Param, type Signature, type Span } from './model.ts';

/**
 * `graph.cbor`: the graph document in a columnar binary form that loads much faster than
 * `graph.json`. Every string lives once in a string table (one UTF-8 blob, NUL separated); nodes and
 * links are typed-array columns of string indices and numbers; links point at nodes by dense index,
 * so the core's edge arrays come out of the file without a lookup. Browser-safe.
 *
 * {@link decodeSnapshot} gives the columns (the fast path for the server and the explorer);
 * {@link decodeGraph} rebuilds a GraphDocument equal to the one encoded (fields that are absent stay
 * absent; keys the columns do not model travel in per-row `extras`).
 */

export const SNAPSHOT_FORMAT = 'synaptic-graph-columns';
export const SNAPSHOT_VERSION = 1;
/** String index meaning "field absent". */
export const NONE = 0xffffffff;

const CONFIDENCES: readonly Confidence[] = ['EXTRACTED', 'INFERRED', 'AMBIGUOUS'];

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
  const lineOfString = new Map<number, number>();
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
      let at = lineOfString.get(loc);
      if (at === undefined) {
        const match = /(\d+)/.exec(strings[loc] ?? '');
        at = match ? Number(match[1]) : 0;
        lineOfString.set(loc, at);
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

/** The kept edges equal the links unless some dangle: only then are src/dst stored twice. */
function storableEdges(edges: SnapshotEdges): Wire['edges'] {
  const stored: Wire['edges'] = { ...edges };
  if (!edges.dangling) {
    delete stored.src;
    delete stored.dst;
  }
  return stored;
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

interface Wire {
  format: string;
  version: number;
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

const NODE_FIELDS = new Set([
  'id', 'label', 'file_type', 'source_file', 'source_location', 'kind', 'visibility', 'language', 'doc',
  'community', 'is_test', 'span', 'signature',
]);
const LINK_FIELDS = new Set(['source', 'target', 'relation', 'confidence', 'confidence_score', 'source_file', 'source_location']);

/**
 * The string table of one encoding: indices in order of first use (the file's bytes depend on it).
 * Most lookups are answered without the map: a column's value often repeats the previous row's
 * (same file, same kind), and `L<line>` locations are indexed by their number.
 */
class StringTable {
  readonly index = new Map<string, number>();
  readonly list: string[] = [];
  hasNul = false;
  private lineIndex = new Int32Array(1024).fill(-1);
  add(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.list.length;
      this.index.set(value, i);
      this.list.push(value);
      if (value.includes('\0')) this.hasNul = true;
    }
    return i;
  }
  opt(value: unknown): number {
    return typeof value === 'string' ? this.add(value) : NONE;
  }
  /** {@link add} through a one-entry cache for a column whose rows often repeat a value. */
  repeated(value: string, last: LastString): number {
    if (value === last.value) return last.index;
    last.value = value;
    return (last.index = this.add(value));
  }
  /** {@link opt} for a `L<line>` location. */
  location(value: unknown): number {
    if (typeof value !== 'string') return NONE;
    const line = locationLine(value);
    if (line < 0) return this.add(value);
    if (line >= this.lineIndex.length) {
      const bigger = new Int32Array(Math.max(2 * this.lineIndex.length, line + 1)).fill(-1);
      bigger.set(this.lineIndex);
      this.lineIndex = bigger;
    }
    let i = this.lineIndex[line]!;
    if (i < 0) this.lineIndex[line] = i = this.add(value);
    return i;
  }
}

interface LastString {
  value: string | undefined;
  index: number;
}

const lastString = (): LastString => ({ value: undefined, index: -1 });

/** The line of a canonical `L<digits>` location (no leading zero), else -1. */
function locationLine(value: string): number {
  const n = value.length;
  if (n < 2 || n > 8 || value.charCodeAt(0) !== 0x4c) return -1;
  let line = 0;
  for (let k = 1; k < n; k++) {
    const d = value.charCodeAt(k) - 0x30;
    if (d < 0 || d > 9 || (d === 0 && k === 1 && n > 2)) return -1;
    line = line * 10 + d;
  }
  return line;
}

const isInt32 = (v: unknown): v is number => typeof v === 'number' && (v | 0) === v && !Object.is(v, -0);

/** Own enumerable keys of a plain object, counted without allocating an array. */
function keyCount(obj: object): number {
  let k = 0;
  for (const key in obj) if (Object.hasOwn(obj, key)) k++;
  return k;
}

function spanFits(span: unknown): span is Span {
  if (!span || typeof span !== 'object') return false;
  const s = span as Record<string, unknown>;
  return isInt32(s.start_line) && isInt32(s.start_col) && isInt32(s.end_line) && isInt32(s.end_col) && keyCount(s) === 4;
}

function paramFits(p: unknown): p is Param {
  if (!p || typeof p !== 'object') return false;
  const q = p as Record<string, unknown>;
  for (const k in q) if (k !== 'name' && k !== 'type' && k !== 'optional' && k !== 'default' && Object.hasOwn(q, k)) return false;
  return typeof q.name === 'string' && (q.type === undefined || typeof q.type === 'string')
    && (q.optional === undefined || typeof q.optional === 'boolean') && (q.default === undefined || typeof q.default === 'string')
    && !('type' in q && q.type === undefined) && !('optional' in q && q.optional === undefined) && !('default' in q && q.default === undefined);
}

function signatureFits(sig: unknown): sig is Signature {
  if (!sig || typeof sig !== 'object') return false;
  const s = sig as Record<string, unknown>;
  for (const k in s) if (k !== 'params' && k !== 'returns' && k !== 'raw' && Object.hasOwn(s, k)) return false;
  return typeof s.raw === 'string' && Array.isArray(s.params) && s.params.every(paramFits)
    && (typeof s.returns === 'string' || !('returns' in s));
}

/** Move extra fields that have one scalar type across all rows into columns; the rest stay per row. */
function columnize(
  rows: [number, Record<string, unknown>][], count: number, modelled: ReadonlySet<string>, strings: StringTable,
): { columns: ExtraColumn[]; rest: [number, Record<string, unknown>][] } {
  const kinds = new Map<string, ExtraColumn['kind'] | 'x'>();
  for (const [, record] of rows) {
    for (const key of Object.keys(record)) {
      const v = record[key];
      const kind = modelled.has(key) ? 'x' : typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : isInt32(v) ? 'i' : 'x';
      const seen = kinds.get(key);
      kinds.set(key, seen === undefined || seen === kind ? kind : 'x');
    }
  }
  // Columns in key order, and within a row values taken column by column: the bytes do not depend on
  // the order of the rows' keys.
  const columns: ExtraColumn[] = [];
  const byKey = new Map<string, ExtraColumn>();
  for (const [key, kind] of [...kinds].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (kind === 'x') continue;
    const col: ExtraColumn = kind === 's' ? { key, kind, values: new Uint32Array(count).fill(NONE) }
      : kind === 'b' ? { key, kind, values: new Uint8Array(count) }
        : { key, kind, values: new Int32Array(count), has: new Uint8Array(count) };
    columns.push(col);
    byKey.set(key, col);
  }
  if (!columns.length) return { columns, rest: rows.map(([row, record]) => [row, sortedRest(record, byKey)]) };
  const rest: [number, Record<string, unknown>][] = [];
  for (const [row, record] of rows) {
    let count = 0;
    for (const col of columns) {
      if (!Object.hasOwn(record, col.key)) continue;
      count++;
      const v = record[col.key];
      if (col.kind === 's') col.values[row] = strings.add(v as string);
      else if (col.kind === 'b') col.values[row] = v ? 2 : 1;
      else {
        col.values[row] = v as number;
        col.has![row] = 1;
      }
    }
    if (count < Object.keys(record).length) rest.push([row, sortedRest(record, byKey)]);
  }
  return { columns, rest };
}

/** The keys of `record` that have no column, in key order. */
function sortedRest(record: Record<string, unknown>, byKey: ReadonlyMap<string, ExtraColumn>): Record<string, unknown> {
  const left: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) if (!byKey.has(key)) left[key] = record[key];
  return left;
}

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
 * Encode a graph document as graph.cbor bytes. `endpoints`: each link's source and target node
 * index, when the caller has them (indexGraph's src/dst of a document whose ids are unique and whose
 * links all have both endpoints): saves two id lookups per link; the bytes are the same.
 */
export function encodeGraph(doc: GraphDocument, endpoints?: { src: Uint32Array; dst: Uint32Array }): Uint8Array {
  if (endpoints && (endpoints.src.length !== doc.links.length || endpoints.dst.length !== doc.links.length)) endpoints = undefined;
  const strings = new StringTable();
  const nodes = doc.nodes;
  const n = nodes.length;
  const col = {
    id: new Uint32Array(n), label: new Uint32Array(n), fileType: new Uint32Array(n), sourceFile: new Uint32Array(n),
    sourceLocation: new Uint32Array(n), kind: new Uint32Array(n), visibility: new Uint32Array(n),
    language: new Uint32Array(n), doc: new Uint32Array(n), community: new Int32Array(n), hasCommunity: new Uint8Array(n),
    isTest: new Uint8Array(n), span: new Int32Array(4 * n), hasSpan: new Uint8Array(n), sigRaw: new Uint32Array(n),
    sigReturns: new Uint32Array(n), paramOffsets: new Uint32Array(n + 1),
  };
  const paramName: number[] = [];
  const paramType: number[] = [];
  const paramOptional: number[] = [];
  const paramDefault: number[] = [];
  const nodeExtras: [number, Record<string, unknown>][] = [];
  const indexOfNode = new Map<string, number>();
  const last = { fileType: lastString(), sourceFile: lastString(), kind: lastString(), visibility: lastString(), language: lastString() };
  for (const c of [col.id, col.label, col.fileType, col.sourceFile, col.sourceLocation, col.kind, col.visibility, col.language, col.doc, col.sigRaw, col.sigReturns]) {
    c.fill(NONE);
  }
  /** A string field into its column (through the column's repeat cache, if any); false if not a string. */
  const put = (v: unknown, column: Uint32Array, i: number, repeat?: LastString): boolean => {
    if (typeof v !== 'string') return false;
    column[i] = repeat ? strings.repeated(v, repeat) : strings.add(v);
    return true;
  };
  for (let i = 0; i < n; i++) {
    const node = nodes[i]! as Record<string, unknown>;
    // Modelled fields in one fixed order, so the string table (first use) does not depend on the order
    // of a node's keys: a node decoded from graph.cbor and the same node freshly linked encode alike.
    const id = node.id;
    const idOk = typeof id === 'string';
    if (idOk) {
      col.id[i] = strings.add(id);
      if (!endpoints && !indexOfNode.has(id)) indexOfNode.set(id, i);
    }
    const labelOk = put(node.label, col.label, i);
    const fileTypeOk = put(node.file_type, col.fileType, i, last.fileType);
    const sourceFileOk = put(node.source_file, col.sourceFile, i, last.sourceFile);
    const location = node.source_location;
    const locationOk = typeof location === 'string';
    if (locationOk) col.sourceLocation[i] = strings.location(location);
    const kindOk = put(node.kind, col.kind, i, last.kind);
    const visibilityOk = put(node.visibility, col.visibility, i, last.visibility);
    const languageOk = put(node.language, col.language, i, last.language);
    const docOk = put(node.doc, col.doc, i);
    const community = node.community;
    const communityOk = isInt32(community);
    if (communityOk) {
      col.community[i] = community;
      col.hasCommunity[i] = 1;
    }
    const isTest = node.is_test;
    const isTestOk = typeof isTest === 'boolean';
    if (isTestOk) col.isTest[i] = isTest ? 2 : 1;
    const span = node.span;
    const spanOk = spanFits(span);
    if (spanOk) {
      const b = 4 * i;
      col.span[b] = span.start_line;
      col.span[b + 1] = span.start_col;
      col.span[b + 2] = span.end_line;
      col.span[b + 3] = span.end_col;
      col.hasSpan[i] = 1;
    }
    const sig = node.signature;
    const sigOk = signatureFits(sig);
    if (sigOk) {
      col.sigRaw[i] = strings.add(sig.raw);
      col.sigReturns[i] = strings.opt(sig.returns);
      for (const p of sig.params) {
        paramName.push(strings.add(p.name));
        paramType.push(strings.opt(p.type));
        paramOptional.push(p.optional === undefined ? 0 : p.optional ? 2 : 1);
        paramDefault.push(strings.opt(p.default));
      }
    }
    col.paramOffsets[i + 1] = paramName.length;
    // Every other key (and a modelled one of another type) travels as an extra.
    let extras: Record<string, unknown> | null = null;
    for (const key in node) {
      let stored: boolean;
      switch (key) {
        case 'id': stored = idOk; break;
        case 'label': stored = labelOk; break;
        case 'file_type': stored = fileTypeOk; break;
        case 'source_file': stored = sourceFileOk; break;
        case 'source_location': stored = locationOk; break;
        case 'kind': stored = kindOk; break;
        case 'visibility': stored = visibilityOk; break;
        case 'language': stored = languageOk; break;
        case 'doc': stored = docOk; break;
        case 'community': stored = communityOk; break;
        case 'is_test': stored = isTestOk; break;
        case 'span': stored = spanOk; break;
        case 'signature': stored = sigOk; break;
        default: stored = !Object.hasOwn(node, key);
      }
      if (!stored) (extras ??= {})[key] = node[key];
    }
    if (extras) nodeExtras.push([i, extras]);
  }

  const links = doc.links;
  const m = links.length;
  const lcol = {
    src: new Uint32Array(m), dst: new Uint32Array(m), relation: new Uint16Array(m), confidence: new Uint8Array(m),
    confidenceScore: new Float64Array(m), sourceFile: new Uint32Array(m), sourceLocation: new Uint32Array(m),
  };
  const relations: string[] = [];
  const relationIndex = new Map<string, number>();
  const linkExtras: [number, Record<string, unknown>][] = [];
  for (let j = 0; j < m; j++) {
    const link = links[j]! as Record<string, unknown>;
    // Built only for the rare link with keys the columns do not model (no object per link).
    let extras: Record<string, unknown> | null = null;
    for (const key in link) {
      switch (key) {
        case 'source': case 'target': case 'relation': case 'confidence': case 'confidence_score': case 'source_file': case 'source_location':
          break;
        default:
          if (Object.hasOwn(link, key)) (extras ??= {})[key] = link[key];
      }
    }
    const s = endpoints ? endpoints.src[j] : typeof link.source === 'string' ? indexOfNode.get(link.source) : undefined;
    const t = endpoints ? endpoints.dst[j] : typeof link.target === 'string' ? indexOfNode.get(link.target) : undefined;
    lcol.src[j] = s ?? NONE;
    lcol.dst[j] = t ?? NONE;
    if (s === undefined && 'source' in link) (extras ??= {}).source = link.source;
    if (t === undefined && 'target' in link) (extras ??= {}).target = link.target;
    if (typeof link.relation === 'string') {
      let r = relationIndex.get(link.relation);
      if (r === undefined) {
        r = relations.length;
        relationIndex.set(link.relation, r);
        relations.push(link.relation);
      }
      lcol.relation[j] = r;
    } else {
      lcol.relation[j] = 0xffff;
      if ('relation' in link) (extras ??= {}).relation = link.relation;
    }
    const c = CONFIDENCES.indexOf(link.confidence as Confidence);
    lcol.confidence[j] = c < 0 ? 255 : c;
    if (c < 0 && 'confidence' in link) (extras ??= {}).confidence = link.confidence;
    if (typeof link.confidence_score === 'number' && !Number.isNaN(link.confidence_score)) lcol.confidenceScore[j] = link.confidence_score;
    else {
      lcol.confidenceScore[j] = NaN;
      if ('confidence_score' in link) (extras ??= {}).confidence_score = link.confidence_score;
    }
    // The site file is nearly always the source node's own file: its index is known.
    const siteFile = link.source_file;
    lcol.sourceFile[j] = typeof siteFile !== 'string' ? NONE : s !== undefined && siteFile === nodes[s]!.source_file ? col.sourceFile[s]! : strings.add(siteFile);
    if (typeof link.source_file !== 'string' && 'source_file' in link) (extras ??= {}).source_file = link.source_file;
    lcol.sourceLocation[j] = strings.location(link.source_location);
    if (typeof link.source_location !== 'string' && 'source_location' in link) (extras ??= {}).source_location = link.source_location;
    if (extras) linkExtras.push([j, extras]);
  }

  const edges = snapshotEdges(n, lcol, relations, strings.list, col.sourceFile);
  const nodeSplit = columnize(nodeExtras, n, NODE_FIELDS, strings);
  const linkSplit = columnize(linkExtras, m, LINK_FIELDS, strings);
  const wire: Wire = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    strings: strings.hasNul ? strings.list : new TextEncoder().encode(strings.list.join('\0')),
    n,
    m,
    node: {
      ...col,
      paramName: Uint32Array.from(paramName),
      paramType: Uint32Array.from(paramType),
      paramOptional: Uint8Array.from(paramOptional),
      paramDefault: Uint32Array.from(paramDefault),
    },
    link: lcol,
    relations,
    edges: storableEdges(edges),
    nodeColumns: nodeSplit.columns,
    linkColumns: linkSplit.columns,
    nodeExtras: nodeSplit.rest,
    linkExtras: linkSplit.rest,
    meta: doc.graph,
    hyperedges: doc.hyperedges,
    builtAtCommit: doc.built_at_commit,
  };
  return new Encoder({ useRecords: false, tagUint8Array: true }).encode(wire);
}

/** Decode graph.cbor bytes into columns (fast: no per-node objects). */
export function decodeSnapshot(bytes: Uint8Array): GraphSnapshot {
  const wire = decode(bytes) as Wire;
  if (!wire || wire.format !== SNAPSHOT_FORMAT) throw new TypeError('Cannot decode graph snapshot: not a graph.cbor file');
  if (wire.version !== SNAPSHOT_VERSION) {
    throw new RangeError(`Cannot decode graph snapshot: version ${wire.version} is not the supported ${SNAPSHOT_VERSION}`);
  }
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
