import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Encoder, decode } from 'cbor-x';
import { parseManifest, type Manifest } from '../graph/manifest.ts';
import type { FileFacts } from './facts.ts';
import { writeAtomic } from './repo-files.node.ts';

/**
 * The facts cache (synaptic-out/.facts/): every extracted file's FileFacts (or its failure or skip
 * reason) with its content hash, so `synaptic update` re-parses only changed files. cbor-x records.
 */

export const FACTS_CACHE_VERSION = 1;

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
 * holding changed files (a 640k-line repository has ~25 MB of facts).
 */
export const FACTS_DIR = '.facts';
const FACTS_SHARDS = 64;

function shardOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FACTS_SHARDS;
}

function shardFile(outDir: string, shard: number): string {
  return join(outDir, FACTS_DIR, `${String(shard).padStart(2, '0')}.cbor`);
}

/** Every cached entry when all shards exist and match this extractor version; null otherwise. */
export function loadFactsCache(outDir: string, version: string): Record<string, CacheEntry> | null {
  try {
    const entries: Record<string, CacheEntry> = {};
    for (let shard = 0; shard < FACTS_SHARDS; shard++) {
      const part = decode(readFileSync(shardFile(outDir, shard))) as FactsCache;
      if (!part || part.version !== FACTS_CACHE_VERSION || part.extractor_version !== version || !part.entries) return null;
      Object.assign(entries, part.entries);
    }
    return entries;
  } catch {
    return null; // no usable cache: the files are parsed again
  }
}

/** The previous run's manifest when it exists and matches this extractor version. */
export function loadPreviousManifest(outDir: string, version: string): Manifest | null {
  try {
    const manifest = parseManifest(readFileSync(join(outDir, '.manifest.json'), 'utf8'));
    return manifest && manifest.extractor_version === version ? manifest : null;
  } catch {
    return null;
  }
}

/**
 * Write the shards of the facts cache that changed: entries that are not the very objects loaded
 * from `previous`, or deleted paths (every shard without a loaded previous cache).
 */
export function writeFactsCache(outDir: string, version: string, paths: string[], entries: Map<string, CacheEntry>, previous: Record<string, CacheEntry> | null): void {
  mkdirSync(join(outDir, FACTS_DIR), { recursive: true });
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
    writeAtomic(shardFile(outDir, shard), encoder.encode({ version: FACTS_CACHE_VERSION, extractor_version: version, entries: shards[shard]! }));
  }
}

