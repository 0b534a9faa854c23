/**
 * The precise cache (synaptic-out/.precise.cbor): each TS/JS file's checker results under the
 * file's content hash, with the files its imports resolved to. An update re-checks only the files
 * a change can reach (changed, added or deleted files and, through the recorded imports, every file
 * that imports them, transitively; and the files whose property calls name a member that some file
 * now declares, or no longer declares) and takes the rest from here; the cache is written whole, once
 * per run, so it always describes one consistent set of results.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Encoder, decode } from 'cbor-x';
import type { OutputFolder } from '../out/folder.node.ts';
import type { FileSites } from './sites.node.ts';

export const PRECISE_CACHE_FILE = '.precise.cbor';
const CACHE_VERSION = 2;

interface Wire {
  version: number;
  /** Compiler version, extractor version and program options: another key invalidates every entry. */
  key: string;
  files: Record<string, CachedFile>;
}

/** One file's results under its content hash, with the names it declares (declared-names.node.ts). */
export type CachedFile = { hash: string; names: string[] } & FileSites;

export type PreciseCache = Wire['files'];

/** The cached results under `key`, or null (none, another key, unreadable). */
export function readPreciseCache(folder: OutputFolder, key: string): PreciseCache | null {
  const file = folder.path(PRECISE_CACHE_FILE);
  if (!existsSync(file)) return null;
  try {
    const w = decode(readFileSync(file)) as Partial<Wire>;
    return w.version === CACHE_VERSION && w.key === key && w.files && typeof w.files === 'object' ? w.files : null;
  } catch {
    return null; // damaged: everything is checked again
  }
}

export function writePreciseCache(folder: OutputFolder, key: string, files: PreciseCache): void {
  const wire: Wire = { version: CACHE_VERSION, key, files };
  folder.write(folder.path(PRECISE_CACHE_FILE), new Encoder({ useRecords: false }).encode(wire));
}

/**
 * The files to check again: those whose hash differs from the cache's (or that it lacks), the files
 * that import a changed or deleted one (transitively, through the cached imports), files with an
 * unresolved relative import when files were added, and everything when an ambient file changed.
 */
export function filesToCheck(cache: PreciseCache | null, hashes: ReadonlyMap<string, string>): Set<string> {
  if (!cache) return new Set(hashes.keys());
  const changed: string[] = [];
  let added = false;
  for (const [file, hash] of hashes) {
    const entry = cache[file];
    if (!entry) added = true;
    if (!entry || entry.hash !== hash) changed.push(file);
  }
  for (const file of Object.keys(cache)) if (!hashes.has(file)) changed.push(file);
  if (changed.some((f) => cache[f]?.ambient)) return new Set(hashes.keys());
  const importers = new Map<string, string[]>();
  for (const [file, entry] of Object.entries(cache)) {
    for (const dep of entry.deps) {
      let list = importers.get(dep);
      if (!list) importers.set(dep, (list = []));
      list.push(file);
    }
  }
  const out = new Set<string>();
  const queue = [...changed];
  if (added) for (const [file, entry] of Object.entries(cache)) if (entry.unresolved) queue.push(file);
  while (queue.length) {
    const f = queue.pop()!;
    if (out.has(f)) continue;
    out.add(f);
    for (const g of importers.get(f) ?? []) queue.push(g);
  }
  for (const f of [...out]) if (!hashes.has(f)) out.delete(f);
  return out;
}

/**
 * The cached files whose skipped or asked property calls would be decided otherwise now: those that
 * name a member (`asks`) declared by the cached files but not by `names` (every current file's
 * declared names), or the other way round. A full extract decides with `names`, so must an update.
 */
export function filesAskingChangedNames(cache: PreciseCache, names: ReadonlySet<string>): string[] {
  const before = new Set<string>();
  for (const entry of Object.values(cache)) for (const n of entry.names) before.add(n);
  const changed = new Set<string>();
  for (const n of names) if (!before.has(n)) changed.add(n);
  for (const n of before) if (!names.has(n)) changed.add(n);
  if (changed.size === 0) return [];
  return Object.keys(cache).filter((f) => cache[f]!.asks.some((a) => changed.has(a)));
}
