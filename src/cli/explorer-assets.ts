import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeGraph } from '../graph/snapshot-encode.ts';
import { openSnapshot } from '../graph/snapshot-envelope.ts';
import type { GraphDocument } from '../graph/model.ts';

/**
 * Finding what the explorer page needs on disk: the bundled app script (dist/explorer/app.js),
 * the core (wasm/synaptic.wasm) and the graph snapshot (graph.cbor, or graph.json encoded on the fly).
 */

const HERE = dirname(fileURLToPath(import.meta.url));
// This file is at <root>/src/cli/ (tsx) or <root>/dist/src/cli/ (compiled).
const ROOTS = [resolve(HERE, '../..'), resolve(HERE, '../../..')];

function findAsset(rel: string, hint: string): string {
  for (const root of ROOTS) {
    const path = join(root, rel);
    if (existsSync(path)) return path;
  }
  throw new Error(`Cannot find ${rel}: ${hint}`);
}

export function appScriptPath(): string {
  return findAsset('dist/explorer/app.js', 'run `npm run build` first');
}

export function wasmPath(): string {
  return findAsset('wasm/synaptic.wasm', 'run `npm run build:wasm` first');
}

/** The graph files for a `--graph` argument: a graph.json or graph.cbor path, or a synaptic-out/ folder. */
export function graphPaths(graphArg: string | undefined, cwd: string): { json: string; cbor: string; name: string } {
  let path = resolve(cwd, graphArg ?? 'synaptic-out/graph.json');
  if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'graph.json');
  const dir = dirname(path);
  const json = path.endsWith('.cbor') ? join(dir, 'graph.json') : path;
  const cbor = path.endsWith('.cbor') ? path : join(dir, 'graph.cbor');
  const repoDir = basename(dir) === 'synaptic-out' ? dirname(dir) : dir;
  return { json, cbor, name: basename(repoDir) };
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * `readGraphSnapshot` memoized on both files' mtimes: a page reload re-sends the same bytes instead of
 * re-reading (or, for a graph.json-only folder, re-encoding) the graph; a new extract is picked up.
 */
export function cachedGraphSnapshot(paths: { json: string; cbor: string }): () => Uint8Array {
  let cached: { key: string; bytes: Uint8Array } | undefined;
  return () => {
    const key = `${mtime(paths.json)}:${mtime(paths.cbor)}`;
    if (cached?.key !== key) cached = { key, bytes: readGraphSnapshot(paths) };
    return cached.bytes;
  };
}

/**
 * The snapshot bytes to serve: graph.cbor when it is at least as new as graph.json, else graph.json
 * encoded. Throws an Error whose message the page shows when neither exists or the JSON is corrupt.
 */
export function readGraphSnapshot(paths: { json: string; cbor: string }): Uint8Array {
  const jsonTime = mtime(paths.json);
  const cborTime = mtime(paths.cbor);
  if (cborTime >= 0 && cborTime >= jsonTime) {
    const bytes = readFileSync(paths.cbor);
    try {
      openSnapshot(bytes); // length and checksum: a damaged or older-format snapshot falls back to graph.json
      return bytes;
    } catch (err) {
      if (jsonTime < 0) throw new Error(`Cannot load the graph: ${(err as Error).message.replace(/^Cannot decode graph snapshot: /, `${paths.cbor}: `)}; run \`synaptic update\``);
      process.stderr.write(`synaptic: ${paths.cbor} not used (${(err as Error).message.replace(/^Cannot decode graph snapshot: /, '')}); reading graph.json instead\n`);
    }
  }
  if (jsonTime < 0) throw new Error(`Cannot load the graph: ${paths.json} does not exist; run \`synaptic extract <repo>\` first`);
  let doc: GraphDocument;
  try {
    doc = JSON.parse(readFileSync(paths.json, 'utf8')) as GraphDocument;
  } catch (err) {
    throw new Error(`Cannot load the graph: ${paths.json} is not valid JSON (${(err as Error).message}); run \`synaptic extract\` again`);
  }
  if (!doc || !Array.isArray(doc.nodes) || !Array.isArray(doc.links)) {
    throw new Error(`Cannot load the graph: ${paths.json} has no nodes/links arrays; run \`synaptic extract\` again`);
  }
  return encodeGraph(doc);
}
