import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest, ManifestEntry } from '../../graph/manifest.ts';
import type { CacheEntry } from '../facts-cache.node.ts';
import type { OutputFolder } from '../out/folder.node.ts';
import { processFiles, type PoolOptions } from '../pool.node.ts';
import type { FileResult, FileTask } from '../process-file.node.ts';
import { CONTEXT_FILE_NAMES } from '../project-context.ts';
import { DEFAULT_MAX_FILE_SIZE, encodeListings, walkRepository, type ListingCache, type WalkResult, type WalkedFile } from '../walk.node.ts';

/**
 * Phase 1 of a run: walk the repository (reusing the previous walk's folder listings), reuse the
 * files whose size and mtime match the previous manifest without reading them, and parse the rest
 * on the worker pool. A file whose bytes hash as before (touched, not changed) counts as reused.
 */

/** mtime granularity slack: a file modified this close to the previous scan is re-hashed. */
const RACY_MS = 2000;

export interface Scan {
  root: string;
  /** Date.now() when the walk started (the manifest's scanned_at_ms). */
  startedAt: number;
  walk: WalkResult;
  walkedByPath: Map<string, WalkedFile>;
  /** The previous run's manifest (an update), else null. */
  previous: Manifest | null;
  files: ScannedFiles;
  /** Text of each project context file (tsconfig.json, package.json, go.mod, ...) found by the walk. */
  contextTexts: Record<string, string>;
  /** Parse more files (those the facts cache cannot vouch for) into {@link files}. */
  parse(tasks: FileTask[]): Promise<void>;
  /** Save the walk's folder listings for the next run (only a speed-up: failures are ignored). */
  saveListings(folder: OutputFolder): void;
}

/** What the scan knows of each walked file: parsed now (`entries`) or reused (`reused`). */
export class ScannedFiles {
  /** Files parsed in this run: content hash, lines, facts or failure. */
  readonly entries = new Map<string, CacheEntry>();
  /** Files reused from the previous run: their manifest entry. */
  readonly reused = new Map<string, ManifestEntry>();
  parsed = 0;
  linesParsed = 0;
  /** Files not parsed in this run (the summary's `reused`). */
  reusedCount = 0;

  constructor(private readonly previous: Manifest | null) {}

  reuse(path: string, entry: ManifestEntry): void {
    this.reused.set(path, entry);
    this.reusedCount++;
  }

  add(results: FileResult[]): void {
    for (const r of results) {
      if (r.unchanged) {
        this.reuse(r.path, this.previous!.files[r.path]!);
        continue;
      }
      this.parsed++;
      this.linesParsed += r.lines;
      const entry: CacheEntry = { hash: r.hash, lines: r.lines };
      if (r.facts) entry.facts = r.facts;
      if (r.error !== undefined) entry.error = r.error;
      if (r.skip !== undefined) entry.skip = r.skip;
      this.entries.set(r.path, entry);
    }
  }

  /** Every file, sorted by path. */
  paths(): string[] {
    return [...this.entries.keys(), ...this.reused.keys()].sort();
  }

  status(path: string): ManifestEntry['status'] {
    const e = this.entries.get(path);
    return e ? (e.skip ? 'skipped' : e.facts ? 'ok' : 'failed') : this.reused.get(path)!.status;
  }

  hash(path: string): string {
    return this.entries.get(path)?.hash ?? this.reused.get(path)!.hash;
  }
}

export interface ScanOptions {
  root: string;
  maxFileSize?: number;
  incremental: boolean;
  pool: PoolOptions;
}

/** `walked` is called between the walk and the parse (the summary times them apart). */
export async function scan(options: ScanOptions, folder: OutputFolder, version: string, walked: () => void = () => {}): Promise<Scan> {
  const { root } = options;
  const startedAt = Date.now();
  // Folder listings of the previous walk: unchanged folders (same mtime) are not read again.
  const saved = options.incremental ? folder.listings() : null;
  const listings: ListingCache = { previous: saved?.listings ?? null, trustBefore: saved ? saved.scannedAtMs - RACY_MS : 0, next: new Map(), changed: false };
  const walk = walkRepository(root, { maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, contextFileNames: CONTEXT_FILE_NAMES, excludeAbs: [folder.dir], listings, rulesKey: version });

  walked();
  const previous = options.incremental ? folder.manifest(version) : null;
  const files = new ScannedFiles(previous);
  const tasks: FileTask[] = [];
  for (const f of walk.files) {
    const prevMeta = previous?.files[f.path];
    if (prevMeta && prevMeta.size === f.size && prevMeta.mtime_ms === f.mtimeMs && f.mtimeMs < previous!.scanned_at_ms - RACY_MS) {
      files.reuse(f.path, prevMeta);
      continue;
    }
    tasks.push({ path: f.path, abs: f.abs, language: f.language, size: f.size, ...(prevMeta ? { knownHash: prevMeta.hash } : {}) });
  }
  const parse = async (more: FileTask[]): Promise<void> => {
    if (more.length) files.add(await processFiles(more, options.pool));
  };
  await parse(tasks);

  const contextTexts: Record<string, string> = {};
  for (const rel of walk.contextFiles) {
    try {
      contextTexts[rel] = readFileSync(join(root, rel), 'utf8');
    } catch {
      // vanished since the walk: ignore
    }
  }
  return {
    root, startedAt, walk, previous, files, contextTexts, parse,
    walkedByPath: new Map(walk.files.map((f) => [f.path, f])),
    saveListings: (out) => {
      if (!listings.changed && saved) return;
      try {
        out.write(out.listingsFile, encodeListings(startedAt, listings.next), { scannedAtMs: startedAt, listings: listings.next });
      } catch {
        // only a cache: the next walk reads every folder
      }
    },
  };
}
