import { Encoder } from 'cbor-x';
import type { GraphDocument, GraphLink, GraphNode, Param, Signature, Span } from './model.ts';
import {
  CONFIDENCES, NODE_FIELDS, NONE, snapshotEdges, type ExtraColumn, type GraphSnapshot, type SnapshotEdges, type Wire,
} from './snapshot.ts';
import { SNAPSHOT_HEADER_BYTES, sealSnapshot } from './snapshot-envelope.ts';
import { EncodeMemo, SCALAR_STRING_COLUMNS, StringTable, lastString, type LastEncode, type LastString, type NodeColumns } from './snapshot-strings.ts';

export { EncodeMemo };

/**
 * Encoding graph.cbor (the format is described in snapshot.ts). Every string goes into one table in
 * order of first use, so the bytes depend only on the document. An update passes an
 * {@link EncodeMemo}: strings then get lasting numbers, and the rows of node and link objects that
 * the last encode also had (the update kept them) are copied from its columns instead of being read
 * and looked up again. The bytes are the same either way (property-tested).
 */

const LINK_FIELDS = new Set(['source', 'target', 'relation', 'confidence', 'confidence_score', 'source_file', 'source_location']);

export interface EncodeReuse {
  memo: EncodeMemo;
  nodeFrom?: Int32Array;
  linkFrom?: Int32Array;
}

/**
 * Encode a graph document as graph.cbor bytes. `endpoints`: each link's source and target node
 * index, when the caller has them (indexGraph's src/dst of a document whose ids are unique and whose
 * links all have both endpoints): saves two id lookups per link; the bytes are the same.
 */
export function encodeGraph(doc: GraphDocument, endpoints?: { src: Uint32Array; dst: Uint32Array }, reuse?: EncodeReuse): Uint8Array {
  if (endpoints && (endpoints.src.length !== doc.links.length || endpoints.dst.length !== doc.links.length)) endpoints = undefined;
  const memo = reuse?.memo;
  const last = memo?.last;
  if (memo && last?.copyable && endpoints && (reuse.nodeFrom || reuse.linkFrom)) {
    const copied = new RowEncoder(doc, endpoints, memo).encodeCopying(last, reuse.nodeFrom, reuse.linkFrom);
    if (copied) return copied;
  }
  return new RowEncoder(doc, endpoints, memo).encodeAll();
}

/** The columns of one encode, filled row by row. */
class RowEncoder {
  private readonly strings: StringTable;
  private readonly nodes: GraphNode[];
  private readonly links: GraphLink[];
  private readonly col: NodeColumns;
  private readonly lcol: GraphSnapshot['link'];
  private readonly paramName: number[] = [];
  private readonly paramType: number[] = [];
  private readonly paramOptional: number[] = [];
  private readonly paramDefault: number[] = [];
  private readonly nodeExtras: [number, Record<string, unknown>][] = [];
  private readonly linkExtras: [number, Record<string, unknown>][] = [];
  private readonly indexOfNode = new Map<string, number>();
  private readonly relations: string[] = [];
  private readonly relationIndex = new Map<string, number>();
  private relationFromLast: Int32Array | null = null;
  /** A copied row's community is neither an int32 nor absent (the encode is then done afresh). */
  private oddCommunity = false;
  private readonly lastOf = { fileType: lastString(), sourceFile: lastString(), kind: lastString(), visibility: lastString(), language: lastString() };

