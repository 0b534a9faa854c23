import Database from 'better-sqlite3';
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GraphDocument } from '../model.ts';
import { crc32 } from 'node:zlib';
import { addSum, blobCommunity, blobInt32, frameOf, int32Blob, linkRow, metaCrc, NO_COMMUNITY, nodeRow, subSum, type RecordForm } from './rows.node.ts';
import { checkHeader, COMMUNITIES_BLOB, FRAME_BLOB, LINK_ROWIDS_BLOB, openDatabase, ROWIDS_BLOB, SHARD_APPLICATION_ID, SHARD_DDL, SHARD_FORMAT, SHARD_INDEXES, ShardVersionError } from './schema.node.ts';
import { readMeta } from './read.node.ts';

/** What a write records about the graph besides its records. */
export interface ShardInfo {
  /** The member's tag (named in every error about the shard). */
  tag: string;
  /** Identifies the graph the shard holds (an update is incremental only from the graph it holds). */
  graphKey?: string;
  /** The records' stored form (key order); default: as given. */
  form?: RecordForm;
  /** Test hook: throw after this many rows were inserted (a crash mid-write). */
  failAfterRows?: number;
}

/** Per record of the new graph, its index in the previous graph when it is the same record (-1: new or changed). */
export interface ShardReuse {
  nodes: Int32Array;
  links: Int32Array;
  previousCommunity: readonly (number | undefined)[];
  /** The graphKey of the graph those indexes refer to. */
  previousKey: string;
}

export interface ShardWrite {
  mode: 'full' | 'incremental';
  /** Files whose rows were rewritten. */
  files: number;
  /** Nodes whose community number changed (incremental: the communities blob is written whole). */
  communities: number;
  generation: number;
  ms: number;
  /** Why an update wrote the whole shard. */
  reason?: string;
}

const TEMP = (path: string): string => `${path}.tmp-${process.pid}-${Date.now()}`;

/** Temp files of full writes that died before their rename (their process is gone). */
function removeDeadTemps(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid === process.pid || !alive(pid)) rmSync(join(dirname(path), name), { force: true });
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Write the whole shard: into a temp file (one transaction, no journal), then renamed over the old
 * one. A crash before the rename leaves the old shard as it was (and a temp file, which the next
 * write of the folder removes). Not fsynced, like every other output (docs/store.md).
 */
