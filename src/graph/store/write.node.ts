import Database from 'better-sqlite3';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GraphDocument } from '../model.ts';
import { addSum, frameOf, linkRow, linksByFile, metaCrc, nodeCrc, nodeRow, nodesById, subSum } from './rows.node.ts';
import { checkHeader, openDatabase, SHARD_APPLICATION_ID, SHARD_DDL, SHARD_FORMAT, SHARD_INDEXES } from './schema.node.ts';
import { readMeta } from './read.node.ts';

/** What a write records about the graph besides its records. */
export interface ShardInfo {
  /** The member's tag (named in every error about the shard). */
  tag: string;
  /** Identifies the graph the shard holds (an update is incremental only from the graph it holds). */
  graphKey?: string;
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
  /** Node rows whose community column changed (incremental). */
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
 * Write the whole shard: into a temp file (one transaction, no journal), synced, then renamed over
 * the old one. A crash before the rename leaves the old shard as it was (and a temp file, which
 * the next write of the folder removes).
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
        const sum = insertRecords(db, doc, fids, null, info.failAfterRows);
        writeMeta(db, doc, info, sum, generation, fids.size);
      })();
      db.exec(SHARD_INDEXES);
    } finally {
      db.close();
    }
    const fd = openSync(tmp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
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
 * Bring the shard to `doc`. With `reuse` from the graph the shard holds (same graphKey, both in the
 * extractor's canonical order), only the rows of files with a changed record are rewritten and
 * renumbered communities updated in place, in one transaction (a crash rolls it back); otherwise
 * (or when the shard cannot be read) the whole shard is written again.
 */
export function updateShard(path: string, doc: GraphDocument, info: ShardInfo, reuse: ShardReuse | null): ShardWrite {
  const started = performance.now();
  let db: Database.Database | null = null;
  let generation = 1;
  let reason: string;
  try {
    checkHeader(path, info.tag);
    db = openDatabase(path, info.tag, false);
    const meta = readMeta(db, info.tag, path);
    generation = Number(meta.generation) + 1;
    if (!reuse) reason = 'no reusable rows';
    else if (meta.graph_key !== reuse.previousKey) reason = 'the shard holds another graph than the previous one';
    else if (meta.node_order !== 'id' || meta.link_order !== 'file' || !nodesById(doc.nodes) || !linksByFile(doc.links)) reason = 'records not in canonical order';
    else {
      const done = incremental(db, doc, info, reuse, meta, generation);
      db.close();
      return { ...done, generation, ms: performance.now() - started };
    }
  } catch (err) {
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

function incremental(db: Database.Database, doc: GraphDocument, info: ShardInfo, reuse: ShardReuse, meta: Record<string, string>, generation: number): Omit<ShardWrite, 'ms' | 'generation'> {
  const lap = debugLap();
  const stored = new Map<string, FileCounts & { fid: number }>();
  for (const row of db.prepare('SELECT fid, path, nodes, links FROM files').all() as { fid: number; path: string; nodes: number; links: number }[]) stored.set(row.path, row);
  // Per file: its record counts, and whether any record changed (or moved within the file).
  const seen = new Map<string, FileCounts & { dirty: boolean; lastLink: number }>();
  const stat = (file: string) => {
    let s = seen.get(file);
    if (!s) seen.set(file, (s = { nodes: 0, links: 0, dirty: false, lastLink: -1 }));
    return s;
  };
  const renumbered: number[] = [];
  for (let i = 0; i < doc.nodes.length; i++) {
    const node = doc.nodes[i]!;
    const s = stat(fileOf(node.source_file));
    s.nodes++;
    const was = reuse.nodes[i]!;
    if (was < 0) s.dirty = true;
    else if (node.community !== reuse.previousCommunity[was]) {
      if (Number.isInteger(node.community) && Number.isInteger(reuse.previousCommunity[was])) renumbered.push(i);
      else s.dirty = true; // the placeholder comes or goes: the record is written again
    }
  }
  for (let i = 0; i < doc.links.length; i++) {
    const s = stat(fileOf(doc.links[i]!.source_file));
    s.links++;
    const was = reuse.links[i]!;
    // the same records in the same order as before (strictly increasing: a duplicate record is not two)
    if (was < 0 || was <= s.lastLink) s.dirty = true;
    else s.lastLink = was;
  }
  const rewrite = new Set<string>();
  for (const [file, s] of seen) {
    const before = stored.get(file);
    if (s.dirty || !before || before.nodes !== s.nodes || before.links !== s.links) rewrite.add(file);
  }
  const gone = [...stored.keys()].filter((file) => !seen.has(file));
  lap('plan');
  let communities = 0;
  db.transaction(() => {
    let sum = Number(meta.content_sum);
    const nodeSums = db.prepare('SELECT coalesce(sum(crc), 0) AS s FROM nodes WHERE fid = ?');
    const linkSums = db.prepare('SELECT coalesce(sum(crc), 0) AS s FROM links WHERE fid = ?');
    const dropNodes = db.prepare('DELETE FROM nodes WHERE fid = ?');
    const dropLinks = db.prepare('DELETE FROM links WHERE fid = ?');
    const dropFile = db.prepare('DELETE FROM files WHERE fid = ?');
    for (const file of [...gone, ...rewrite]) {
      const fid = stored.get(file)?.fid;
      if (fid === undefined) continue;
      sum = subSum(sum, Number((nodeSums.get(fid) as { s: number }).s) % 2 ** 32);
      sum = subSum(sum, Number((linkSums.get(fid) as { s: number }).s) % 2 ** 32);
      dropNodes.run(fid);
      dropLinks.run(fid);
      if (gone.includes(file)) dropFile.run(fid);
    }
    const fids = new Map<string, number>();
    for (const [file, row] of stored) if (seen.has(file)) fids.set(file, row.fid);
    lap('drop');
    sum = insertRecords(db, doc, fids, rewrite, info.failAfterRows, sum);
    lap('insert');
    const read = db.prepare('SELECT jcrc, crc FROM nodes WHERE id = ?');
    const set = db.prepare('UPDATE nodes SET community = ?, crc = ? WHERE id = ?');
    for (const i of renumbered) {
      const node = doc.nodes[i]!;
      if (rewrite.has(fileOf(node.source_file))) continue;
      const row = read.get(node.id) as { jcrc: number; crc: number } | undefined;
      if (!row) throw new Error(`node ${node.id} missing from the shard`);
      const crc = nodeCrc(row.jcrc, node.community as number);
      set.run(node.community, crc, node.id);
      sum = addSum(subSum(sum, row.crc), crc);
      communities++;
    }
    lap(`communities ${communities}`);
    writeMeta(db, doc, info, sum, generation, seen.size);
    lap('meta');
  })();
  lap('commit');
  return { mode: 'incremental', files: rewrite.size + gone.length, communities };
}

const fileOf = (file: unknown): string => (typeof file === 'string' ? file : file === undefined || file === null ? '' : String(file));

/**
 * Insert the records (of the `only` files, else all) and their files rows; `fids` holds the file
 * numbers already in the shard (new files get the next ones). Returns `sum` plus the rows' CRCs.
 */
function insertRecords(db: Database.Database, doc: GraphDocument, fids: Map<string, number>, only: Set<string> | null, failAfter: number | undefined, sum = 0): number {
  const canonical = nodesById(doc.nodes) && linksByFile(doc.links);
  const addNode = db.prepare('INSERT INTO nodes (id, fid, label, kind, community, ord, flags, json, jcrc, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const addLink = db.prepare('INSERT INTO links (fid, seq, source, target, relation, flags, json, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  let next = 1;
  for (const fid of fids.values()) next = Math.max(next, fid + 1);
  const counts = new Map<string, FileCounts & { fid: number }>();
  const count = (file: string) => {
    let c = counts.get(file);
    if (!c) {
      let fid = fids.get(file);
      if (fid === undefined) fids.set(file, (fid = next++));
      counts.set(file, (c = { nodes: 0, links: 0, fid }));
    }
    return c;
  };
  let rows = 0;
  const tick = () => {
    if (failAfter !== undefined && ++rows > failAfter) throw new Error(`test: write stopped after ${failAfter} rows`);
  };
  for (let i = 0; i < doc.nodes.length; i++) {
    const node = doc.nodes[i]!;
    const file = fileOf(node.source_file);
    const c = count(file);
    c.nodes++;
    if (only && !only.has(file)) continue;
    const r = nodeRow(node, i, c.fid);
    addNode.run(r.id, r.fid, r.label, r.kind, r.community, r.ord, r.flags, r.json, r.jcrc, r.crc);
    sum = addSum(sum, r.crc);
    tick();
  }
  for (let i = 0; i < doc.links.length; i++) {
    const link = doc.links[i]!;
    const file = fileOf(link.source_file);
    const c = count(file);
    // canonical: the position within the file; else the position in the document
    const seq = canonical ? c.links : i;
    c.links++;
    if (only && !only.has(file)) continue;
    const r = linkRow(link, seq, c.fid);
    addLink.run(r.fid, r.seq, r.source, r.target, r.relation, r.flags, r.json, r.crc);
    sum = addSum(sum, r.crc);
    tick();
  }
  const putFile = db.prepare('INSERT INTO files (fid, path, nodes, links) VALUES (?, ?, ?, ?) ON CONFLICT (fid) DO UPDATE SET nodes = excluded.nodes, links = excluded.links');
  for (const [file, c] of counts) if (!only || only.has(file)) putFile.run(c.fid, file, c.nodes, c.links);
  return sum;
}

function writeMeta(db: Database.Database, doc: GraphDocument, info: ShardInfo, sum: number, generation: number, files: number): void {
  const meta: Record<string, string> = {
    format: String(SHARD_FORMAT),
    tag: info.tag,
    graph_key: info.graphKey ?? '',
    generation: String(generation),
    written_at: new Date().toISOString(),
    nodes: String(doc.nodes.length),
    links: String(doc.links.length),
    files: String(files),
    node_order: nodesById(doc.nodes) ? 'id' : 'ord',
    link_order: linksByFile(doc.links) ? 'file' : 'seq',
    content_sum: String(sum),
    frame: frameOf(doc),
  };
  meta.meta_crc = String(metaCrc(meta));
  db.prepare('DELETE FROM meta').run();
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(meta)) put.run(key, value);
}

/** SYNAPTIC_DEBUG=steps: the wall time of each step of an incremental write, on stderr. */
function debugLap(): (label: string) => void {
  if (process.env.SYNAPTIC_DEBUG !== 'steps') return () => {};
  let last = performance.now();
  return (label) => {
    const now = performance.now();
    console.error(`synaptic: shard ${label}: ${(now - last).toFixed(0)} ms`);
    last = now;
  };
}