  constructor(private readonly doc: GraphDocument, private readonly endpoints: { src: Uint32Array; dst: Uint32Array } | undefined, private readonly memo?: EncodeMemo) {
    this.strings = new StringTable(memo);
    this.nodes = doc.nodes;
    this.links = doc.links;
    const n = this.nodes.length;
    const m = this.links.length;
    this.col = {
      id: new Uint32Array(n), label: new Uint32Array(n), fileType: new Uint32Array(n), sourceFile: new Uint32Array(n),
      sourceLocation: new Uint32Array(n), kind: new Uint32Array(n), visibility: new Uint32Array(n),
      language: new Uint32Array(n), doc: new Uint32Array(n), community: new Int32Array(n), hasCommunity: new Uint8Array(n),
      isTest: new Uint8Array(n), span: new Int32Array(4 * n), hasSpan: new Uint8Array(n), sigRaw: new Uint32Array(n),
      sigReturns: new Uint32Array(n), paramOffsets: new Uint32Array(n + 1),
    };
    for (const key of SCALAR_STRING_COLUMNS) this.col[key].fill(NONE);
    this.col.sigRaw.fill(NONE);
    this.col.sigReturns.fill(NONE);
    this.lcol = {
      src: new Uint32Array(m), dst: new Uint32Array(m), relation: new Uint16Array(m), confidence: new Uint8Array(m),
      confidenceScore: new Float64Array(m), sourceFile: new Uint32Array(m), sourceLocation: new Uint32Array(m),
    };
  }

  /** Every row read from its object. */
  encodeAll(): Uint8Array {
    for (let i = 0; i < this.nodes.length; i++) this.nodeRow(i);
    for (let j = 0; j < this.links.length; j++) this.linkRow(j);
    const nodeSplit = columnize(this.nodeExtras, this.nodes.length, NODE_FIELDS, this.strings);
    const linkSplit = columnize(this.linkExtras, this.links.length, LINK_FIELDS, this.strings);
    return this.finish(nodeSplit, linkSplit);
  }

  /**
   * Rows the last encode had (same object, same record) copied from its columns, the others read;
   * null when the extra fields do not fit the last encode's columns (the caller encodes afresh).
   */
  encodeCopying(last: LastEncode, nodeFrom: Int32Array | undefined, linkFrom: Int32Array | undefined): Uint8Array | null {
    const n = this.nodes.length;
    const m = this.links.length;
    const rowFrom = new Int32Array(n).fill(-1);
    const idOf = (r: number): string | undefined => (last.node.id[r] === NONE ? undefined : this.memo!.strings[last.tableNumbers[last.node.id[r]!]!]);
    for (let i = 0; i < n; i++) {
      const r = nodeFrom && nodeFrom.length === n ? nodeFrom[i]! : -1;
      const node = this.nodes[i]!;
      // The same object, still under the same id (a cheap check that the plan and the memo agree).
      if (r >= 0 && r < last.nodes.length && last.nodes[r] === node && idOf(r) === node.id) {
        this.copyNodeRow(i, r, last);
        rowFrom[i] = r;
      } else this.nodeRow(i);
    }
    const linkRowFrom = new Int32Array(m).fill(-1);
    for (let j = 0; j < m; j++) {
      const r = linkFrom && linkFrom.length === m ? linkFrom[j]! : -1;
      if (r >= 0 && r < last.links.length && last.links[r] === this.links[j]) {
        this.copyLinkRow(j, r, last);
        linkRowFrom[j] = r;
      } else this.linkRow(j);
    }
    if (this.oddCommunity) return null;
    // Node columns, then link columns: the order encodeAll's columnize adds their strings in.
    const nodeSplit = this.copyExtraColumns(last, last.nodeColumns, last.nodeRest, this.nodeExtras, rowFrom, NODE_FIELDS);
    if (!nodeSplit) return null;
    const linkSplit = this.copyExtraColumns(last, last.linkColumns, last.linkRest, this.linkExtras, linkRowFrom, LINK_FIELDS);
    if (!linkSplit) return null;
    return this.finish(nodeSplit, linkSplit);
  }

