/**
 * `.manifest.json`: what the last extraction saw, per file (content hash, size, mtime, status) and
 * with which extractor, so `synaptic update` can tell added, changed and deleted files apart and
 * the server can check staleness. Browser-safe (pure data).
 */

export const MANIFEST_VERSION = 1;

export type ManifestStatus = 'ok' | 'failed' | 'skipped';

export interface ManifestEntry {
  /** `sha256:<hex>` of the file's bytes. */
  hash: string;
  size: number;
  mtime_ms: number;
  language: string;
  status: ManifestStatus;
}

export interface Manifest {
  manifest_version: number;
  /** Package version plus facts version: a change invalidates every cached fact. */
  extractor_version: string;
  /** Wall-clock time (ms since epoch) the scan began; files modified at or after it are re-hashed. */
  scanned_at_ms: number;
  /** Repo-relative path -> entry, in path order. */
  files: Record<string, ManifestEntry>;
  /**
   * Hash of everything the graph was built from (file hashes and statuses, skipped files, project
   * config files, commit, extractor): equal hashes mean equal outputs, so an update can stop early.
   */
  inputs_hash?: string;
  /** Set when the graph holds the TypeScript checker's call edges (`extract --precise`); `update` keeps the mode. */
  precise?: boolean;
  /** Counts of the graph written with this manifest. */
  stats?: { nodes: number; links: number; communities: number; failed: number; skipped: number; lines: number };
}

/** Parse a manifest, or null when the text is not a manifest of this version. */
export function parseManifest(text: string): Manifest | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const m = value as Partial<Manifest>;
  if (m.manifest_version !== MANIFEST_VERSION || typeof m.extractor_version !== 'string') return null;
  if (typeof m.scanned_at_ms !== 'number' || !m.files || typeof m.files !== 'object') return null;
  return m as Manifest;
}

/** Serialize a manifest with files in path order (stable diffs). */
export function stringifyManifest(manifest: Manifest): string {
  const files: Record<string, ManifestEntry> = {};
  for (const path of Object.keys(manifest.files).sort()) files[path] = manifest.files[path]!;
  return JSON.stringify({ ...manifest, files }, null, 1) + '\n';
}
