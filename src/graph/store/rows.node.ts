import { crc32 } from 'node:zlib';
import type { GraphDocument, GraphLink, GraphNode } from '../model.ts';

/**
 * A graph record as a shard row, and back. A node's integer community is not in its row: Louvain
 * renumbers most communities after any edit, so they live in one blob indexed by the row's `nid`
 * (the `communities` blob), written whole by each update, and the row's JSON keeps a placeholder so the
 * record's key order is the original's. Every row carries a CRC-32 over its stored bytes, checked
 * when the row is read; each blob's CRC is in the meta table.
 */

export interface NodeRow {
  /** The row's stable number (SQLite rowid): the node's slot in the communities blob. */
  nid: number;
  id: string;
  fid: number;
  label: string;
  kind: string;
  /** Which fields the JSON holds as a placeholder (NODE_FIELDS bits): their values are the columns (the community: the blob). */
  flags: number;
  json: string;
  /** CRC-32 of the row's columns (nid, id, fid, label, kind, flags, json). */
  crc: number;
}

export interface LinkRow {
  /** The row's stable number (SQLite rowid; the links blob lists them in the graph's order). */
  lid: number;
  fid: number;
  /** The link's position among its file's links. */
  seq: number;
  source: string;
  target: string;
  relation: string;
  flags: number;
  json: string;
  crc: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value));

// Fields kept in columns (and so not twice in the JSON, where a 0 holds their place) when they are strings.
const ID = 1;
const FILE = 2;
const LABEL = 4;
const KIND = 8;
const COMMUNITY = 16;
const SOURCE = 1;
const TARGET = 2;
const RELATION = 4;
const LINK_FILE = 8;

export function nodeCrc(nid: number, id: string, fid: number, label: string, kind: string, flags: number, json: string): number {
  return crc32(json, crc32(`${nid}\0${id}\0${fid}\0${label}\0${kind}\0${flags}\0`));
}

/** The communities blob's value of a node without an integer community (and of an unused nid). */
export const NO_COMMUNITY = -0x80000000;

/** A community the blob can hold (an Int32, not the NO_COMMUNITY mark); any other value stays in the row's JSON. */
export function blobCommunity(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > NO_COMMUNITY && (value as number) <= 0x7fffffff;
}

/** The row of a node numbered `nid`; `fid` numbers its source file in the shard. `community`: the blob's value. */
/**
 * How records are written: a fresh object per record with its keys in the order to store (the
 * extractor passes graph.json's canonical order, so a shard's rows do not depend on how the
 * document was built or read); the frame's JSON. Default: as given.
 */
export interface RecordForm {
  node(node: GraphNode): Record<string, unknown>;
  link(link: GraphLink): Record<string, unknown>;
  frame(doc: GraphDocument): string;
}

export function nodeRow(node: GraphNode, fid: number, nid: number, form?: RecordForm): NodeRow & { community: number } {
  const copy: Record<string, unknown> = form ? form.node(node) : { ...node };
  let flags = 0;
  if (typeof node.id === 'string') (flags |= ID), (copy.id = 0);
  if (typeof node.source_file === 'string') (flags |= FILE), (copy.source_file = 0);
  if (typeof node.label === 'string') (flags |= LABEL), (copy.label = 0);
  if (typeof node.kind === 'string') (flags |= KIND), (copy.kind = 0);
  const inBlob = blobCommunity(node.community);
  if (inBlob) (flags |= COMMUNITY), (copy.community = 0);
  const json = JSON.stringify(copy);
  const id = text(node.id);
  const label = text(node.label);
  const kind = text(node.kind);
  return { nid, id, fid, label, kind, flags, json, crc: nodeCrc(nid, id, fid, label, kind, flags, json), community: inBlob ? node.community as number : NO_COMMUNITY };
}

/** Whether a node's community lives in the blob (its row has the placeholder). */
export function communityInBlob(flags: number): boolean {
  return (flags & COMMUNITY) !== 0;
}

export function linkCrc(lid: number, fid: number, seq: number, source: string, target: string, relation: string, flags: number, json: string): number {
  return crc32(json, crc32(`${lid}\0${fid}\0${seq}\0${source}\0${target}\0${relation}\0${flags}\0`));
}

