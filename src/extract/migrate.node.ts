import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { GraphDocument } from '../graph/model.ts';
import { Shard } from '../graph/store/read.node.ts';
import { ShardError, ShardVersionError } from '../graph/store/schema.node.ts';
import { updateShard, writeShard } from '../graph/store/write.node.ts';
import { extractorVersion, OUTPUT_DIR_NAME } from './identity.node.ts';
import { OutputFolder } from './out/folder.node.ts';
import { CANONICAL_FORM, graphKeyOf } from './store-phase.node.ts';

/**
 * `synaptic migrate`: the shard store (graph.shard, docs/store.md) of an output folder built from the
 * graph.json already there, without extracting again; `--check` verifies an existing shard instead.
 */

export interface MigrateResult {
  graphJson: string;
  shard: string;
  tag: string;
  nodes: number;
  links: number;
  files: number;
  generation: number;
  /** Whether a later `synaptic update` can update the shard incrementally (the folder's manifest describes this graph.json). */
  incremental: boolean;
  /** The shard replaced, if any, and why it was not kept as it was. */
  replaced?: string;
  ms: number;
}

/** The output folder and graph.json a `migrate` argument names (a folder, a graph.json, default ./synaptic-out). */
export function migrateTarget(arg: string | undefined, cwd = process.cwd()): { dir: string; graphJson: string } {
  const given = resolve(cwd, arg ?? (existsSync(join(cwd, 'graph.json')) ? '.' : OUTPUT_DIR_NAME));
  let isDir = false;
  try {
    isDir = statSync(given).isDirectory();
  } catch {
    throw new ShardError('', given, `Cannot migrate: '${arg ?? given}' does not exist (run synaptic extract first, or name an output folder or graph.json)`);
  }
  const graphJson = isDir ? join(given, 'graph.json') : given;
  if (!existsSync(graphJson)) throw new ShardError('', graphJson, `Cannot migrate: no graph.json in '${given}' (run synaptic extract first)`);
  return { dir: dirname(graphJson), graphJson };
}

/** Write `<dir>/graph.shard` from `<dir>/graph.json`, holding the folder's lock (an update may be writing it). */
export async function migrateFolder(dir: string, graphJson: string): Promise<MigrateResult> {
  const started = performance.now();
  const folder = new OutputFolder(dir);
  const lock = await folder.lock();
  try {
    let doc: GraphDocument;
    try {
      doc = JSON.parse(readFileSync(graphJson, 'utf8')) as GraphDocument;
    } catch (err) {
      throw new ShardError('', graphJson, `Cannot migrate: ${graphJson} is not a graph (${(err as Error).message})`);
    }
    if (!Array.isArray(doc?.nodes) || !Array.isArray(doc?.links)) throw new ShardError('', graphJson, `Cannot migrate: ${graphJson} is not a node-link graph (no nodes and links arrays)`);
    // The folder's manifest and state vouch for this graph.json: the shard is then keyed like an extract's, and updates stay incremental.
    const manifest = basename(graphJson) === 'graph.json' ? folder.manifest(extractorVersion()) : null;
    const current = manifest && folder.checkGraph(manifest.inputs_hash) === null;
    const graphKey = current ? graphKeyOf(manifest) : '';
    const name = doc.graph?.name;
    const tag = typeof name === 'string' && name ? name : basename(dir) === OUTPUT_DIR_NAME ? basename(dirname(dir)) : basename(dir);
    const path = folder.shard;
    let replaced: string | undefined;
    if (existsSync(path)) {
      // A newer synaptic's shard is not overwritten (ShardVersionError); a damaged one is.
      try {
        const old = Shard.open(path, { tag });
        replaced = old.meta.graphKey === graphKey && graphKey ? 'rebuilt' : 'it held another graph';
        old.close();
      } catch (err) {
        if (err instanceof ShardVersionError) throw err;
        replaced = err instanceof Error ? err.message : String(err);
      }
    }
    const info = { tag, graphKey, form: CANONICAL_FORM };
    const done = replaced ? updateShard(path, doc, info, null) : writeShard(path, doc, info);
    return {
      graphJson, shard: path, tag, nodes: doc.nodes.length, links: doc.links.length,
      files: new Set(doc.nodes.map((n) => n.source_file)).size, generation: done.generation, incremental: Boolean(current),
      ...(replaced ? { replaced } : {}), ms: Math.round(performance.now() - started),
    };
  } finally {
    lock.release();
  }
}

/** Check every row of `<dir>/graph.shard` (throws CorruptShardError / ShardVersionError naming the tag). */
export function checkShardFile(path: string): { tag: string; nodes: number; links: number; generation: number; ms: number } {
  const started = performance.now();
  const shard = Shard.open(path, { verify: true });
  try {
    return { tag: shard.tag, nodes: shard.meta.nodes, links: shard.meta.links, generation: shard.meta.generation, ms: Math.round(performance.now() - started) };
  } finally {
    shard.close();
  }
}
