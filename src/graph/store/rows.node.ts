import { crc32 } from 'node:zlib';
import type { GraphDocument, GraphLink, GraphNode } from '../model.ts';

/**
 * A graph record as a shard row, and back. A node's integer community is a column (renumbered
 * communities after an update rewrite that column, not the record), its JSON text keeps a
 * placeholder so the key order of the record is the original's; every row carries CRC-32s over its
 * stored bytes, checked when the row is read.
 */

export interface NodeRow {
  id: string;
  fid: number;
  label: string;
  kind: string;
  community: number | null;
  ord: number;
  /** Which fields the JSON holds as a placeholder (NODE_FIELDS bits): their values are the columns. */
  flags: number;
  json: string;
  /** CRC-32 of the record's immutable columns (id, fid, label, kind, ord, flags, json). */
  jcrc: number;
  /** jcrc continued over the community column: the row's CRC. */
  crc: number;
}

export interface LinkRow {
  fid: number;
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

export function nodeJcrc(id: string, fid: number, label: string, kind: string, ord: number, flags: number, json: string): number {
  return crc32(json, crc32(`${id}\0${fid}\0${label}\0${kind}\0${ord}\0${flags}\0`));
}

export function nodeCrc(jcrc: number, community: number | null): number {
  return crc32(community === null ? '\0' : String(community), jcrc);
}

/** The row of a node; `fid` numbers its source file in the shard. */
export function nodeRow(node: GraphNode, ord: number, fid: number): NodeRow {
  const copy: Record<string, unknown> = { ...node };
  let flags = 0;
  if (typeof node.id === 'string') (flags |= ID), (copy.id = 0);
  if (typeof node.source_file === 'string') (flags |= FILE), (copy.source_file = 0);
  if (typeof node.label === 'string') (flags |= LABEL), (copy.label = 0);
  if (typeof node.kind === 'string') (flags |= KIND), (copy.kind = 0);
  const integer = Number.isInteger(node.community);
  if (integer) (flags |= COMMUNITY), (copy.community = 0);
  const community = integer ? (node.community as number) : null;
  const json = JSON.stringify(copy);
  const id = text(node.id);
  const label = text(node.label);
  const kind = text(node.kind);
  const jcrc = nodeJcrc(id, fid, label, kind, ord, flags, json);
  return { id, fid, label, kind, community, ord, flags, json, jcrc, crc: nodeCrc(jcrc, community) };
}

export function linkCrc(fid: number, seq: number, source: string, target: string, relation: string, flags: number, json: string): number {
  return crc32(json, crc32(`${fid}\0${seq}\0${source}\0${target}\0${relation}\0${flags}\0`));
}

export function linkRow(link: GraphLink, seq: number, fid: number): LinkRow {
  const copy: Record<string, unknown> = { ...link };
  let flags = 0;
  if (typeof link.source === 'string') (flags |= SOURCE), (copy.source = 0);
  if (typeof link.target === 'string') (flags |= TARGET), (copy.target = 0);
  if (typeof link.relation === 'string') (flags |= RELATION), (copy.relation = 0);
  if (typeof link.source_file === 'string') (flags |= LINK_FILE), (copy.source_file = 0);
  const json = JSON.stringify(copy);
  const source = text(link.source);
  const target = text(link.target);
  const relation = text(link.relation);
  return { fid, seq, source, target, relation, flags, json, crc: linkCrc(fid, seq, source, target, relation, flags, json) };
}

/** A node row read back (`path`: its file's path): null when its bytes do not match its CRCs. */
export function nodeOfRow(row: NodeRow, path: string): GraphNode | null {
  if (nodeJcrc(row.id, row.fid, row.label, row.kind, row.ord, row.flags, row.json) !== row.jcrc) return null;
  if (nodeCrc(row.jcrc, row.community) !== row.crc) return null;
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
    if (row.community === null) return null;
    node.community = row.community;
  }
  return node;
}

/** A link row read back: null when its bytes do not match its CRC. */
export function linkOfRow(row: LinkRow, path: string): GraphLink | null {
  if (linkCrc(row.fid, row.seq, row.source, row.target, row.relation, row.flags, row.json) !== row.crc) return null;
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

/** The document without its records: the meta row `frame` (key order kept: nodes and links are put back in place). */
export function frameOf(doc: GraphDocument): string {
  return JSON.stringify({ ...doc, nodes: [], links: [] });
}

/** Nodes in strictly increasing id order (the extractor's canonical order): the shard then sorts by id instead of storing positions that shift. */
export function nodesById(nodes: readonly GraphNode[]): boolean {
  for (let i = 1; i < nodes.length; i++) if (!(nodes[i - 1]!.id < nodes[i]!.id)) return false;
  return true;
}

/** Links grouped by file in increasing file order (the extractor's canonical order): seq is then the position within the file. */
export function linksByFile(links: readonly GraphLink[]): boolean {
  for (let i = 1; i < links.length; i++) if (text(links[i - 1]!.source_file) > text(links[i]!.source_file)) return false;
  return true;
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