export function linkRow(link: GraphLink, seq: number, fid: number, lid: number, form?: RecordForm): LinkRow {
  const copy: Record<string, unknown> = form ? form.link(link) : { ...link };
  let flags = 0;
  if (typeof link.source === 'string') (flags |= SOURCE), (copy.source = 0);
  if (typeof link.target === 'string') (flags |= TARGET), (copy.target = 0);
  if (typeof link.relation === 'string') (flags |= RELATION), (copy.relation = 0);
  if (typeof link.source_file === 'string') (flags |= LINK_FILE), (copy.source_file = 0);
  const json = JSON.stringify(copy);
  const source = text(link.source);
  const target = text(link.target);
  const relation = text(link.relation);
  return { lid, fid, seq, source, target, relation, flags, json, crc: linkCrc(lid, fid, seq, source, target, relation, flags, json) };
}

/** A node row read back (`path`: its file's path, `community`: its blob value): null when its bytes do not match its CRC. */
export function nodeOfRow(row: NodeRow, path: string, community: number): GraphNode | null {
  if (nodeCrc(row.nid, row.id, row.fid, row.label, row.kind, row.flags, row.json) !== row.crc) return null;
  let node: GraphNode;
  try {
    node = JSON.parse(row.json) as GraphNode;
  } catch {
    return null;
  }
  const f = row.flags;
  if (f & ID) node.id = row.id;
  if (f & FILE) node.source_file = path;
  if (f & LABEL) node.label = row.label;
  if (f & KIND) (node as { kind: string }).kind = row.kind;
  if (f & COMMUNITY) {
    if (community === NO_COMMUNITY) return null;
    node.community = community;
  }
  return node;
}

/** A link row read back: null when its bytes do not match its CRC. */
export function linkOfRow(row: LinkRow, path: string): GraphLink | null {
  if (linkCrc(row.lid, row.fid, row.seq, row.source, row.target, row.relation, row.flags, row.json) !== row.crc) return null;
  let link: GraphLink;
  try {
    link = JSON.parse(row.json) as GraphLink;
  } catch {
    return null;
  }
  const f = row.flags;
  if (f & SOURCE) link.source = row.source;
  if (f & TARGET) link.target = row.target;
  if (f & RELATION) link.relation = row.relation;
  if (f & LINK_FILE) link.source_file = path;
  return link;
}

/** The document without its records: the `frame` blob (key order kept: nodes and links are put back in place). */
export function frameOf(doc: GraphDocument, form?: RecordForm): string {
  return form ? form.frame(doc) : JSON.stringify({ ...doc, nodes: [], links: [] });
}

/** The 32-bit sum of row CRCs (order-free, so an update adds and takes away the rows it changes). */
export function addSum(sum: number, crc: number): number {
  return (sum + crc) >>> 0;
}

export function subSum(sum: number, crc: number): number {
  return (sum - crc) >>> 0;
}

/** CRC-32 of the meta table (every key but `meta_crc`, in key order). */
export function metaCrc(meta: Record<string, string>): number {
  let sum = 0;
  for (const key of Object.keys(meta).sort()) {
    if (key === 'meta_crc') continue;
    sum = crc32(`${key}\0${meta[key]}\0`, sum);
  }
  return sum;
}

/** Int32 values as the little-endian bytes of a blob. */
export function int32Blob(values: Int32Array): Buffer {
  const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
  return LITTLE_ENDIAN ? bytes : swapped(bytes);
}

/** A blob of little-endian Int32 values read back (null: not a whole number of them). */
export function blobInt32(bytes: Uint8Array): Int32Array | null {
  if (bytes.byteLength % 4 !== 0) return null;
  const copy = new Int32Array(bytes.byteLength / 4);
  const view = Buffer.from(copy.buffer);
  view.set(bytes);
  if (!LITTLE_ENDIAN) swapped(view, true);
  return copy;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function swapped(bytes: Buffer, inPlace = false): Buffer {
  const out = inPlace ? bytes : Buffer.from(bytes);
  out.swap32();
  return out;
}
