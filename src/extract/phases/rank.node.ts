import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Core } from '../../core/index.ts';
import { assignCommunities, nodeBetweenness, structuralEdges, type CommunityCore, type CommunityResult } from '../../graph/communities.ts';
import { carrySymbolUse } from '../../graph/community-names.ts';
import { indexGraph, type IndexedGraph } from '../../graph/indexed-graph.ts';
import type { GraphDocument } from '../../graph/model.ts';
import { relationId, OTHER_RELATION_ID } from '../../graph/model.ts';
import type { ReportMemo } from '../outputs/report.ts';
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
  /** The report's structure-only parts (see ReportMemo), carried over from the previous run when the structure is its. */
  report: ReportMemo;
  /** Write the community cache when it was computed in this run. */
  writeCache(): void;
}

/**
 * What a keeper keeps of its last ranking (KeptOutputs.rank): the document it ranked (the very
 * object the next update's positions route moves lines in) and what was computed from its
 * structure. A positions-only update of that document reuses it after checking that the structure
 * is the same (nodes, edges, what naming and the report read of them).
 */
export interface RankMemo {
  doc: GraphDocument;
  indexed: IndexedGraph;
  communities: CommunityResult;
  betweenness: Float64Array;
  report: ReportMemo;
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
  const kept = folder.kept;
  const memo = kept?.rank;
  if (kept) kept.rank = undefined;
  // Lines moved in the graph the keeper ranked last: the same structure, the same communities and names.
  const same = linked.mode === 'positions' && memo?.doc === doc ? sameStructure(memo.indexed, doc) : null;
  if (same) {
    const { membership, communities, algorithm, rawMembership } = memo!.communities;
    for (let i = 0; i < same.nodes.length; i++) same.nodes[i]!.community = membership[i]!;
    const labels: Record<string, string> = {};
    for (const c of communities) labels[String(c.id)] = c.label;
    doc.graph.community_labels = labels;
    doc.graph.community_algorithm = algorithm;
    carrySymbolUse(memo!.indexed, same);
    step('index, communities (kept: positions only)');
    kept!.rank = { ...memo!, indexed: same };
    return { indexed: same, communities: { membership, communities, algorithm, rawMembership }, betweenness: memo!.betweenness, report: memo!.report, writeCache: () => {} };
  }
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
  const report: ReportMemo = {};
  if (kept) kept.rank = { doc, indexed, communities, betweenness, report };
  return {
    indexed, communities, betweenness, report,
    writeCache: () => {
      if (!fromCache) writeCommunityCache(folder, key, communities.rawMembership, communities.algorithm, betweenness);
    },
  };
}

/**
 * The index of `doc` when it has the structure `prev` indexed (the same node ids, labels, kinds,
 * files, visibility and test marks in the same order; the same edges with the same relations; no
 * dangling link): `prev`'s arrays over `doc`'s objects. Null when anything differs.
 */
function sameStructure(prev: IndexedGraph, doc: GraphDocument): IndexedGraph | null {
  const { nodes, links } = doc;
  if (prev.danglingLinks !== 0 || nodes.length !== prev.nodes.length || links.length !== prev.links.length) return null;
  for (let i = 0; i < nodes.length; i++) {
    const a = nodes[i]!;
    const b = prev.nodes[i]!;
    if (a === b) continue;
    if (a.id !== b.id || a.label !== b.label || a.kind !== b.kind || a.source_file !== b.source_file || a.visibility !== b.visibility
      || a.is_test !== b.is_test || a.file_type !== b.file_type || (a as { exported?: unknown }).exported !== (b as { exported?: unknown }).exported) return null;
  }
  const { src, dst, rel } = prev;
  for (let j = 0; j < links.length; j++) {
    const l = links[j]!;
    if (l.source !== nodes[src[j]!]!.id || l.target !== nodes[dst[j]!]!.id) return null;
    const r = relationId(l.relation);
    if (r !== rel[j] || (r === OTHER_RELATION_ID && l.relation !== prev.links[j]!.relation)) return null;
  }
  return { doc, nodes, idOf: prev.idOf, links, src, dst, rel, danglingLinks: 0 };
}
