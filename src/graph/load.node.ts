import { stat } from 'node:fs/promises';
import { existsSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GraphDocument } from './model.ts';
import { decodeSnapshot, type GraphSnapshot } from './snapshot.ts';

/** A graph file that exists but cannot be used (corrupt JSON/CBOR, wrong shape). */
export class GraphLoadError extends Error {
  override name = 'GraphLoadError';
}

export interface LoadedGraph {
  /** The parsed graph.json (absent when the snapshot was used). */
  doc?: GraphDocument;
  /** The decoded graph.cbor columns (absent when graph.json was used). */
  snapshot?: GraphSnapshot;
  /** The graph.cbor bytes decoded into `snapshot` (a worker thread can index the very same graph). */
  bytes?: Uint8Array;
  /** The file actually parsed (graph.cbor when it was fresh, else graph.json). */
  path: string;
  format: 'json' | 'cbor';
  /** mtime (ms) and size of graph.json when it was read: the reload key. */
  mtimeMs: number;
  size: number;
  /** graph.cbor's stamp at load time (`mtime:size`, '' when absent): a fresher snapshot also reloads. */
  cborStamp?: string;
  /** Why a fresh graph.cbor was not used (damaged, another version): graph.json was loaded instead. */
  warning?: string;
}

/** The graph.cbor that sits next to a graph.json. */
export function snapshotPathFor(jsonPath: string): string {
  return join(dirname(jsonPath), basename(jsonPath).replace(/\.json$/, '') + '.cbor');
}

/** `mtime:size` of a file, or '' when it is missing (a cheap change key). */
export function stampKey(path: string): string {
  const s = fileStamp(path);
  return s ? `${s.mtimeMs}:${s.size}` : '';
}

/**
 * Parse graph.json from bytes the caller already holds (the pinned, digest-verified deployment:
 * the bytes hashed are the bytes parsed).
 */
export function parseGraphBytes(bytes: Uint8Array, path: string): GraphDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (err) {
    throw new GraphLoadError(`Cannot load graph ${path}: invalid JSON (${err instanceof Error ? err.message : String(err)}); re-run 'synaptic extract'`);
  }
  return checkGraphDocument(parsed, path);
}

/** Check the shape of a parsed graph document; throws GraphLoadError naming what is wrong. */
export function checkGraphDocument(value: unknown, path: string): GraphDocument {
  if (!value || typeof value !== 'object') throw new GraphLoadError(`Cannot load graph ${path}: the file is not a JSON object`);
  const doc = value as Partial<GraphDocument>;
  if (!Array.isArray(doc.nodes)) throw new GraphLoadError(`Cannot load graph ${path}: 'nodes' is missing or not an array (re-run synaptic extract)`);
  if (!Array.isArray(doc.links)) throw new GraphLoadError(`Cannot load graph ${path}: 'links' is missing or not an array (re-run synaptic extract)`);
  for (let i = 0; i < doc.nodes.length; i++) {
    const n = doc.nodes[i] as unknown as Record<string, unknown>;
    if (!n || typeof n !== 'object' || typeof n.id !== 'string') {
      throw new GraphLoadError(`Cannot load graph ${path}: node ${i} has no string 'id' (re-run synaptic extract)`);
    }
  }
  doc.graph ??= {};
  doc.hyperedges ??= [];
  return doc as GraphDocument;
}

/**
 * Load a graph: the CBOR snapshot next to graph.json when it is at least as new as graph.json, else
 * graph.json, also when the snapshot is refused (damaged: its length or checksum; another version),
 * which `warning` then says. A missing file says to run `synaptic extract`; a corrupt graph.json
 * throws GraphLoadError with the parse error (and why the snapshot was not used, if it was not).
 */
export async function loadGraph(jsonPath: string): Promise<LoadedGraph> {
  let st;
  try {
    st = await stat(jsonPath);
  } catch {
    throw new GraphLoadError(`Cannot load graph ${jsonPath}: file not found (run 'synaptic extract' in the repository first, or pass --graph <path>)`);
  }
  const cborPath = snapshotPathFor(jsonPath);
  const cborStamp = stampKey(cborPath);
  // Why a fresh snapshot was refused (it was there, at least as new as graph.json, and did not decode).
  let refused: string | undefined;
  if (cborPath !== jsonPath && existsSync(cborPath)) {
    const cst = statSync(cborPath);
    if (cst.mtimeMs >= st.mtimeMs) {
      try {
        // One synchronous read: decoding and indexing block anyway, and fs/promises reads a big file
        // in many small chunks, each a trip through the thread pool (~50 ms idle for 25 MB).
        const bytes = readFileSync(cborPath);
        const snapshot = decodeSnapshot(bytes);
        return { snapshot, bytes, path: cborPath, format: 'cbor', mtimeMs: st.mtimeMs, size: st.size, cborStamp };
      } catch (err) {
        // A bad snapshot falls back to the canonical graph.json.
        refused = `${cborPath} not used: ${(err instanceof Error ? err.message : String(err)).replace(/^Cannot decode graph snapshot: /, '')}`;
      }
    }
  }
  let doc: GraphDocument;
  try {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(jsonPath, 'utf8'));
    } catch (err) {
      throw new GraphLoadError(`Cannot load graph ${jsonPath}: invalid JSON (${err instanceof Error ? err.message : String(err)}); run 'synaptic update' (or 'synaptic extract') to write it anew`);
    }
    doc = checkGraphDocument(parsed, jsonPath);
  } catch (err) {
    // Neither file serves: say why for both.
    if (!refused || !(err instanceof GraphLoadError)) throw err;
    throw new GraphLoadError(`${err.message}; and ${refused}`);
  }
  const warning = refused ? `${refused}; loaded graph.json instead (run 'synaptic update' to write graph.cbor anew)` : undefined;
  return { doc, path: jsonPath, format: 'json', mtimeMs: st.mtimeMs, size: st.size, cborStamp, ...(warning ? { warning } : {}) };
}

/** mtime and size of a file, or undefined when it is missing. */
export function fileStamp(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    const s = statSync(path);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return undefined;
  }
}

/**
 * Watch a graph file for replacement (editors and `extract` write a temp file then rename, so the
 * directory is watched). Calls `onChange` debounced; returns a closer. Never throws: if watching is
 * impossible the caller's per-call stamp check still catches changes.
 */
export function watchGraphFile(path: string, onChange: () => void, debounceMs = 100): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const name = basename(path);
  try {
    watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
      if (file && file !== name && file !== name.replace(/\.json$/, '.cbor')) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
      timer.unref?.();
    });
    watcher.on('error', () => undefined);
  } catch {
    watcher = undefined;
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
