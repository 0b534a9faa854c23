import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Manifest } from '../graph/manifest.ts';
import type { GraphDocument } from '../graph/model.ts';
import { Shard } from '../graph/store/read.node.ts';
import { SHARD_FILE } from '../graph/store/schema.node.ts';
import { updateShard, writeShard, type ShardWrite } from '../graph/store/write.node.ts';
import type { OutputFolder } from './out/folder.node.ts';
import type { Linked } from './phases/linked.ts';
import type { Scan } from './phases/scan.node.ts';

/**
 * The last step of a run: the member's shard (`<out>/graph.shard`, docs/store.md) brought to the
 * graph just written. After a linked run only the rows of files with a changed record are
 * rewritten (the rows reuse of graph.json says are the same stay); a run that reused the previous
 * outputs writes the shard only when it is missing or holds another graph. `--no-store` removes
 * a shard left by an earlier run (it would go stale).
 */

export interface StoreSummary {
  path: string;
  /** `fresh`: the shard already held this graph; `removed`: --no-store took an old one away. */
  mode: ShardWrite['mode'] | 'fresh' | 'removed' | 'failed';
  /** Files whose rows were rewritten (incremental). */
  files?: number;
  /** Node rows whose community number changed (incremental). */
  communities?: number;
  generation?: number;
  ms: number;
  /** Why the whole shard was written again, or why it failed. */
  reason?: string;
}

/** Which graph a shard holds: the inputs of the run that linked it. */
export function graphKeyOf(manifest: Pick<Manifest, 'extractor_version' | 'inputs_hash' | 'precise'>): string {
  return `${manifest.extractor_version}\0${manifest.inputs_hash ?? ''}\0${manifest.precise === true}`;
}

/** Write, update, check or remove the shard of `folder` (`linked`: this run's graph; null: the outputs were reused). */
export function storePhase(folder: OutputFolder, scanned: Scan, linked: Linked | null, enabled: boolean, current: Manifest | null): StoreSummary | undefined {
  const started = performance.now();
  const path = join(folder.dir, SHARD_FILE);
  const ms = () => Math.round(performance.now() - started);
  if (!enabled) {
    if (!existsSync(path)) return undefined;
    rmSync(path, { force: true });
    rmSync(`${path}-journal`, { force: true });
    return { path, mode: 'removed', ms: ms() };
  }
  const manifest = current ?? scanned.previous;
  if (!manifest) return undefined;
  const graphKey = graphKeyOf(manifest);
  try {
    if (!linked) {
      if (shardHolds(path, graphKey)) return { path, mode: 'fresh', ms: ms() };
      const doc = JSON.parse(readFileSync(folder.graphJson, 'utf8')) as GraphDocument;
      const reason = existsSync(path) ? 'the shard held another graph' : 'no shard';
      const done = writeShard(path, doc, info(doc, scanned, graphKey));
      return { path, mode: done.mode, generation: done.generation, ms: ms(), reason };
    }
    const { doc, reuse } = linked;
    const shardInfo = info(doc, scanned, graphKey);
    const done = existsSync(path)
      ? updateShard(path, doc, shardInfo, reuse && scanned.previous ? { ...reuse, previousKey: graphKeyOf(scanned.previous) } : null)
      : writeShard(path, doc, shardInfo);
    return { path, mode: done.mode, files: done.files, communities: done.communities, generation: done.generation, ms: ms(), ...(done.reason ? { reason: done.reason } : {}) };
  } catch (err) {
    // The graph files are written: a shard that could not be is removed rather than left stale.
    rmSync(path, { force: true });
    const reason = err instanceof Error ? err.message : String(err);
    process.stderr.write(`synaptic: could not write the shard store (${path}): ${reason}; 'synaptic migrate' builds it from graph.json\n`);
    return { path, mode: 'failed', ms: ms(), reason };
  }
}

function info(doc: GraphDocument, scanned: Scan, graphKey: string): { tag: string; graphKey: string } {
  const name = doc.graph?.name;
  return { tag: typeof name === 'string' && name ? name : basename(scanned.root), graphKey };
}

function shardHolds(path: string, graphKey: string): boolean {
  if (!existsSync(path)) return false;
  try {
    const shard = Shard.open(path);
    const same = shard.meta.graphKey === graphKey;
    shard.close();
    return same;
  } catch {
    return false;
  }
}