  /** Node row i from its object (modelled fields in one fixed order: the table does not depend on key order). */
  private nodeRow(i: number): void {
    const { strings, col, lastOf } = this;
    const node = this.nodes[i]! as unknown as Record<string, unknown>;
    const put = (v: unknown, column: Uint32Array, repeat?: LastString): boolean => {
      if (typeof v !== 'string') return false;
      column[i] = repeat ? strings.repeated(v, repeat) : strings.add(v);
      return true;
    };
    const id = node.id;
    const idOk = typeof id === 'string';
    if (idOk) {
      col.id[i] = strings.add(id);
      if (!this.endpoints && !this.indexOfNode.has(id)) this.indexOfNode.set(id, i);
    }
    const labelOk = put(node.label, col.label);
    const fileTypeOk = put(node.file_type, col.fileType, lastOf.fileType);
    const sourceFileOk = put(node.source_file, col.sourceFile, lastOf.sourceFile);
    const location = node.source_location;
    const locationOk = typeof location === 'string';
    if (locationOk) col.sourceLocation[i] = strings.location(location);
    const kindOk = put(node.kind, col.kind, lastOf.kind);
    const visibilityOk = put(node.visibility, col.visibility, lastOf.visibility);
    const languageOk = put(node.language, col.language, lastOf.language);
    const docOk = put(node.doc, col.doc);
    const communityOk = this.community(i, node.community);
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
        this.paramName.push(strings.add(p.name));
        this.paramType.push(strings.opt(p.type));
        this.paramOptional.push(p.optional === undefined ? 0 : p.optional ? 2 : 1);
        this.paramDefault.push(strings.opt(p.default));
      }
    }
    col.paramOffsets[i + 1] = this.paramName.length;
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
    if (extras) this.nodeExtras.push([i, extras]);
  }

  private community(i: number, community: unknown): boolean {
    if (!isInt32(community)) return false;
    this.col.community[i] = community;
    this.col.hasCommunity[i] = 1;
    return true;
  }

  /** Node row i as row r of the last encode (its strings added in nodeRow's order), with the node's community now. */
  private copyNodeRow(i: number, r: number, last: LastEncode): void {
    const { strings, col } = this;
    const c = last.node;
    // Unrolled (SCALAR_STRING_COLUMNS' order): keyed access by a varying name is slow per row.
    col.id[i] = strings.addFromLast(c.id[r]!, last);
    col.label[i] = strings.addFromLast(c.label[r]!, last);
    col.fileType[i] = strings.addFromLast(c.fileType[r]!, last);
    col.sourceFile[i] = strings.addFromLast(c.sourceFile[r]!, last);
    col.sourceLocation[i] = strings.addFromLast(c.sourceLocation[r]!, last);
    col.kind[i] = strings.addFromLast(c.kind[r]!, last);
    col.visibility[i] = strings.addFromLast(c.visibility[r]!, last);
    col.language[i] = strings.addFromLast(c.language[r]!, last);
    col.doc[i] = strings.addFromLast(c.doc[r]!, last);
    const community = this.nodes[i]!.community;
    // Any other community than an int32 or none travels as an extra: such a row is not copyable.
    if (!this.community(i, community) && community !== undefined) this.oddCommunity = true;
    col.isTest[i] = c.isTest[r]!;
    if (c.hasSpan[r]) {
      const from = 4 * r;
      const to = 4 * i;
      col.span[to] = c.span[from]!;
      col.span[to + 1] = c.span[from + 1]!;
      col.span[to + 2] = c.span[from + 2]!;
      col.span[to + 3] = c.span[from + 3]!;
      col.hasSpan[i] = 1;
    }
    col.sigRaw[i] = strings.addFromLast(c.sigRaw[r]!, last);
    col.sigReturns[i] = strings.addFromLast(c.sigReturns[r]!, last);
    for (let p = c.paramOffsets[r]!; p < c.paramOffsets[r + 1]!; p++) {
      this.paramName.push(strings.addFromLast(c.paramName[p]!, last));
      this.paramType.push(strings.addFromLast(c.paramType[p]!, last));
      this.paramOptional.push(c.paramOptional[p]!);
      this.paramDefault.push(strings.addFromLast(c.paramDefault[p]!, last));
    }
    col.paramOffsets[i + 1] = this.paramName.length;
  }

  private relationOf(relation: string): number {
    let r = this.relationIndex.get(relation);
    if (r === undefined) {
      r = this.relations.length;
      this.relationIndex.set(relation, r);
      this.relations.push(relation);
    }
    return r;
  }

  /** Link row j from its object. */
  private linkRow(j: number): void {
    const { strings, lcol, nodes, endpoints } = this;
    const link = this.links[j]! as unknown as Record<string, unknown>;
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
    const s = endpoints ? endpoints.src[j] : typeof link.source === 'string' ? this.indexOfNode.get(link.source) : undefined;
    const t = endpoints ? endpoints.dst[j] : typeof link.target === 'string' ? this.indexOfNode.get(link.target) : undefined;
    lcol.src[j] = s ?? NONE;
    lcol.dst[j] = t ?? NONE;
    if (s === undefined && 'source' in link) (extras ??= {}).source = link.source;
    if (t === undefined && 'target' in link) (extras ??= {}).target = link.target;
    if (typeof link.relation === 'string') lcol.relation[j] = this.relationOf(link.relation);
    else {
      lcol.relation[j] = 0xffff;
      if ('relation' in link) (extras ??= {}).relation = link.relation;
    }
    const c = CONFIDENCES.indexOf(link.confidence as GraphLink['confidence']);
    lcol.confidence[j] = c < 0 ? 255 : c;
    if (c < 0 && 'confidence' in link) (extras ??= {}).confidence = link.confidence;
    if (typeof link.confidence_score === 'number' && !Number.isNaN(link.confidence_score)) lcol.confidenceScore[j] = link.confidence_score;
    else {
      lcol.confidenceScore[j] = NaN;
      if ('confidence_score' in link) (extras ??= {}).confidence_score = link.confidence_score;
    }
    // The site file is nearly always the source node's own file: its index is known.
    const siteFile = link.source_file;
    lcol.sourceFile[j] = typeof siteFile !== 'string' ? NONE : s !== undefined && siteFile === nodes[s]!.source_file ? this.col.sourceFile[s]! : strings.add(siteFile);
    if (typeof link.source_file !== 'string' && 'source_file' in link) (extras ??= {}).source_file = link.source_file;
    lcol.sourceLocation[j] = strings.location(link.source_location);
    if (typeof link.source_location !== 'string' && 'source_location' in link) (extras ??= {}).source_location = link.source_location;
    if (extras) this.linkExtras.push([j, extras]);
  }

  /** Link row j as row r of the last encode (its extra fields, all in columns, are copied by copyExtraColumns). */
  private copyLinkRow(j: number, r: number, last: LastEncode): void {
    const { strings, lcol } = this;
    const l = last.link;
    lcol.src[j] = this.endpoints!.src[j]!;
    lcol.dst[j] = this.endpoints!.dst[j]!;
    // (the last encode's relation number -> this one's, once per relation instead of a lookup per link)
    const fromLast = (this.relationFromLast ??= new Int32Array(last.relations.length).fill(-1));
    const lr = l.relation[r]!;
    let rel = lr < fromLast.length ? fromLast[lr]! : this.relationOf(last.relations[lr]!);
    if (rel < 0) rel = fromLast[lr] = this.relationOf(last.relations[lr]!);
    lcol.relation[j] = rel;
    lcol.confidence[j] = l.confidence[r]!;
    lcol.confidenceScore[j] = l.confidenceScore[r]!;
    lcol.sourceFile[j] = strings.addFromLast(l.sourceFile[r]!, last);
    lcol.sourceLocation[j] = strings.addFromLast(l.sourceLocation[r]!, last);
  }

  /**
   * The extra node (or link) columns when copying: the last encode's columns (copied rows' values
   * from there, read rows' from their extras), in columnize's order of string use; and the fields
   * that travel per row (`rest`: a copied row's as the last encode had them, a read row's those
   * without a column). Null when a full encode could come out with other columns: a read row's
   * extra that has no column of its kind, a column no row uses any more, or a per-row field that no
   * row holds as a value no column can take (a full encode might then make it a column).
   */
  private copyExtraColumns(
    last: LastEncode, lastColumns: ExtraColumn[], lastRest: ReadonlyMap<number, Record<string, unknown>>,
    rowExtras: [number, Record<string, unknown>][], rowFrom: Int32Array, modelled: ReadonlySet<string>,
  ): { columns: ExtraColumn[]; rest: [number, Record<string, unknown>][] } | null {
    // (rows of the last encode with a value in some column: most rows have none, and are skipped)
    const lastRows = extraRows(lastColumns, lastColumns === last.nodeColumns ? last.nodes.length : last.links.length, last.extraRows);
    const n = rowFrom.length;
    const byKey = new Map<string, ExtraColumn>(lastColumns.map((c) => [c.key, c]));
    const kindOf = (key: string, v: unknown): ExtraColumn['kind'] | 'x' =>
      modelled.has(key) ? 'x' : typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : isInt32(v) ? 'i' : 'x';
    /** Keys some row holds as a value no column takes: per-row in a full encode too. */
    const perRow = new Set<string>();
    const fresh = new Map<number, Record<string, unknown>>();
    for (const [i, extras] of rowExtras) {
      for (const key of Object.keys(extras)) {
        const kind = kindOf(key, extras[key]);
        const column = byKey.get(key);
        if (column ? column.kind !== kind : kind !== 'x') return null;
        if (kind === 'x') perRow.add(key);
      }
      fresh.set(i, extras);
    }
    const columns: ExtraColumn[] = lastColumns.map((c) => c.kind === 's' ? { key: c.key, kind: c.kind, values: new Uint32Array(n).fill(NONE) }
      : c.kind === 'b' ? { key: c.key, kind: c.kind, values: new Uint8Array(n) }
        : { key: c.key, kind: c.kind, values: new Int32Array(n), has: new Uint8Array(n) });
    const rest: [number, Record<string, unknown>][] = [];
    const used = new Uint8Array(columns.length);
    for (let i = 0; i < n; i++) {
      const r = rowFrom[i]!;
      const extras = r < 0 ? fresh.get(i) : undefined;
      if (r < 0 && !extras) continue;
      if (r >= 0 && lastRest.size) {
        const kept = lastRest.get(r);
        if (kept) {
          rest.push([i, kept]);
          for (const key of Object.keys(kept)) if (kindOf(key, kept[key]) === 'x') perRow.add(key);
        }
      }
      if (r >= 0 && !lastRows[r]) continue;
      let inColumns = 0;
      for (let k = 0; k < columns.length; k++) {
        const from = lastColumns[k]!;
        const to = columns[k]!;
        if (extras) {
          if (!Object.hasOwn(extras, to.key)) continue;
          inColumns++;
          const v = extras[to.key];
          if (to.kind === 's') to.values[i] = this.strings.add(v as string);
          else if (to.kind === 'b') to.values[i] = v ? 2 : 1;
          else {
            to.values[i] = v as number;
            to.has![i] = 1;
          }
        } else if (to.kind === 's') {
          if (from.values[r] === NONE) continue;
          to.values[i] = this.strings.addFromLast(from.values[r]!, last);
        } else if (to.kind === 'b') {
          if (!from.values[r]) continue;
          to.values[i] = from.values[r]!;
        } else {
          if (!from.has![r]) continue;
          to.values[i] = from.values[r]!;
          to.has![i] = 1;
        }
        used[k] = 1;
      }
      if (extras && inColumns < Object.keys(extras).length) rest.push([i, sortedRest(extras, byKey)]);
    }
    for (const [, record] of rest) for (const key in record) if (!perRow.has(key)) return null;
    return used.every((u) => u === 1) ? { columns, rest } : null;
  }

  private finish(
    nodeSplit: { columns: ExtraColumn[]; rest: [number, Record<string, unknown>][] },
    linkSplit: { columns: ExtraColumn[]; rest: [number, Record<string, unknown>][] },
  ): Uint8Array {
    const { strings, col, lcol, doc } = this;
    const n = this.nodes.length;
    const edges = snapshotEdges(n, lcol, this.relations, strings.list, col.sourceFile);
    const node = {
      ...col,
      paramName: Uint32Array.from(this.paramName),
      paramType: Uint32Array.from(this.paramType),
      paramOptional: Uint8Array.from(this.paramOptional),
      paramDefault: Uint32Array.from(this.paramDefault),
    };
    if (this.memo) {
      this.memo.last = {
        nodes: this.nodes.slice(), links: this.links.slice(), tableNumbers: Int32Array.from(strings.numbers), node, link: lcol,
        relations: this.relations, nodeColumns: nodeSplit.columns, linkColumns: linkSplit.columns,
        nodeRest: new Map(nodeSplit.rest), linkRest: new Map(linkSplit.rest), extraRows: new WeakMap(), copyable: true,
      };
    }
    const wire: Wire = {
      strings: strings.hasNul ? strings.list : new TextEncoder().encode(strings.list.join('\0')),
      n,
      m: this.links.length,
      node,
      link: lcol,
      relations: this.relations,
      edges: storableEdges(edges),
      nodeColumns: nodeSplit.columns,
      linkColumns: linkSplit.columns,
      nodeExtras: nodeSplit.rest,
      linkExtras: linkSplit.rest,
      meta: doc.graph,
      hyperedges: doc.hyperedges,
      builtAtCommit: doc.built_at_commit,
    };
    // (useBuffer is cbor-x's, missing from its typings: encode from the start of the given buffer.)
    const encoder = new Encoder({ useRecords: false, tagUint8Array: true }) as Encoder & { useBuffer(buffer: Uint8Array): void };
    const memo = this.memo;
    // The first encode with a memo writes into a buffer of about its size: cbor-x would grow its own
    // by copies to up to four times that (an 11 MB graph.cbor: ~45 MB allocated, as external memory
    // enough to set off a full garbage collection of the heap).
    if (memo?.allocate && !memo.output) memo.output = memo.allocate(SNAPSHOT_HEADER_BYTES + encodedSizeBound(wire));
    // The columns go after room for graph.cbor's header (snapshot-envelope.ts), which is then
    // written in front of them: the file is one view of the buffer, not a copy.
    const output = memo?.output;
    if (output) encoder.useBuffer(output.subarray(SNAPSHOT_HEADER_BYTES));
    const body = encoder.encode(wire);
    const inOutput = output !== null && output !== undefined && body.buffer === output.buffer && body.byteOffset === output.byteOffset + SNAPSHOT_HEADER_BYTES;
    if (inOutput || !memo?.allocate) return sealSnapshot(body, inOutput);
    // Grown past it: room for the next encode, with some to spare, which holds this file meanwhile.
    const grown = memo.allocate(SNAPSHOT_HEADER_BYTES + body.length + (body.length >> 2) + (1 << 20));
    memo.output = grown;
    return sealSnapshot(body, false, () => grown);
  }
}