export function writeShard(path: string, doc: GraphDocument, info: ShardInfo, generation = 1): ShardWrite {
  const started = performance.now();
  mkdirSync(dirname(path), { recursive: true });
  removeDeadTemps(path);
  const tmp = TEMP(path);
  try {
    const db = new Database(tmp);
    try {
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.pragma(`application_id = ${SHARD_APPLICATION_ID}`);
      db.pragma(`user_version = ${SHARD_FORMAT}`);
      db.exec(SHARD_DDL);
      db.transaction(() => {
        const fids = new Map<string, number>();
        const rows = { nids: new Int32Array(doc.nodes.length), lids: new Int32Array(doc.links.length) };
        let nid = 0;
        let lid = 0;
        const sum = insertRecords(db, doc, fids, null, rows, { node: () => ++nid, link: () => ++lid }, info);
        writeBlobsAndMeta(db, doc, info, sum, generation, fids.size, rows, nid, false);
      })();
      db.exec(SHARD_INDEXES);
    } finally {
      db.close();
    }
    // A journal left by a crashed update of the old file must not be replayed onto the new one.
    rmSync(`${path}-journal`, { force: true });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return { mode: 'full', files: -1, communities: 0, generation, ms: performance.now() - started };
}

/**
 * Bring the shard to `doc`. With `reuse` from the graph the shard holds (same graphKey), only the
 * rows of files with a changed record are rewritten and the three blobs (communities, the row
 * numbers in the graph's order) replaced, in one transaction (a crash rolls it back);
 * otherwise (or when the shard cannot be read: damaged) the whole shard is written again. A shard
 * of a newer format is refused (ShardVersionError), not overwritten.
 */
export function updateShard(path: string, doc: GraphDocument, info: ShardInfo, reuse: ShardReuse | null): ShardWrite {
  const started = performance.now();
  const lap = debugLap();
  let db: Database.Database | null = null;
  let generation = 1;
  let reason: string;
  try {
    checkHeader(path, info.tag);
    db = openDatabase(path, info.tag, false);
    // Process-crash safe (the rollback journal is written before any page); like the other outputs, not fsynced.
    db.pragma('synchronous = OFF');
    const meta = readMeta(db, info.tag, path);
    generation = Number(meta.generation) + 1;
    if (!reuse) reason = 'no reusable rows';
    else if (meta.graph_key !== reuse.previousKey) reason = 'the shard holds another graph than the previous one';
    else if (Number(meta.nodes) !== reuse.previousCommunity.length) reason = 'the shard holds another number of nodes than the previous graph';
    else {
      lap('open');
      const done = incremental(db, doc, info, reuse, meta, generation);
      if (typeof done === 'string') reason = done;
      else {
        db.close();
        return { ...done, generation, ms: performance.now() - started };
      }
    }
  } catch (err) {
    if (err instanceof ShardVersionError) {
      db?.close();
      throw err; // a newer synaptic's shard is not overwritten
    }
    reason = err instanceof Error ? err.message : String(err);
  }
  try {
    db?.close();
  } catch {
    // closed or unusable: the full write replaces it
  }
  return { ...writeShard(path, doc, info, generation), reason, ms: performance.now() - started };
}

type FileCounts = { nodes: number; links: number };

/** The incremental write, or why it cannot be done (before anything is written). */
function incremental(db: Database.Database, doc: GraphDocument, info: ShardInfo, reuse: ShardReuse, meta: Record<string, string>, generation: number): Omit<ShardWrite, 'ms' | 'generation'> | string {
  const lap = debugLap();
  const stored = new Map<string, FileCounts & { fid: number }>();
  for (const row of db.prepare('SELECT fid, path, nodes, links FROM files').all() as { fid: number; path: string; nodes: number; links: number }[]) stored.set(row.path, row);
  lap('plan: files table');
  const blob = db.prepare('SELECT data FROM blobs WHERE name = ?').pluck();
  const checked = (name: string, crc: string | undefined): Int32Array | null => {
    const bytes = blob.get(name) as Buffer | undefined;
    return bytes && String(crc32(bytes)) === crc ? blobInt32(bytes) : null;
  };
  const previousNids = checked(ROWIDS_BLOB, meta.rowids_crc);
  const previousLids = checked(LINK_ROWIDS_BLOB, meta.link_rowids_crc);
  if (!previousNids || previousNids.length !== reuse.previousCommunity.length || !previousLids || previousLids.length !== Number(meta.links)) {
    return 'its row numbers blobs are missing or fail their checksums';
  }
  lap('plan: row-number blobs');
  // Per file: its record counts, and whether any record changed (or moved within the file).
  // (and where its records are: [start, end) runs of the graph's order, so the insert visits only its files')
  const seen = new Map<string, FileCounts & FileRuns & { dirty: boolean; lastLink: number }>();
  const stat = (file: string) => {
    let s = seen.get(file);
    if (!s) seen.set(file, (s = { nodes: 0, links: 0, dirty: false, lastLink: -1, nodeRuns: [], linkRuns: [] }));
    return s;
  };
  let runStart = 0;
  let communities = 0;
  // Records come mostly grouped by file (ids and sources start with the path): look a file up when it changes.
  let lastFile: unknown = NaN;
  let s: ReturnType<typeof stat> | undefined;
  for (let i = 0; i < doc.nodes.length; i++) {
    const node = doc.nodes[i]!;
    if (node.source_file !== lastFile || !s) {
      s?.nodeRuns.push(runStart, i);
      s = stat(fileOf((lastFile = node.source_file)));
      runStart = i;
    }
    s.nodes++;
    const was = reuse.nodes[i]!;
    if (was < 0) s.dirty = true;
    else if (node.community !== reuse.previousCommunity[was]) {
      // a number the blob holds before and after: only the blob changes; else the record is written again
      if (blobCommunity(node.community) && blobCommunity(reuse.previousCommunity[was])) communities++;
      else s.dirty = true;
    }
  }
  s?.nodeRuns.push(runStart, doc.nodes.length);
  lap('plan: nodes pass');
  s = undefined;
  lastFile = NaN;
  for (let i = 0; i < doc.links.length; i++) {
    const link = doc.links[i]!;
    if (link.source_file !== lastFile || !s) {
      s?.linkRuns.push(runStart, i);
      s = stat(fileOf((lastFile = link.source_file)));
      runStart = i;
    }
    s.links++;
    const was = reuse.links[i]!;
    // the same records in the same order as before (strictly increasing: a duplicate record is not two)
    if (was < 0 || was <= s.lastLink) s.dirty = true;
    else s.lastLink = was;
  }
  s?.linkRuns.push(runStart, doc.links.length);
  lap('plan: links pass');
  const rewrite = new Set<string>();
  for (const [file, f] of seen) {
    const before = stored.get(file);
    if (f.dirty || !before || before.nodes !== f.nodes || before.links !== f.links) rewrite.add(file);
  }
  const gone = [...stored.keys()].filter((file) => !seen.has(file));
  let maxNid = 0;
  for (let i = 0; i < previousNids.length; i++) if (previousNids[i]! > maxNid) maxNid = previousNids[i]!;
  let maxLid = 0;
  for (let i = 0; i < previousLids.length; i++) if (previousLids[i]! > maxLid) maxLid = previousLids[i]!;
  // (freed numbers are used again, so this takes a graph that shrank a lot)
  if (maxNid > 2 * doc.nodes.length + 1024 || maxLid > 2 * doc.links.length + 1024) return 'its row numbers are sparse';
  lap('plan: rest');
  db.transaction(() => {
    let sum = Number(meta.content_sum);
    const nodeRows = db.prepare('SELECT nid, crc FROM nodes WHERE fid = ?').raw();
    const linkRows = db.prepare('SELECT lid, crc FROM links WHERE fid = ?').raw();
    const dropNodes = db.prepare('DELETE FROM nodes WHERE fid = ?');
    const dropLinks = db.prepare('DELETE FROM links WHERE fid = ?');
    const dropFile = db.prepare('DELETE FROM files WHERE fid = ?');
    // Row numbers of the rewritten files' nodes are used again (the blob stays as long as the graph).
    const free: number[] = [];
    const freeLinks: number[] = [];
    for (const file of [...gone, ...rewrite]) {
      const fid = stored.get(file)?.fid;
      if (fid === undefined) continue;
      for (const [nid, crc] of nodeRows.all(fid) as [number, number][]) {
        sum = subSum(sum, crc);
        free.push(nid);
      }
      for (const [lid, crc] of linkRows.all(fid) as [number, number][]) {
        sum = subSum(sum, crc);
        freeLinks.push(lid);
      }
      dropNodes.run(fid);
      dropLinks.run(fid);
      if (!seen.has(file)) dropFile.run(fid);
    }
    free.sort((a, b) => b - a);
    freeLinks.sort((a, b) => b - a);
    const fids = new Map<string, number>();
    for (const [file, row] of stored) if (seen.has(file)) fids.set(file, row.fid);
    lap('drop');
    const rows = { nids: new Int32Array(doc.nodes.length), lids: new Int32Array(doc.links.length) };
    sum = insertFileRecords(db, doc, fids, rewrite, seen, rows, { node: () => free.pop() ?? ++maxNid, link: () => freeLinks.pop() ?? ++maxLid }, info, sum);
    lap('insert');
    // The kept records' rows stay where they were.
    const { nids, lids } = rows;
    for (let i = 0; i < nids.length; i++) {
      if (nids[i] !== 0) continue;
      const was = reuse.nodes[i]!;
      if (was < 0) throw new Error(`node ${doc.nodes[i]!.id} has no row`);
      nids[i] = previousNids[was]!;
    }
    for (let i = 0; i < lids.length; i++) {
      if (lids[i] !== 0) continue;
      const was = reuse.links[i]!;
      if (was < 0) throw new Error(`link ${i} has no row`);
      lids[i] = previousLids[was]!;
    }
    writeBlobsAndMeta(db, doc, info, sum, generation, seen.size, rows, maxNid, true, lap);
    lap('meta');
  })();
  lap('commit');
  return { mode: 'incremental', files: rewrite.size + gone.length, communities };
}

const fileOf = (file: unknown): string => (typeof file === 'string' ? file : file === undefined || file === null ? '' : String(file));

/**
 * Insert the records (of the `only` files, else all) and their files rows; `fids` holds the file
 * numbers already in the shard (new files get the next ones); each inserted record's row number
 * (from `next`) goes to `rows` at its index. Returns `sum` plus the rows' CRCs.
 */
function insertRecords(
  db: Database.Database, doc: GraphDocument, fids: Map<string, number>, only: Set<string> | null,
  rows: RowNumbers, next: { node: () => number; link: () => number }, info: ShardInfo, sum = 0,
): number {
  const { form, failAfterRows: failAfter } = info;
  const addNode = db.prepare('INSERT INTO nodes (nid, id, fid, label, kind, flags, json, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const addLink = db.prepare('INSERT INTO links (lid, fid, seq, source, target, relation, flags, json, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  let nextFid = 1;
  for (const fid of fids.values()) nextFid = Math.max(nextFid, fid + 1);
  const counts = new Map<string, FileCounts & { fid: number }>();
  const count = (file: string) => {
    let c = counts.get(file);
    if (!c) {
      let fid = fids.get(file);
      if (fid === undefined) fids.set(file, (fid = nextFid++));
      counts.set(file, (c = { nodes: 0, links: 0, fid }));
    }
    return c;
  };
  let written = 0;
  const tick = () => {
    if (failAfter !== undefined && ++written > failAfter) throw new Error(`test: write stopped after ${failAfter} rows`);
  };
  // (records come mostly grouped by file: look a file up when it changes)
  let lastFile: unknown = NaN;
  let c: ReturnType<typeof count> | undefined;
  let wanted = false;
  const at = (file: unknown): void => {
    const path = fileOf((lastFile = file));
    c = count(path);
    wanted = !only || only.has(path);
  };
  for (let i = 0; i < doc.nodes.length; i++) {
    const node = doc.nodes[i]!;
    if (node.source_file !== lastFile || !c) at(node.source_file);
    c!.nodes++;
    if (!wanted) continue;
    const r = nodeRow(node, c!.fid, next.node(), form);
    addNode.run(r.nid, r.id, r.fid, r.label, r.kind, r.flags, r.json, r.crc);
    rows.nids[i] = r.nid;
    sum = addSum(sum, r.crc);
    tick();
  }
  lastFile = NaN;
  for (let i = 0; i < doc.links.length; i++) {
    const link = doc.links[i]!;
    if (link.source_file !== lastFile || !c) at(link.source_file);
    const seq = c!.links++;
    if (!wanted) continue;
    const r = linkRow(link, seq, c!.fid, next.link(), form);
    addLink.run(r.lid, r.fid, r.seq, r.source, r.target, r.relation, r.flags, r.json, r.crc);
    rows.lids[i] = r.lid;
    sum = addSum(sum, r.crc);
    tick();
  }
  const putFile = db.prepare('INSERT INTO files (fid, path, nodes, links) VALUES (?, ?, ?, ?) ON CONFLICT (fid) DO UPDATE SET nodes = excluded.nodes, links = excluded.links');
  for (const [file, n] of counts) if (!only || only.has(file)) putFile.run(n.fid, file, n.nodes, n.links);
  return sum;
}

/** Where a file's records are in the graph's order: [start, end) pairs. */
interface FileRuns {
  nodeRuns: number[];
  linkRuns: number[];
}

/** insertRecords for the `only` files of an update, visiting only their records (`runs`, from the plan). */
function insertFileRecords(
  db: Database.Database, doc: GraphDocument, fids: Map<string, number>, only: Set<string>, runs: Map<string, FileRuns>,
  rows: RowNumbers, next: { node: () => number; link: () => number }, info: ShardInfo, sum: number,
): number {
  const addNode = db.prepare('INSERT INTO nodes (nid, id, fid, label, kind, flags, json, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const addLink = db.prepare('INSERT INTO links (lid, fid, seq, source, target, relation, flags, json, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const putFile = db.prepare('INSERT INTO files (fid, path, nodes, links) VALUES (?, ?, ?, ?) ON CONFLICT (fid) DO UPDATE SET nodes = excluded.nodes, links = excluded.links');
  let nextFid = 1;
  for (const fid of fids.values()) nextFid = Math.max(nextFid, fid + 1);
  let written = 0;
  const tick = () => {
    if (info.failAfterRows !== undefined && ++written > info.failAfterRows) throw new Error(`test: write stopped after ${info.failAfterRows} rows`);
  };
  for (const file of only) {
    const at = runs.get(file);
    if (!at) continue;
    let fid = fids.get(file);
    if (fid === undefined) fids.set(file, (fid = nextFid++));
    let nodes = 0;
    let links = 0;
    for (let k = 0; k < at.nodeRuns.length; k += 2) {
      for (let i = at.nodeRuns[k]!; i < at.nodeRuns[k + 1]!; i++) {
        const r = nodeRow(doc.nodes[i]!, fid, next.node(), info.form);
        addNode.run(r.nid, r.id, r.fid, r.label, r.kind, r.flags, r.json, r.crc);
        rows.nids[i] = r.nid;
        sum = addSum(sum, r.crc);
        nodes++;
        tick();
      }
    }
    for (let k = 0; k < at.linkRuns.length; k += 2) {
      for (let i = at.linkRuns[k]!; i < at.linkRuns[k + 1]!; i++) {
        const r = linkRow(doc.links[i]!, links++, fid, next.link(), info.form);
        addLink.run(r.lid, r.fid, r.seq, r.source, r.target, r.relation, r.flags, r.json, r.crc);
        rows.lids[i] = r.lid;
        sum = addSum(sum, r.crc);
        tick();
      }
    }
    putFile.run(fid, file, nodes, links);
  }
  return sum;
}

/** Each record's row number, in the graph's order. */
interface RowNumbers {
  nids: Int32Array;
  lids: Int32Array;
}

/**
 * The blobs (communities by nid; nids and lids in the graph's order; the frame, which an update
 * writes only when it changed) and the meta table, with their CRCs.
 */
function writeBlobsAndMeta(db: Database.Database, doc: GraphDocument, info: ShardInfo, sum: number, generation: number, files: number, rows: RowNumbers, maxNid: number, update: boolean, lap: (label: string) => void = () => {}): void {
  const { nids } = rows;
  const communities = new Int32Array(maxNid + 1).fill(NO_COMMUNITY);
  for (let i = 0; i < doc.nodes.length; i++) {
    const community = doc.nodes[i]!.community;
    if (blobCommunity(community)) communities[nids[i]!] = community;
  }
  const communityBytes = int32Blob(communities);
  const rowidBytes = int32Blob(nids);
  const linkRowidBytes = int32Blob(rows.lids);
  const putBlob = db.prepare('INSERT INTO blobs (name, data) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET data = excluded.data');
  putBlob.run(COMMUNITIES_BLOB, communityBytes);
  putBlob.run(ROWIDS_BLOB, rowidBytes);
  putBlob.run(LINK_ROWIDS_BLOB, linkRowidBytes);
  lap('blobs: communities, row numbers');
  const frame = Buffer.from(frameOf(doc, info.form));
  const before = update ? (db.prepare('SELECT data FROM blobs WHERE name = ?').pluck().get(FRAME_BLOB) as Buffer | undefined) : undefined;
  if (!before || !before.equals(frame)) putBlob.run(FRAME_BLOB, frame);
  lap('blobs: frame');
  const meta: Record<string, string> = {
    format: String(SHARD_FORMAT),
    tag: info.tag,
    graph_key: info.graphKey ?? '',
    generation: String(generation),
    written_at: new Date().toISOString(),
    nodes: String(doc.nodes.length),
    links: String(doc.links.length),
    files: String(files),
    content_sum: String(sum),
    communities_crc: String(crc32(communityBytes)),
    rowids_crc: String(crc32(rowidBytes)),
    link_rowids_crc: String(crc32(linkRowidBytes)),
    frame_crc: String(crc32(frame)),
  };
  meta.meta_crc = String(metaCrc(meta));
  db.prepare('DELETE FROM meta').run();
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(meta)) put.run(key, value);
}

/** SYNAPTIC_DEBUG=steps: the wall and CPU time of each step of an incremental write (open, plan's parts, drop, insert, blobs, meta, commit), on stderr. */
function debugLap(): (label: string) => void {
  if (process.env.SYNAPTIC_DEBUG !== 'steps') return () => {};
  let last = performance.now();
  let cpu = process.cpuUsage();
  return (label) => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    console.error(`synaptic: shard ${label}: ${(now - last).toFixed(0)} ms (CPU ${((used.user + used.system) / 1000).toFixed(0)} ms)`);
    last = now;
    cpu = process.cpuUsage();
  };
}
