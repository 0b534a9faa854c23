import type { GraphDocument } from './model.ts';
import { nameCommunity, symbolUse, type CommunityName } from './community-names.ts';
import { indexGraph, type IndexedGraph } from './indexed-graph.ts';

/**
 * Community assignment for a code graph: partition the structural graph (every link, undirected)
 * with the WASM core's Leiden (Traag et al. 2019), number communities by size, store
 * `node.community`, and give each a name a person can read (`graph.community_labels`: its place
 * and most used public symbols, graph/community-names.ts). Deterministic: a fixed seed, nodes in id order.
 * Browser-safe. There is no TypeScript fallback: without the core this is an error, not a
 * different partition (test/reference/louvain.ts keeps a plain Louvain to check the core against).
 */

export const DEFAULT_SEED = 42;

/** Undirected graph: edge i joins a[i] and b[i] (unweighted: the core's kernels take none). */
export interface UndirectedInput {
  n: number;
  a: Uint32Array;
  b: Uint32Array;
}

/** The subset of the WASM core's API this module uses (`Core` from src/core satisfies it). */
export interface CommunityCore {
  graph(input: { n: number; src: Uint32Array; dst: Uint32Array }): {
    leiden(opts: { seed?: number }): { membership: ArrayLike<number> };
    betweenness(opts: { samples?: number; seed?: number; normalized?: boolean }): Float64Array;
    free(): void;
  };
}

export interface CommunityStats extends CommunityName {
  id: number;
  size: number;
  /** Internal edge weight over all edge weight touching the community (0..1). */
  cohesion: number;
}

export interface CommunityResult {
  /** Community id per node index (node order of the document). */
  membership: Int32Array;
  /** The partition as the algorithm returned it (before numbering by size): what `partition` takes. */
  rawMembership: Int32Array;
  communities: CommunityStats[];
  /** Which algorithm made the partition (always the core's Leiden). */
  algorithm: 'leiden-core';
}

/** The core, or a clear error naming what is missing (callers may pass the result of a failed load). */
function requireCore(core: CommunityCore | null | undefined, what: string): CommunityCore {
  if (!core) throw new Error(`Cannot compute ${what}: the WASM core (wasm/synaptic.wasm) is not loaded; build it with 'npm run build:wasm' or reinstall synaptic`);
  return core;
}

/** Partition an undirected graph with the core's Leiden (Traag et al. 2019). */
export function partitionGraph(input: UndirectedInput, options: { seed?: number; core?: CommunityCore | null } = {}): {
  membership: Int32Array;
  algorithm: CommunityResult['algorithm'];
} {
  const core = requireCore(options.core, 'communities');
  if (input.n === 0) return { membership: new Int32Array(0), algorithm: 'leiden-core' };
  const g = core.graph({ n: input.n, src: input.a, dst: input.b });
  try {
    return { membership: Int32Array.from(g.leiden({ seed: options.seed ?? DEFAULT_SEED }).membership), algorithm: 'leiden-core' };
  } finally {
    g.free();
  }
}

/** Node betweenness for ranking: the core's sampled Brandes (directed as stored, not normalized). */
export function nodeBetweenness(input: UndirectedInput, options: { samples: number; seed?: number; core?: CommunityCore | null }): Float64Array {
  const core = requireCore(options.core, 'betweenness');
  if (input.n === 0) return new Float64Array(0);
  const g = core.graph({ n: input.n, src: input.a, dst: input.b });
  try {
    const samples = Math.min(options.samples, input.n);
    return g.betweenness({ ...(samples < input.n ? { samples } : {}), seed: options.seed ?? DEFAULT_SEED, normalized: false });
  } finally {
    g.free();
  }
}

/** The structural graph of an indexed document as undirected edges (self-loops dropped). */
export function structuralEdges(ig: IndexedGraph): UndirectedInput {
  // Counted first, then filled: no number[] of ~100k entries per run to grow and drop.
  let m = 0;
  for (let i = 0; i < ig.src.length; i++) if (ig.src[i] !== ig.dst[i]) m++;
  const a = new Uint32Array(m);
  const b = new Uint32Array(m);
  for (let i = 0, k = 0; i < ig.src.length; i++) {
    if (ig.src[i] === ig.dst[i]) continue;
    a[k] = ig.src[i]!;
    b[k++] = ig.dst[i]!;
  }
  return { n: ig.nodes.length, a, b };
}

/**
 * Name, size and cohesion of each community (names: graph/community-names.ts).
 */
export function describeCommunities(ig: IndexedGraph, membership: Int32Array, count: number): CommunityStats[] {
  const members: number[][] = Array.from({ length: count }, () => []);
  for (let i = 0; i < membership.length; i++) members[membership[i]!]!.push(i);
  const internal = new Float64Array(count);
  const touching = new Float64Array(count);
  for (let e = 0; e < ig.src.length; e++) {
    const cs = membership[ig.src[e]!]!;
    const ct = membership[ig.dst[e]!]!;
    if (cs === ct) {
      internal[cs]!++;
      touching[cs]!++;
    } else {
      touching[cs]!++;
      touching[ct]!++;
    }
  }
  const use = symbolUse(ig);
  return members.map((list, id) => {
    const name = nameCommunity(ig, list, use);
    const cohesion = touching[id]! > 0 ? internal[id]! / touching[id]! : 1;
    return { id, ...name, size: list.length, cohesion: Math.round(cohesion * 1000) / 1000 };
  });
}

/**
 * Assign communities to a document (nodes should already be in their final order): sets
 * `node.community`, `graph.community_labels`, and returns the per-community stats.
 */
export function assignCommunities(
  doc: GraphDocument,
  options: {
    seed?: number; core?: CommunityCore | null; indexed?: IndexedGraph;
    /**
     * A partition of exactly this document's structural edges made earlier by {@link partitionGraph}
     * with the same seed and engine (e.g. cached by an incremental update): used as is.
     */
    partition?: { membership: Int32Array };
  } = {},
): CommunityResult {
  const ig = options.indexed ?? indexGraph(doc);
  const raw = options.partition?.membership ?? partitionGraph(structuralEdges(ig), options).membership;
  if (raw.length !== ig.nodes.length) throw new Error(`Cannot assign communities: the partition has ${raw.length} entries for ${ig.nodes.length} nodes`);
  // Number communities by size (largest first), ties by their first member's position.
  const n = ig.nodes.length;
  const size = new Map<number, number>();
  const first = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const c = raw[i]!;
    size.set(c, (size.get(c) ?? 0) + 1);
    if (!first.has(c)) first.set(c, i);
  }
  const order = [...size.keys()].sort((x, y) => size.get(y)! - size.get(x)! || first.get(x)! - first.get(y)!);
  const rank = new Map(order.map((c, i) => [c, i]));
  const membership = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    membership[i] = rank.get(raw[i]!)!;
    ig.nodes[i]!.community = membership[i]!;
  }
  const communities = describeCommunities(ig, membership, order.length);
  const labels: Record<string, string> = {};
  for (const c of communities) labels[String(c.id)] = c.label;
  doc.graph.community_labels = labels;
  return { membership, rawMembership: raw, communities, algorithm: 'leiden-core' };
}
