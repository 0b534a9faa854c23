import type Database from 'better-sqlite3';
import type { GraphDocument, GraphLink, GraphNode } from '../model.ts';
import { crc32 } from 'node:zlib';
import { addSum, blobInt32, communityInBlob, linkCrc, linkOfRow, metaCrc, NO_COMMUNITY, nodeCrc, nodeOfRow, type LinkRow, type NodeRow } from './rows.node.ts';
import { asShardError, checkHeader, COMMUNITIES_BLOB, CorruptShardError, FRAME_BLOB, LINK_ROWIDS_BLOB, openDatabase, ROWIDS_BLOB, SHARD_FORMAT, ShardVersionError, tagOfPath } from './schema.node.ts';

/** The meta table of a shard, its CRC and format checked. */
export function readMeta(db: Database.Database, tag: string, path: string): Record<string, string> {
  let rows: { key: string; value: string }[];
  try {
    rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
  } catch (err) {
    throw asShardError(err, tag, path);
  }
  const meta: Record<string, string> = {};
  for (const row of rows) meta[row.key] = row.value;
  const name = meta.tag ?? tag;
  if (Number(meta.format) > SHARD_FORMAT) {
    throw new ShardVersionError(name, path, `Shard '${name}' (${path}) was written by a newer synaptic (shard format ${meta.format}; this one reads up to ${SHARD_FORMAT}): upgrade synaptic, or rebuild the shard with this one ('synaptic migrate')`);
  }
  if (meta.meta_crc === undefined || String(metaCrc(meta)) !== meta.meta_crc) {
    throw new CorruptShardError(name, path, `Shard '${name}' is corrupt (${path}): its meta table fails its checksum; rebuild it with 'synaptic migrate'`);
  }
  return meta;
}

export interface ShardMeta {
  format: number;
  tag: string;
  graphKey: string;
  generation: number;
  writtenAt: string;
  nodes: number;
  links: number;
  files: number;
}

export interface OpenShardOptions {
  /** The tag to name in errors until the shard's own is read (default: from the path). */
  tag?: string;
  /** Check every row's CRC, the CRC sum and the counts now (else each row is checked when read). */
  verify?: boolean;
}

const NODE_COLUMNS = 'nid, id, fid, label, kind, flags, json, crc';
const LINK_COLUMNS = 'lid, fid, seq, source, target, relation, flags, json, crc';

/**
 * One member's shard, read through its indexes: a node by id, by label, by file; a node's links
 * out and in; the whole document only when asked. Every row read is checked against its CRC (a
 * damaged one throws CorruptShardError naming the member); `verify()` checks all of them.
 */
export class Shard {
  readonly meta: ShardMeta;
  private readonly raw: Record<string, string>;
  private readonly stmts: Record<string, Database.Statement>;
  private readonly paths = new Map<number, string>();
  private allPaths = false;
  private communityOf: Int32Array | null = null;

