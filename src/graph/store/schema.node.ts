import Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The shard store's on-disk format (docs/store.md). A shard is one SQLite file holding one member's
 * graph: its records as rows (each with a CRC-32 over its bytes), the indexes the query layer
 * reads through (nodes by id, label, kind and file; links by source and by target: adjacency both
 * ways), three blobs (each node's community by row number; the row numbers of the nodes and of
 * the links in the graph's order; the document frame), a meta table (format, tag, counts, the sum of every row's
 * CRC, the blobs' CRCs and the meta table's own CRC). SQLite was chosen over LMDB by measurement
 * (docs/store.md).
 */

/** Written to `PRAGMA user_version`; a shard with a higher number is refused (a newer synaptic wrote it). */
export const SHARD_FORMAT = 1;
/** `PRAGMA application_id` ('SYNS'): a SQLite file that is not a shard is named as such. */
export const SHARD_APPLICATION_ID = 0x53594e53;
import { SHARD_FILE } from './names.ts';

export { SHARD_FILE };

export const SHARD_DDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files (fid INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, nodes INTEGER NOT NULL, links INTEGER NOT NULL);
CREATE TABLE nodes (
  nid INTEGER PRIMARY KEY, id TEXT NOT NULL, fid INTEGER NOT NULL, label TEXT NOT NULL, kind TEXT NOT NULL,
  flags INTEGER NOT NULL, json TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE links (
  lid INTEGER PRIMARY KEY, fid INTEGER NOT NULL, seq INTEGER NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, relation TEXT NOT NULL,
  flags INTEGER NOT NULL, json TEXT NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE blobs (name TEXT PRIMARY KEY, data BLOB NOT NULL);
`;

/** Int32 per nid (little-endian): the node's community, NO_COMMUNITY where none (rows.node.ts). */
export const COMMUNITIES_BLOB = 'communities';
/** Int32 per node in the graph's order: its nid (the document's order; an update maps kept records to their rows by it). */
export const ROWIDS_BLOB = 'rowids';
/** Int32 per link in the graph's order: its lid. */
export const LINK_ROWIDS_BLOB = 'link_rowids';
/** The document without its records (graph meta, hazards...) as UTF-8 JSON: read only by Shard.document(), written only when it changed. */
export const FRAME_BLOB = 'frame';

/** Created after a full write's bulk insert (faster than maintaining them row by row). */
export const SHARD_INDEXES = `
CREATE UNIQUE INDEX nodes_id ON nodes (id);
CREATE INDEX nodes_file ON nodes (fid);
CREATE INDEX nodes_label ON nodes (label);
CREATE INDEX nodes_kind ON nodes (kind);
CREATE INDEX links_file ON links (fid, seq);
CREATE INDEX links_source ON links (source);
CREATE INDEX links_target ON links (target);
`;

/** Any problem with a shard file; `tag` names the member. */
export class ShardError extends Error {
  override name = 'ShardError';
  constructor(readonly tag: string, readonly path: string, message: string) {
    super(message);
  }
}

/** The shard's bytes do not check out (a row's CRC, the meta CRC, counts, SQLite's own structure). */
export class CorruptShardError extends ShardError {
  override name = 'CorruptShardError';
}

/** Written by a newer synaptic: a format this one cannot read. */
export class ShardVersionError extends ShardError {
  override name = 'ShardVersionError';
}

/** The tag to name in an error before the shard's own tag could be read. */
export function tagOfPath(path: string): string {
  const parts = path.split(/[\\/]/);
  const name = parts.pop() ?? path;
  // <member>/synaptic-out/graph.shard: the member folder's name
  if (name === SHARD_FILE) {
    const out = parts.pop();
    const member = parts.pop();
    return (out === 'synaptic-out' ? member : out) ?? name;
  }
  return name.replace(/\.shard$/, '');
}

/**
 * The format and application id from the file's SQLite header (bytes 60 and 68), read before SQLite
 * opens it: a newer format is refused without touching the file, a non-SQLite file is named corrupt.
 */
export function readHeader(path: string, tag: string): { format: number; applicationId: number } {
  const header = Buffer.alloc(100);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new ShardError(tag, path, `Cannot open shard '${tag}' (${path}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') {
    throw new CorruptShardError(tag, path, `Shard '${tag}' is corrupt (${path}): not a SQLite file (damaged header); rebuild it with 'synaptic migrate' or 'synaptic extract'`);
  }
  return { format: header.readUInt32BE(60), applicationId: header.readUInt32BE(68) };
}

/** Refuse a header that is not a shard of a format this synaptic reads. */
export function checkHeader(path: string, tag: string): void {
  const { format, applicationId } = readHeader(path, tag);
  if (applicationId !== SHARD_APPLICATION_ID) {
    throw new CorruptShardError(tag, path, `Shard '${tag}' is corrupt or not a synaptic shard (${path}): application id ${applicationId}; rebuild it with 'synaptic migrate'`);
  }
  if (format > SHARD_FORMAT) {
    throw new ShardVersionError(tag, path, `Shard '${tag}' (${path}) was written by a newer synaptic (shard format ${format}; this one reads up to ${SHARD_FORMAT}): upgrade synaptic, or rebuild the shard with this one ('synaptic migrate')`);
  }
  if (format < 1) throw new CorruptShardError(tag, path, `Shard '${tag}' is corrupt (${path}): no shard format in its header; rebuild it with 'synaptic migrate'`);
}

/** Open a SQLite handle on a shard; SQLite's own errors (malformed pages) become CorruptShardError. */
export function openDatabase(path: string, tag: string, readonly: boolean): Database.Database {
  try {
    const db = new Database(path, { readonly, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    // Reads through a memory map: no copy into SQLite's page cache, pages shared between processes.
    if (readonly) db.pragma('mmap_size = 1073741824');
    return db;
  } catch (err) {
    throw asShardError(err, tag, path);
  }
}

/** A SQLite error on a shard as a ShardError naming the member. */
export function asShardError(err: unknown, tag: string, path: string): Error {
  if (err instanceof ShardError) return err;
  const code = (err as { code?: string }).code ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB' || /malformed|not a database/i.test(message)) {
    return new CorruptShardError(tag, path, `Shard '${tag}' is corrupt (${path}): ${message}; rebuild it with 'synaptic migrate'`);
  }
  return new ShardError(tag, path, `Shard '${tag}' (${path}): ${message}`);
}
