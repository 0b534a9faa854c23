import { existsSync, readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';
import type { Manifest } from '../graph/manifest.ts';
import type { GraphDocument } from '../graph/model.ts';
import type { RecordForm } from '../graph/store/rows.node.ts';
import type { ShardWrite } from '../graph/store/write.node.ts';
import { canonicalJson, LINK_KEYS, NODE_KEYS, ordered } from './outputs/graph-json.ts';
import type { OutputFolder } from './out/folder.node.ts';
import type { Linked } from './phases/linked.ts';
import type { Scan } from './phases/scan.node.ts';

/**
 * The last step of a run: the member's shard (`<out>/graph.shard`, docs/store.md) brought to the
 * graph just written. After a linked run only the rows of files with a changed record are
 * rewritten (the rows reuse of graph.json says are the same stay); a run that reused the previous
 * outputs writes the shard only when it is missing or holds another graph. `--no-store` removes
 * a shard left by an earlier run (it would go stale). The store modules (and SQLite) are loaded
 * only when there is a shard to write or check.
 */

/** `write`: create or update the shard; `keep`: update the folder's shard if it has one; `off`: remove it. */
export type StoreMode = 'write' | 'keep' | 'off';

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
  /** CPU milliseconds of this process's threads for the phase (module loading included). */
  cpuMs?: number;
  /** Why the whole shard was written again, or why it failed. */
  reason?: string;
}

/** Which graph a shard holds: the inputs of the run that linked it. */
export function graphKeyOf(manifest: Pick<Manifest, 'extractor_version' | 'inputs_hash' | 'precise'>): string {
  return `${manifest.extractor_version}\0${manifest.inputs_hash ?? ''}\0${manifest.precise === true}`;
}

/** Write, update, check or remove the shard of `folder` (`linked`: this run's graph; null: the outputs were reused). */
export async function storePhase(folder: OutputFolder, scanned: Scan, linked: Linked | null, mode: StoreMode = 'keep', current: Manifest | null): Promise<StoreSummary | undefined> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const path = folder.shard;
  const ms = () => Math.round(performance.now() - started);
  const cpuMs = () => {
    const used = process.cpuUsage(cpu);
    return Math.round((used.user + used.system) / 1000);
  };
  const exists = existsSync(path);
  if (mode === 'off') {
    if (!exists) return undefined;
    removeShard(path);
    return { path, mode: 'removed', ms: ms() };
  }
  if (mode === 'keep' && !exists) return undefined;
  const manifest = current ?? scanned.previous;
  if (!manifest) return undefined;
  const graphKey = graphKeyOf(manifest);
  try {
    const [{ Shard }, { updateShard, writeShard }] = await Promise.all([import('../graph/store/read.node.ts'), import('../graph/store/write.node.ts')]);
    /** The shard's generation when it holds this graph. */
    const shardHolds = (): number | null => {
      if (!exists) return null;
      try {
        const shard = Shard.open(path);
        const same = shard.meta.graphKey === graphKey;
        shard.close();
        return same ? shard.meta.generation : null;
      } catch {
        return null;
      }
    };
    if (!linked) {
      const generation = shardHolds();
      if (generation !== null) return { path, mode: 'fresh', generation, ms: ms() };
      const doc = JSON.parse(readFileSync(folder.graphJson, 'utf8')) as GraphDocument;
      const reason = exists ? 'the shard held another graph (or could not be read)' : 'no shard';
      const done = exists ? updateShard(path, doc, info(doc, scanned, graphKey), null) : writeShard(path, doc, info(doc, scanned, graphKey));
      return { path, mode: done.mode, generation: done.generation, ms: ms(), cpuMs: cpuMs(), reason };
    }
    const { doc, reuse } = linked;
    const shardInfo = info(doc, scanned, graphKey);
    const done = exists
      ? updateShard(path, doc, shardInfo, reuse && scanned.previous ? { ...reuse, previousKey: graphKeyOf(scanned.previous) } : null)
      : writeShard(path, doc, shardInfo);
    return { path, mode: done.mode, files: done.files, communities: done.communities, generation: done.generation, ms: ms(), cpuMs: cpuMs(), ...(done.reason ? { reason: done.reason } : {}) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // A newer synaptic's shard is left as it is (this one cannot read it); any other that could not be
    // written is removed rather than left stale. The graph files are written either way.
    if ((err as Error)?.name === 'ShardVersionError') {
      process.stderr.write(`synaptic: the shard store was not updated: ${reason}\n`);
    } else {
      removeShard(path);
      process.stderr.write(`synaptic: could not write the shard store (${path}): ${reason}; 'synaptic migrate' builds it from graph.json\n`);
    }
    return { path, mode: 'failed', ms: ms(), reason };
  }
}

function info(doc: GraphDocument, scanned: Scan, graphKey: string): { tag: string; graphKey: string; form: RecordForm } {
  const name = doc.graph?.name;
  return { tag: typeof name === 'string' && name ? name : basename(scanned.root), graphKey, form: CANONICAL_FORM };
}

/**
 * Records as graph.json writes them (outputs/graph-json: known keys first, the rest sorted), so an
 * extract's shard and a migrate's of the same graph.json have the same rows, whatever the key order
 * of the objects they were written from.
 */
export const CANONICAL_FORM: RecordForm = {
  node: (node) => ordered(node, NODE_KEYS),
  link: (link) => ordered(link, LINK_KEYS),
  frame: (doc) => `{"directed":${JSON.stringify(doc.directed)},"multigraph":${JSON.stringify(doc.multigraph)},"built_at_commit":${JSON.stringify(doc.built_at_commit ?? null)},`
    + `"graph":${canonicalJson(doc.graph)},"nodes":[],"links":[],"hyperedges":${canonicalJson(doc.hyperedges ?? [])}}`,
};

function removeShard(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}-journal`, { force: true });
}
