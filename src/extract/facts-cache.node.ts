import { mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Encoder, decode } from 'cbor-x';
import type { FileFacts } from './facts.ts';
import { fromWire, toWire } from './facts-wire.ts';
import type { OutputFolder } from './out/folder.node.ts';

/**
 * The facts cache (synaptic-out/.facts/): every extracted file's FileFacts (or its failure or skip
 * reason) with its content hash, so `synaptic update` re-parses only changed files. cbor-x records;
 * each file's calls, bindings and type references as a body decoded on first read (facts-wire.ts).
 */

export const FACTS_CACHE_VERSION = 3;

/** What the cache holds for one file. */
export interface CacheEntry {
  hash: string;
  lines: number;
  facts?: FileFacts;
  error?: string;
  skip?: string;
}

export interface FactsCache {
  version: number;
  extractor_version: string;
  entries: Record<string, CacheEntry>;
}

/**
 * The facts cache is split into shards by a hash of the path, so an update rewrites only the shards
 * holding changed files (a 640k-line repository has ~25 MB of facts: ~100 KB a shard, which encodes
 * in ~8 ms; with 64 shards a one-file update spent 30-45 ms encoding its shard).
 */
export const FACTS_DIR = '.facts';
const FACTS_SHARDS = 256;

function shardOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FACTS_SHARDS;
}

function shardFile(folder: OutputFolder, shard: number): string {
  return join(folder.dir, FACTS_DIR, `${String(shard).padStart(2, '0')}.cbor`);
}

/** One decoded shard file (kept by a keeper: its entries are never changed in place but by {@link writeFactsShards}). */
function readShard(folder: OutputFolder, shard: number): FactsCache {
  const file = shardFile(folder, shard);
  return folder.read(file, () => {
    const part = decode(readFileSync(file)) as FactsCache;
    if (part?.version === FACTS_CACHE_VERSION && part.entries) {
      for (const entry of Object.values(part.entries) as (CacheEntry & { body?: Uint8Array })[]) {
        if (!entry.facts) continue;
        entry.facts = fromWire({ facts: entry.facts, body: entry.body! });
        delete entry.body;
      }
    }
    return part;
  });
}

/** Every cached entry when all shards exist and match this extractor version; null otherwise. */
export function loadFactsCache(folder: OutputFolder, version: string): Record<string, CacheEntry> | null {
  try {
    const entries: Record<string, CacheEntry> = {};
    for (let shard = 0; shard < FACTS_SHARDS; shard++) {
      const part = readShard(folder, shard);
      if (!part || part.version !== FACTS_CACHE_VERSION || part.extractor_version !== version || !part.entries) return null;
      Object.assign(entries, part.entries);
    }
    return entries;
  } catch {
    return null; // no usable cache: the files are parsed again
  }
}

/** Read every shard into the keeper's memory, one a step (its idle time); stops at a missing or unreadable one. */
export function* warmFactsShards(folder: OutputFolder): Generator<void, void, void> {
  for (let shard = 0; shard < FACTS_SHARDS; shard++) {
    try {
      readShard(folder, shard);
    } catch {
      return; // an update reads it, and fails over, itself
    }
    yield;
  }
}

/**
 * Write the shards of the facts cache that changed: entries that are not the very objects loaded
 * from `previous`, or deleted paths (every shard without a loaded previous cache).
 */
export function writeFactsCache(
  folder: OutputFolder, version: string, paths: string[], entries: Map<string, CacheEntry>, previous: Record<string, CacheEntry> | null,
): void {
  mkdirSync(join(folder.dir, FACTS_DIR), { recursive: true });
  const shards: Record<string, CacheEntry>[] = Array.from({ length: FACTS_SHARDS }, () => ({}));
  const dirty = new Uint8Array(FACTS_SHARDS).fill(previous ? 0 : 1);
  for (const path of paths) {
    const shard = shardOf(path);
    const entry = entries.get(path)!;
    shards[shard]![path] = entry;
    if (previous && previous[path] !== entry) dirty[shard] = 1;
  }
  if (previous) for (const path of Object.keys(previous)) if (!entries.has(path)) dirty[shardOf(path)] = 1;
  const encoder = new Encoder({ useRecords: true });
  for (let shard = 0; shard < FACTS_SHARDS; shard++) {
    if (!dirty[shard]) continue;
    writeShard(folder, shard, encoder, { version: FACTS_CACHE_VERSION, extractor_version: version, entries: shards[shard]! });
  }
}


