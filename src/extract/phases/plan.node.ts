import { createHash } from 'node:crypto';
import type { ManifestEntry } from '../../graph/manifest.ts';
import type { OutputFolder } from '../out/folder.node.ts';
import { readHeadCommit } from '../repo-files.node.ts';
import type { Scan } from './scan.node.ts';

/**
 * Phase 2 of a run: what changed since the previous run, and so which way the graph is built.
 * The ways, cheapest first (each later one is taken when an earlier one's conditions fail):
 * - `reused`: same inputs as the previous run (files touched but not changed): the outputs stand;
 * - `positions`: a few files edited in positions only: the previous graph with their lines moved;
 * - `relink`: only files' contents changed: link again only the files whose linking may differ;
 * - `full`: link every file's facts.
 * Every way gives the outputs a full extract of the same tree gives, byte for byte.
 */

export type Route = 'reused' | 'positions' | 'relink' | 'full';

export interface Plan {
  version: string;
  seed: number;
  commit: string | null;
  /** Every extracted file, sorted. */
  paths: string[];
  manifestFiles: Record<string, ManifestEntry>;
  /** Files with facts, per language. */
  languages: Record<string, number>;
  /** Precise mode: the checker's call edges are merged after the link (part of the inputs hash). */
  precise: boolean;
  inputsHash: string;
  added: number;
  changed: number;
  deleted: number;
  route: Route;
  /** Why the previous graph is neither kept nor used (a torn or damaged folder: see OutputFolder.checkGraph), sending the run down `full`. */
  damage: string | null;
  /** The inputs hash of this run with other manifest entries (e.g. the changed files as they were), and another commit. */
  hashWith(files: Record<string, ManifestEntry>, commit?: string | null): string;
}

/** Engine named in the inputs hash (kept from when a TypeScript fallback could stand in for the core). */
const COMMUNITY_ENGINE = 'core';

export function planRun(scan: Scan, folder: OutputFolder, version: string, seed: number, precise = false): Plan {
  const { files, previous } = scan;
  const paths = files.paths();
  const manifestFiles: Record<string, ManifestEntry> = {};
  const languages: Record<string, number> = {};
  for (const path of paths) {
    const w = scan.walkedByPath.get(path)!;
    const status = files.status(path);
    manifestFiles[path] = { hash: files.hash(path), size: w.size, mtime_ms: w.mtimeMs, language: w.language, status };
    if (status === 'ok') languages[w.language] = (languages[w.language] ?? 0) + 1;
  }
  const commit = readHeadCommit(scan.root);
  const hashWith = (entries: Record<string, ManifestEntry>, at: string | null = commit): string =>
    hashInputs(version, seed, precise ? `${COMMUNITY_ENGINE}+checker` : COMMUNITY_ENGINE, at, entries, scan.walk.skipped, scan.contextTexts);
  const inputsHash = hashWith(manifestFiles);
  const prevFiles = previous?.files ?? {};
  let added = 0;
  let changed = 0;
  for (const path of paths) {
    const before = prevFiles[path];
    if (!before) added++;
    else if (before.hash !== manifestFiles[path]!.hash) changed++;
  }
  const deleted = Object.keys(prevFiles).filter((p) => !manifestFiles[p]).length;
  const sameFileSet = previous !== null && added === 0 && deleted === 0;
  // The previous graph is kept, or built on, only when it is whole and the one the manifest describes.
  const damage = previous ? folder.checkGraph(previous.inputs_hash) : null;
  const route: Route = damage ? 'full'
    : previous && typeof previous.stats?.lines === 'number' && previous.inputs_hash === inputsHash ? 'reused'
      : sameFileSet && files.entries.size > 0 && files.reused.size > 0 ? 'positions'
        : sameFileSet && files.entries.size > 0 ? 'relink'
          : 'full';
  return { version, seed, precise, commit, paths, manifestFiles, languages, inputsHash, added, changed, deleted, route, damage, hashWith };
}

/** Hash of everything the outputs depend on (see Manifest.inputs_hash). */
function hashInputs(
  version: string, seed: number, communityEngine: string, commit: string | null, files: Record<string, ManifestEntry>,
  walkSkipped: Record<string, string>, contextTexts: Record<string, string>,
): string {
  // One text hashed at once (the same bytes as hashing its parts in turn; a call per file cost more).
  let text = JSON.stringify([version, seed, communityEngine, commit]);
  for (const path of Object.keys(files).sort()) text += `\0${path}\0${files[path]!.hash}\0${files[path]!.status}`;
  for (const path of Object.keys(walkSkipped).sort()) text += `\x01${path}\0${walkSkipped[path]}`;
  for (const path of Object.keys(contextTexts).sort()) text += `\x02${path}\0${contextTexts[path]}`;
  return 'sha256:' + createHash('sha256').update(text).digest('hex');
}

export function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}
