import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Core } from '../../core/index.ts';
import { assignCommunities, nodeBetweenness, structuralEdges, type CommunityCore, type CommunityResult } from '../../graph/communities.ts';
import { indexGraph, type IndexedGraph } from '../../graph/indexed-graph.ts';
import { communityCacheKey, loadCommunityCache, writeCommunityCache } from '../facts-cache.node.ts';
import type { OutputFolder } from '../out/folder.node.ts';
import type { Linked } from './linked.ts';

/**
 * Phase 4 of a run: communities (Leiden on the WASM core) and betweenness. Both depend only on the
 * structural edge arrays, the seed and the core binary: an update whose edits leave those arrays as
 * they were reuses the previous results (.communities.cbor; exact).
 */

export interface Ranked {
  indexed: IndexedGraph;
  communities: CommunityResult;
  betweenness: Float64Array;
  /** Write the community cache when it was computed in this run. */
  writeCache(): void;
}

export interface LoadedCore {
  core: CommunityCore;
  /** `core:<sha256 of the .wasm>`: cached results are reused only with the very same binary. */
  engine: string;
}

let coreOnce: Promise<LoadedCore> | null = null;

/** The WASM core, loaded once per process (compiled off the main thread while the walk and parse run). */
export function loadCore(): Promise<LoadedCore> {
  coreOnce ??= (async () => {
    let bytes: Buffer | undefined;
    for (const rel of ['../../../wasm/synaptic.wasm', '../../wasm/synaptic.wasm', '../../../../wasm/synaptic.wasm']) {
      try {
        bytes = readFileSync(new URL(rel, import.meta.url));
        break;
      } catch {
        // next candidate (source tree, dist/cli/, dist/src/extract/phases/)
      }
    }
    if (!bytes) throw new Error('Cannot extract: the WebAssembly graph core (wasm/synaptic.wasm) is missing; run `npm run build:wasm`');
    try {
      return { core: await Core.load({ bytes }), engine: `core:${createHash('sha256').update(bytes).digest('hex')}` };
    } catch (err) {
      throw new Error(`Cannot extract: the WebAssembly graph core failed to load: ${err instanceof Error ? err.message : String(err)}`);
    }
  })();
  coreOnce.catch(() => (coreOnce = null)); // a later run may try again
  return coreOnce;
}

export function rankGraph(linked: Linked, loaded: LoadedCore, seed: number, folder: OutputFolder, cached: boolean, step: (label: string) => void): Ranked {
  const { doc } = linked;
  const indexed = indexGraph(doc);
  const structural = structuralEdges(indexed);
  step('index');
  const samples = indexed.nodes.length > 20000 ? 64 : 256;
  const key = communityCacheKey(structural, seed, samples, loaded.engine);
  const fromCache = cached ? loadCommunityCache(folder, key) : null;
  const communities = assignCommunities(doc, { indexed, seed, core: loaded.core, ...(fromCache ? { partition: fromCache.partition } : {}) });
  doc.graph.community_algorithm = communities.algorithm;
  step(fromCache ? 'communities (cached partition)' : 'communities');
  const betweenness = fromCache?.betweenness ?? nodeBetweenness(structural, { samples, seed, core: loaded.core });
  step(fromCache ? 'betweenness (cached)' : 'betweenness');
  return {
    indexed, communities, betweenness,
    writeCache: () => {
      if (!fromCache) writeCommunityCache(folder, key, communities.rawMembership, communities.algorithm, betweenness);
    },
  };
}