/**
 * The community cache (synaptic-out/.communities.cbor): the raw Leiden/Louvain partition and the
 * betweenness of the last run, under a key hashing exactly what they were computed from (structural
 * edge arrays, node count, seed, samples, engine). Same key, same results: an update that leaves the
 * edge arrays unchanged (e.g. a function body edit) skips both computations without changing output.
 */
export const COMMUNITY_CACHE_FILE = '.communities.cbor';
const COMMUNITY_CACHE_VERSION = 1;

export function communityCacheKey(edges: { n: number; a: Uint32Array; b: Uint32Array }, seed: number, samples: number, engine: string): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([COMMUNITY_CACHE_VERSION, edges.n, edges.a.length, seed, samples, engine]));
  h.update(new Uint8Array(edges.a.buffer, edges.a.byteOffset, edges.a.byteLength));
  h.update(new Uint8Array(edges.b.buffer, edges.b.byteOffset, edges.b.byteLength));
  return h.digest('hex');
}

export interface CachedCommunities {
  partition: { membership: Int32Array; algorithm: 'leiden-core' };
  betweenness: Float64Array;
}

/** The cached partition and betweenness when the key matches; null otherwise. */
export function loadCommunityCache(folder: OutputFolder, key: string): CachedCommunities | null {
  try {
    const c = decode(readFileSync(folder.path(COMMUNITY_CACHE_FILE))) as {
      version?: number; key?: string; algorithm?: string; membership?: unknown; betweenness?: unknown;
    };
    if (!c || c.version !== COMMUNITY_CACHE_VERSION || c.key !== key) return null;
    if (!(c.membership instanceof Int32Array) || !(c.betweenness instanceof Float64Array)) return null;
    if (c.algorithm !== 'leiden-core') return null;
    return { partition: { membership: c.membership, algorithm: c.algorithm }, betweenness: c.betweenness };
  } catch {
    return null; // no usable cache: computed again
  }
}

export function writeCommunityCache(folder: OutputFolder, key: string, membership: Int32Array, algorithm: string, betweenness: Float64Array): void {
  folder.write(folder.path(COMMUNITY_CACHE_FILE), new Encoder().encode({ version: COMMUNITY_CACHE_VERSION, key, algorithm, membership, betweenness }));
}

/** The shards holding `paths` (shard number -> its entries), when each exists and matches this extractor version. */
export function loadFactsShards(folder: OutputFolder, version: string, paths: Iterable<string>): Map<number, Record<string, CacheEntry>> | null {
  const out = new Map<number, Record<string, CacheEntry>>();
  try {
    for (const path of paths) {
      const shard = shardOf(path);
      if (out.has(shard)) continue;
      const part = readShard(folder, shard);
      if (!part || part.version !== FACTS_CACHE_VERSION || part.extractor_version !== version || !part.entries) return null;
      out.set(shard, part.entries);
    }
    return out;
  } catch {
    return null;
  }
}

/** The cached entry of `path` from shards loaded by {@link loadFactsShards}. */
export function shardEntry(shards: Map<number, Record<string, CacheEntry>>, path: string): CacheEntry | undefined {
  const entries = shards.get(shardOf(path));
  return entries && Object.hasOwn(entries, path) ? entries[path] : undefined;
}

/** Rewrite the loaded shards with `updates` (changed files only; the file set is unchanged). */
export function writeFactsShards(
  folder: OutputFolder, version: string, shards: Map<number, Record<string, CacheEntry>>, updates: Map<string, CacheEntry>,
): void {
  const dirty = new Set<number>();
  for (const [path, entry] of updates) {
    const shard = shardOf(path);
    const entries = shards.get(shard);
    if (!entries) throw new Error(`Cannot update the facts cache: shard ${shard} of ${path} was not loaded`);
    entries[path] = entry;
    dirty.add(shard);
  }
  const encoder = new Encoder({ useRecords: true });
  for (const shard of [...dirty].sort((a, b) => a - b)) {
    writeShard(folder, shard, encoder, { version: FACTS_CACHE_VERSION, extractor_version: version, entries: shards.get(shard)! });
  }
}

function writeShard(folder: OutputFolder, shard: number, encoder: Encoder, part: FactsCache): void {
  const file = shardFile(folder, shard);
  const entries: Record<string, unknown> = {};
  for (const [path, entry] of Object.entries(part.entries)) {
    if (!entry.facts) {
      entries[path] = entry;
      continue;
    }
    const { facts, body } = toWire(entry.facts);
    entries[path] = { ...entry, facts, body };
  }
  folder.write(file, encoder.encode({ ...part, entries }), part);
}