/**
 * About the size of `wire` encoded: its arrays' bytes and the string table, plus room for the graph
 * meta (cbor-x grows the buffer if that is not enough).
 */
function encodedSizeBound(wire: Wire): number {
  let bytes = 1 << 20;
  const add = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) bytes += v.byteLength + 16;
    else if (typeof v === 'string') bytes += 3 * v.length + 8;
  };
  const addAll = (o: object | undefined): void => {
    if (o) for (const v of Object.values(o)) add(v);
  };
  if (Array.isArray(wire.strings)) wire.strings.forEach(add);
  else add(wire.strings);
  addAll(wire.node);
  addAll(wire.link);
  addAll(wire.edges);
  for (const c of [...wire.nodeColumns, ...wire.linkColumns]) addAll(c);
  return bytes + (bytes >> 3);
}

/**
 * Per row (of `count`): 1 when it has a value in one of `columns` (memoized in `memo` by the columns
 * array: an update's encode asks about the last encode's columns, which do not change after it).
 */
function extraRows(columns: ExtraColumn[], count: number, memo: WeakMap<ExtraColumn[], Uint8Array>): Uint8Array {
  let rows = memo.get(columns);
  if (rows) return rows;
  rows = new Uint8Array(count);
  for (const c of columns) {
    const values = c.values;
    if (c.kind === 's') {
      for (let i = 0; i < count; i++) if (values[i] !== NONE) rows[i] = 1;
    } else if (c.kind === 'b') {
      for (let i = 0; i < count; i++) if (values[i]) rows[i] = 1;
    } else {
      const has = c.has!;
      for (let i = 0; i < count; i++) if (has[i]) rows[i] = 1;
    }
  }
  memo.set(columns, rows);
  return rows;
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