  private constructor(readonly path: string, private readonly db: Database.Database, raw: Record<string, string>) {
    this.raw = raw;
    this.meta = {
      format: Number(raw.format), tag: raw.tag ?? '', graphKey: raw.graph_key ?? '', generation: Number(raw.generation),
      writtenAt: raw.written_at ?? '', nodes: Number(raw.nodes), links: Number(raw.links), files: Number(raw.files),
    };
    try {
      this.stmts = {
        node: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes WHERE id = ?`),
        byLabel: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes WHERE label = ?`),
        labelCount: db.prepare('SELECT count(*) FROM nodes WHERE label = ?').pluck(),
        byFile: db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes WHERE fid = (SELECT fid FROM files WHERE path = ?)`),
        out: db.prepare(`SELECT ${LINK_COLUMNS} FROM links WHERE source = ?`),
        in: db.prepare(`SELECT ${LINK_COLUMNS} FROM links WHERE target = ?`),
        files: db.prepare('SELECT fid, path FROM files'),
        path: db.prepare('SELECT path FROM files WHERE fid = ?'),
        blob: db.prepare('SELECT data FROM blobs WHERE name = ?').pluck(),
      };
    } catch (err) {
      throw asShardError(err, this.tag, path);
    }
  }

  /** Open a shard read-only: header (format, application id) and meta checked; rows are read on demand. */
  static open(path: string, options: OpenShardOptions = {}): Shard {
    const tag = options.tag ?? tagOfPath(path);
    checkHeader(path, tag);
    const db = openDatabase(path, tag, true);
    try {
      const shard = new Shard(path, db, readMeta(db, tag, path));
      if (options.verify) shard.verify();
      return shard;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  get tag(): string {
    return this.meta.tag;
  }

  close(): void {
    this.db.close();
  }

  node(id: string): GraphNode | undefined {
    const rows = this.rows<NodeRow>('node', id);
    if (rows.length === 0) return undefined;
    const node = this.checkedNode(rows[0]!);
    if (rows[0]!.id !== id) this.corrupt(`the id index points node '${id}' at '${rows[0]!.id}'`);
    return node;
  }

  /** Nodes whose label is `label` (a symbol's name), in id order. */
  nodesByLabel(label: string): GraphNode[] {
    return this.nodeList('byLabel', label, (row) => row.label === label);
  }

  /** How many nodes have the label `label` (exact case; the label index only, no row is decoded). */
  labelCount(label: string): number {
    return Number(this.run(() => this.stmts.labelCount!.get(label)));
  }

  /** The nodes of one repo-relative file, in id order. */
  nodesInFile(file: string): GraphNode[] {
    return this.nodeList('byFile', file, (row) => this.pathOf(row.fid) === file);
  }

  /** Links from `id` (in the file order of the graph). */
  outLinks(id: string): GraphLink[] {
    return this.linkList('out', id, (row) => row.source === id);
  }

  /** Links into `id`. */
  inLinks(id: string): GraphLink[] {
    return this.linkList('in', id, (row) => row.target === id);
  }

  /** Both directions of a node's adjacency. */
  neighbours(id: string): { out: GraphLink[]; in: GraphLink[] } {
    return { out: this.outLinks(id), in: this.inLinks(id) };
  }

  /** Every file with records in the shard, sorted. */
  files(): string[] {
    return [...this.fileMap().values()].sort(byText);
  }

  /** The whole graph document, equal to the graph.json the shard was written from (records in its order). */
  document(): GraphDocument {
    const frame = this.frame();
    const nodeRows = this.run(() => this.db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes`).all() as NodeRow[]);
    const linkRows = this.run(() => this.db.prepare(`SELECT ${LINK_COLUMNS} FROM links`).all() as LinkRow[]);
    if (nodeRows.length !== this.meta.nodes || linkRows.length !== this.meta.links) this.corrupt(`${nodeRows.length} nodes and ${linkRows.length} links where its meta says ${this.meta.nodes} and ${this.meta.links}`);
    this.fileMap();
    frame.nodes = this.inOrder(nodeRows.map((row) => [row.nid, this.checkedNode(row)] as const), this.blob(ROWIDS_BLOB, 'rowids_crc'), 'node');
    frame.links = this.inOrder(linkRows.map((row) => [row.lid, this.checkedLink(row)] as const), this.blob(LINK_ROWIDS_BLOB, 'link_rowids_crc'), 'link');
    return frame;
  }

  /** Records by row number, in the order a row numbers blob lists them (each once). */
  private inOrder<T>(records: (readonly [number, T])[], order: Int32Array, what: string): T[] {
    const byRow = new Map(records);
    if (order.length !== byRow.size) this.corrupt(`its ${what} order lists ${order.length} rows where it has ${byRow.size}`);
    const out = new Array<T>(order.length);
    for (let i = 0; i < order.length; i++) {
      const record = byRow.get(order[i]!);
      if (record === undefined) this.corrupt(`its ${what} order names row ${order[i]}, which is not there (or twice)`);
      out[i] = record;
      byRow.delete(order[i]!);
    }
    return out;
  }

  /** Check every row's CRC, their sum and the counts against the meta table; throws CorruptShardError. */
  verify(): void {
    let sum = 0;
    let nodes = 0;
    let links = 0;
    const perFile = new Map<number, { nodes: number; links: number }>();
    const count = (file: number) => {
      let c = perFile.get(file);
      if (!c) perFile.set(file, (c = { nodes: 0, links: 0 }));
      return c;
    };
    this.run(() => {
      const communities = this.communities();
      this.frame();
      const listed = this.rowSet(ROWIDS_BLOB, 'rowids_crc', this.meta.nodes);
      const listedLinks = this.rowSet(LINK_ROWIDS_BLOB, 'link_rowids_crc', this.meta.links);
      for (const row of this.db.prepare(`SELECT ${NODE_COLUMNS} FROM nodes`).iterate() as IterableIterator<NodeRow>) {
        if (nodeCrc(row.nid, row.id, row.fid, row.label, row.kind, row.flags, row.json) !== row.crc) this.corrupt(`node row '${row.id}' fails its checksum`);
        if (!listed.delete(row.nid)) this.corrupt(`node row '${row.id}' is not in its row numbers blob`);
        if (communityInBlob(row.flags) && (communities[row.nid] ?? NO_COMMUNITY) === NO_COMMUNITY) this.corrupt(`node '${row.id}' has no community in its communities blob`);
        sum = addSum(sum, row.crc);
        nodes++;
        count(row.fid).nodes++;
      }
      if (listed.size) this.corrupt(`its row numbers blob names ${listed.size} rows that are not there`);
      for (const row of this.db.prepare(`SELECT ${LINK_COLUMNS} FROM links`).iterate() as IterableIterator<LinkRow>) {
        if (linkCrc(row.lid, row.fid, row.seq, row.source, row.target, row.relation, row.flags, row.json) !== row.crc) this.corrupt(`link row ${row.fid}#${row.seq} fails its checksum`);
        if (!listedLinks.delete(row.lid)) this.corrupt(`link row ${row.fid}#${row.seq} is not in its row numbers blob`);
        sum = addSum(sum, row.crc);
        links++;
        count(row.fid).links++;
      }
      if (listedLinks.size) this.corrupt(`its link row numbers blob names ${listedLinks.size} rows that are not there`);
      for (const row of this.db.prepare('SELECT fid, path, nodes, links FROM files').iterate() as IterableIterator<{ fid: number; path: string; nodes: number; links: number }>) {
        const c = perFile.get(row.fid);
        if (!c || c.nodes !== row.nodes || c.links !== row.links) this.corrupt(`the files table disagrees with the rows of '${row.path}'`);
        perFile.delete(row.fid);
      }
    });
    if (perFile.size) this.corrupt(`rows of ${perFile.size} files the files table does not list`);
    if (nodes !== this.meta.nodes || links !== this.meta.links) this.corrupt(`${nodes} nodes and ${links} links where its meta says ${this.meta.nodes} and ${this.meta.links}`);
    if (String(sum) !== this.raw.content_sum) this.corrupt('the sum of its row checksums differs from the one recorded');
  }

  private rows<T>(stmt: string, key: string): T[] {
    return this.run(() => this.stmts[stmt]!.all(key) as T[]);
  }

  private nodeList(stmt: string, key: string, matches: (row: NodeRow) => boolean): GraphNode[] {
    const rows = this.rows<NodeRow>(stmt, key).sort((a, b) => byText(a.id, b.id));
    return rows.map((row) => {
      const node = this.checkedNode(row);
      if (!matches(row)) this.corrupt(`an index points '${key}' at node '${row.id}'`);
      return node;
    });
  }

  private linkList(stmt: string, key: string, matches: (row: LinkRow) => boolean): GraphLink[] {
    const rows = this.rows<LinkRow>(stmt, key).sort((a, b) => byText(this.pathOf(a.fid), this.pathOf(b.fid)) || a.seq - b.seq);
    return rows.map((row) => {
      const link = this.checkedLink(row);
      if (!matches(row)) this.corrupt(`an index points '${key}' at link ${row.fid}#${row.seq}`);
      return link;
    });
  }

  private checkedNode(row: NodeRow): GraphNode {
    return nodeOfRow(row, this.pathOf(row.fid), this.communities()[row.nid] ?? NO_COMMUNITY) ?? this.corrupt(`node row '${row.id}' fails its checksum`);
  }

  /** Each node's community by nid (one blob, read once, its CRC checked). */
  private communities(): Int32Array {
    return (this.communityOf ??= this.blob(COMMUNITIES_BLOB, 'communities_crc'));
  }

  /** A row numbers blob as a set, checked to list `count` rows, each once. */
  private rowSet(name: string, crcKey: string, count: number): Set<number> {
    const rows = this.blob(name, crcKey);
    if (rows.length !== count) this.corrupt(`its ${name} blob lists ${rows.length} rows where its meta says ${count}`);
    const set = new Set<number>(rows);
    if (set.size !== rows.length) this.corrupt(`its ${name} blob names a row twice`);
    return set;
  }

  private blob(name: string, crcKey: string): Int32Array {
    return blobInt32(this.bytes(name, crcKey)) ?? this.corrupt(`its ${name} blob is not a list of numbers`);
  }

  private bytes(name: string, crcKey: string): Buffer {
    const bytes = this.run(() => this.stmts.blob!.get(name)) as Buffer | undefined;
    if (!bytes) return this.corrupt(`its ${name} blob is missing`);
    if (String(crc32(bytes)) !== this.raw[crcKey]) this.corrupt(`its ${name} blob fails its checksum`);
    return bytes;
  }

  /** The document without its records (its CRC checked). */
  private frame(): GraphDocument {
    try {
      return JSON.parse(this.bytes(FRAME_BLOB, 'frame_crc').toString('utf8')) as GraphDocument;
    } catch (err) {
      if (err instanceof CorruptShardError) throw err;
      return this.corrupt('its frame is not JSON');
    }
  }

  private checkedLink(row: LinkRow): GraphLink {
    return linkOfRow(row, this.pathOf(row.fid)) ?? this.corrupt(`link row ${this.pathOf(row.fid)}#${row.seq} fails its checksum`);
  }

  /** File number -> path (the files table, read once). */
  private fileMap(): Map<number, string> {
    if (!this.allPaths) {
      for (const r of this.run(() => this.stmts.files!.all() as { fid: number; path: string }[])) this.paths.set(r.fid, r.path);
      this.allPaths = true;
    }
    return this.paths;
  }

  /** The path of file number `fid` (looked up one at a time: a query reads few files). */
  private pathOf(fid: number): string {
    let path = this.paths.get(fid);
    if (path === undefined && !this.allPaths) {
      path = (this.run(() => this.stmts.path!.get(fid)) as { path: string } | undefined)?.path;
      if (path !== undefined) this.paths.set(fid, path);
    }
    return path ?? this.corrupt(`a row names file number ${fid}, which the files table does not list`);
  }

  private run<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      throw asShardError(err, this.tag, this.path);
    }
  }

  private corrupt(what: string): never {
    throw new CorruptShardError(this.tag, this.path, `Shard '${this.tag}' is corrupt (${this.path}): ${what}; rebuild it with 'synaptic migrate'`);
  }
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
