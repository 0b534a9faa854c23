import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTEXT_FILE_NAMES } from '../project-context.ts';
import { writeAtomic } from '../repo-files.node.ts';
import { walkRepository } from '../walk.node.ts';
import { OUTPUT_DIR_NAME } from '../identity.node.ts';
import { WorkspaceError, type WorkspaceMember } from './members.node.ts';

/** Written next to the workspace's outputs: the members, where their sources and graphs are, the store generation. */
export const GLOBAL_MANIFEST = 'global-manifest.json';
/** Written next to it: each member's source fingerprint from its last extraction (list_repos shows it). */
export const WORKSPACE_STATE = 'workspace-state.json';
/** Format of both files; a file with a higher one was written by a newer synaptic and is refused. */
export const WORKSPACE_FORMAT = 1;

export interface ManifestMember {
  tag: string;
  /** Absolute source root. */
  source_root: string;
  /** Relative to the workspace root. */
  path: string;
  /** The member's own output folder (its graph.json, graph.cbor, .manifest.json). */
  out_dir: string;
  status: 'ok' | 'failed';
  nodes?: number;
  links?: number;
  files?: number;
  /** The member's shard store (docs/store.md) and its generation (bumped by every write of it). */
  shard?: string;
  shard_generation?: number;
  error?: string;
}

export interface GlobalManifest {
  format: number;
  /** Bumped on every build/update that re-extracted at least one member (hot reload keys on it). */
  generation: number;
  extractor_version: string;
  workspace_root: string;
  written_at: string;
  members: ManifestMember[];
}

export interface WorkspaceState {
  format: number;
  extractor_version: string;
  repos: Record<string, { source_hash: string; extracted_at: string }>;
}

/** The member's own output folder. */
export function memberOutDir(member: WorkspaceMember): string {
  return join(member.root, OUTPUT_DIR_NAME);
}

/**
 * A content fingerprint of what extraction reads in the member: every source and project file the
 * walk picks (same ignore rules and size limit), by path and content. `sha256:<hex>`.
 */
export function sourceHash(root: string, maxFileSize?: number): string {
  const walk = walkRepository(root, { contextFileNames: CONTEXT_FILE_NAMES, excludeAbs: [join(root, OUTPUT_DIR_NAME)], ...(maxFileSize !== undefined ? { maxFileSize } : {}) });
  const paths = [...new Set([...walk.files.map((f) => f.path), ...walk.contextFiles])].sort();
  const h = createHash('sha256');
  for (const path of paths) {
    let digest = 'unreadable';
    try {
      digest = createHash('sha256').update(readFileSync(join(root, path))).digest('hex');
    } catch {
      // gone since the walk: fingerprinted as such
    }
    h.update(`${path}\0${digest}\n`);
  }
  return `sha256:${h.digest('hex')}`;
}

/** The previous manifest and state in `outDir` (null when absent); a newer or damaged file is an error. */
export function readWorkspaceFiles(outDir: string): { manifest: GlobalManifest | null; state: WorkspaceState | null } {
  return { manifest: readVersioned<GlobalManifest>(join(outDir, GLOBAL_MANIFEST)), state: readVersioned<WorkspaceState>(join(outDir, WORKSPACE_STATE)) };
}

function readVersioned<T extends { format: number }>(file: string): T | null {
  if (!existsSync(file)) return null;
  let doc: T;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (err) {
    throw new WorkspaceError(`${file} is not valid JSON (${(err as Error).message}); remove it and run synaptic workspace build`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new WorkspaceError(`${file} is not a JSON object; remove it and run synaptic workspace build`);
  // (a hand-written workspace-state.json, as list_repos has read since before workspace build, has none)
  if (doc.format === undefined) doc.format = 1;
  if (typeof doc.format !== 'number') throw new WorkspaceError(`${file}: format must be a number; remove it and run synaptic workspace build`);
  if (doc.format > WORKSPACE_FORMAT) throw new WorkspaceError(`${file} was written by a newer synaptic (format ${doc.format}; this one reads up to ${WORKSPACE_FORMAT}): upgrade synaptic, or remove it to rebuild`);
  return doc;
}

/** Write the state first, then the manifest (its generation announces a finished write), each atomically. */
export function writeWorkspaceFiles(outDir: string, manifest: GlobalManifest, state: WorkspaceState): void {
  writeAtomic(join(outDir, WORKSPACE_STATE), JSON.stringify(state, null, 2) + '\n');
  writeAtomic(join(outDir, GLOBAL_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
}
