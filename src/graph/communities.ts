import type { GraphDocument, GraphNode } from './model.ts';
import { indexGraph, type IndexedGraph } from './indexed-graph.ts';

/**
 * Community assignment for a code graph: partition the structural graph (every link, undirected),
 * number communities by size, store `node.community`, and give each a readable label from its
 * dominant folder and most frequent symbol-name tokens (`graph.community_labels`). Deterministic: a
 * fixed seed, nodes in id order. Browser-safe.
 *
 * The partition comes from {@link partitionGraph}: the WASM core's Leiden when a core with a Leiden
 * kernel is passed in, else the Louvain method below (Blondel et al. 2008, "Fast unfolding of
 * communities in large networks", local moving + aggregation) in plain TypeScript.
 */

export const DEFAULT_SEED = 42;

/** Undirected weighted graph: edge i joins a[i] and b[i]. */
export interface UndirectedInput {
  n: number;
  a: Uint32Array;
  b: Uint32Array;
  weight?: Float64Array;
}

/** The subset of the WASM core's API this module uses (`Core` from src/core satisfies it). */
export interface CommunityCore {
  graph(input: { n: number; src: Uint32Array; dst: Uint32Array }): {
    leiden(opts: { seed?: number }): { membership: ArrayLike<number> };
    betweenness(opts: { samples?: number; seed?: number; normalized?: boolean }): Float64Array;
    free(): void;
  };
}

export interface CommunityStats {
  id: number;
  label: string;
  size: number;
  /** Internal edge weight over all edge weight touching the community (0..1). */
  cohesion: number;
  /** Dominant folder of the members. */
  path: string;
  /** Most frequent symbol-name tokens. */
  tokens: string[];
}

export interface CommunityResult {
  /** Community id per node index (node order of the document). */
  membership: Int32Array;
  /** The partition as the algorithm returned it (before numbering by size): what `partition` takes. */
  rawMembership: Int32Array;
  communities: CommunityStats[];
  /** Which algorithm made the partition. */
  algorithm: 'leiden-core' | 'louvain-ts';
}

/** A small seeded PRNG (mulberry32), so results repeat for a seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Adjacency {
  offsets: Uint32Array;
  targets: Uint32Array;
  weights: Float64Array;
  /** Weighted degree (self-loops counted twice). */
  degree: Float64Array;
  total: number; // sum of degree = 2m
}

function adjacency(n: number, a: ArrayLike<number>, b: ArrayLike<number>, w: ArrayLike<number> | null): Adjacency {
  const count = new Uint32Array(n + 1);
  for (let i = 0; i < a.length; i++) {
    count[a[i]! + 1]!++;
    if (a[i] !== b[i]) count[b[i]! + 1]!++;
  }
  for (let i = 0; i < n; i++) count[i + 1]! += count[i]!;
  const offsets = Uint32Array.from(count);
  const fill = Uint32Array.from(count);
  const targets = new Uint32Array(offsets[n]!);
  const weights = new Float64Array(offsets[n]!);
  const degree = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const wt = w ? w[i]! : 1;
    targets[fill[x]!] = y;
    weights[fill[x]!++] = wt;
    if (x !== y) {
      targets[fill[y]!] = x;
      weights[fill[y]!++] = wt;
    }
    degree[x]! += wt;
    degree[y]! += wt;
    total += 2 * wt;
  }
  return { offsets, targets, weights, degree, total };
}

/** One Louvain level: local moving until stable; returns the community of each node and whether any moved. */
function localMoving(adj: Adjacency, n: number, random: () => number): { comm: Int32Array; moved: boolean } {
  const comm = new Int32Array(n);
  const tot = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    comm[i] = i;
    tot[i] = adj.degree[i]!;
  }
  if (adj.total === 0) return { comm, moved: false };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const linkWeight = new Float64Array(n);
  const touched: number[] = [];
  let moved = false;
  for (let pass = 0; pass < 32; pass++) {
    let moves = 0;
    for (const v of order) {
      const cv = comm[v]!;
      const kv = adj.degree[v]!;
      for (let e = adj.offsets[v]!; e < adj.offsets[v + 1]!; e++) {
        const u = adj.targets[e]!;
        if (u === v) continue;
        const cu = comm[u]!;
        if (linkWeight[cu] === 0) touched.push(cu);
        linkWeight[cu]! += adj.weights[e]!;
      }
      tot[cv]! -= kv;
      let best = cv;
      let bestGain = linkWeight[cv]! - (tot[cv]! * kv) / adj.total;
      for (const c of touched) {
        const gain = linkWeight[c]! - (tot[c]! * kv) / adj.total;
        if (gain > bestGain + 1e-12 || (Math.abs(gain - bestGain) <= 1e-12 && c < best)) {
          bestGain = gain;
          best = c;
        }
      }
      tot[best]! += kv;
      if (best !== cv) {
        comm[v] = best;
        moves++;
      }
      for (const c of touched) linkWeight[c] = 0;
      touched.length = 0;
    }
    if (moves === 0) break;
    moved = true;
  }
  return { comm, moved };
}

/** Louvain in TypeScript: community per node, numbered densely (unordered). */
export function louvain(input: UndirectedInput, seed = DEFAULT_SEED): Int32Array {
  const random = rng(seed);
  let n = input.n;
  let a: ArrayLike<number> = input.a;
  let b: ArrayLike<number> = input.b;
  let w: ArrayLike<number> | null = input.weight ?? null;
  const membership = new Int32Array(input.n);
  for (let i = 0; i < input.n; i++) membership[i] = i;
  for (let level = 0; level < 20; level++) {
    const adj = adjacency(n, a, b, w);
    const { comm, moved } = localMoving(adj, n, random);
    if (!moved) break;
    // Renumber densely and aggregate.
    const dense = new Int32Array(n).fill(-1);
    let k = 0;
    for (let i = 0; i < n; i++) if (dense[comm[i]!] === -1) dense[comm[i]!] = k++;
    for (let i = 0; i < input.n; i++) membership[i] = dense[comm[membership[i]!]!]!;
    const merged = new Map<number, number>();
    for (let i = 0; i < a.length; i++) {
      let x = dense[comm[a[i]!]!]!;
      let y = dense[comm[b[i]!]!]!;
      if (x > y) [x, y] = [y, x];
      const key = x * k + y;
      merged.set(key, (merged.get(key) ?? 0) + (w ? w[i]! : 1));
    }
    const keys = [...merged.keys()].sort((p, q) => p - q);
    const na = new Uint32Array(keys.length);
    const nb = new Uint32Array(keys.length);
    const nw = new Float64Array(keys.length);
    keys.forEach((key, i) => {
      na[i] = Math.floor(key / k);
      nb[i] = key % k;
      nw[i] = merged.get(key)!;
    });
    n = k;
    a = na;
    b = nb;
    w = nw;
  }
  return membership;
}

/** Partition an undirected graph: the core's Leiden (Traag et al. 2019) when given, else {@link louvain}. */
export function partitionGraph(input: UndirectedInput, options: { seed?: number; core?: CommunityCore | null } = {}): {
  membership: Int32Array;
  algorithm: CommunityResult['algorithm'];
} {
  const seed = options.seed ?? DEFAULT_SEED;
  if (options.core && input.n > 0) {
    const g = options.core.graph({ n: input.n, src: input.a, dst: input.b });
    try {
      return { membership: Int32Array.from(g.leiden({ seed }).membership), algorithm: 'leiden-core' };
    } finally {
      g.free();
    }
  }
  return { membership: louvain(input, seed), algorithm: 'louvain-ts' };
}

/**
 * Node betweenness for ranking: the core's sampled Brandes when given (directed as stored, not
 * normalized), else {@link approximateBetweenness} in TypeScript.
 */
export function nodeBetweenness(input: UndirectedInput, options: { samples: number; seed?: number; core?: CommunityCore | null }): Float64Array {
  if (options.core && input.n > 0) {
    const g = options.core.graph({ n: input.n, src: input.a, dst: input.b });
    try {
      const samples = Math.min(options.samples, input.n);
      return g.betweenness({ ...(samples < input.n ? { samples } : {}), seed: options.seed ?? DEFAULT_SEED, normalized: false });
    } finally {
      g.free();
    }
  }
  return approximateBetweenness(input, options.samples);
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

const STOP_TOKENS = new Set([
  'get', 'set', 'is', 'has', 'to', 'from', 'the', 'a', 'an', 'of', 'and', 'or', 'in', 'on', 'for', 'with', 'by',
  'new', 'init', 'test', 'tests', 'spec', 'index', 'main', 'src', 'lib', 'ts', 'js', 'tsx', 'default', 'constructor',
  'it', 'do', 'make', 'create', 'run', 'self', 'this', 'type', 'types',
]);

/** Name tokens of a symbol label: camelCase, snake_case and dotted parts, lower-cased. */
export function nameTokens(label: string): string[] {
  return label
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((t) => t.toLowerCase())
    .filter((t) => t.length > 2 && !STOP_TOKENS.has(t) && !/^\d+$/.test(t));
}

/**
 * Distinct name tokens of a label, memoized for the process: labels repeat across the runs of a
 * resident updater (`update --watch`) and across communities. Bounded: cleared when it grows large.
 */
const TOKENS = new Map<string, readonly string[]>();
const TOKENS_MAX = 1 << 19;

function tokensOf(label: string): readonly string[] {
  let t = TOKENS.get(label);
  if (!t) {
    if (TOKENS.size >= TOKENS_MAX) TOKENS.clear();
    TOKENS.set(label, (t = [...new Set(nameTokens(label))]));
  }
  return t;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

function topCounts(counts: Map<string, number>, k: number): string[] {
  return [...counts.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)).slice(0, k).map((e) => e[0]);
}

/**
 * Label, size and cohesion of each community. `known`: labels this very partition got over nodes with
 * the same labels and files (community id -> label, as in `graph.community_labels`): their symbol
 * tokens are read back from the label instead of being counted again (a label that does not have
 * the expected shape is computed as usual).
 */
export function describeCommunities(ig: IndexedGraph, membership: Int32Array, count: number, known?: Readonly<Record<string, string>>): CommunityStats[] {
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
  return members.map((list, id) => {
    const dirs = new Map<string, number>();
    // Counted in runs of one file: members come in id order, where a file's symbols sit together.
    let runFile = '';
    let runLength = 0;
    const endRun = (): void => {
      if (!runLength) return;
      const dir = dirOf(runFile);
      dirs.set(dir, (dirs.get(dir) ?? 0) + runLength);
    };
    for (let k = 0; k < list.length; k++) {
      const file = ig.nodes[list[k]!]!.source_file;
      if (!file) continue;
      if (file !== runFile) {
        endRun();
        runFile = file;
        runLength = 0;
      }
      runLength++;
    }
    endRun();
    const path = topCounts(dirs, 1)[0] ?? '.';
    const was = known?.[String(id)];
    let top: string[] | null = was === path ? [] : was?.startsWith(`${path} (`) && was.endsWith(')') ? was.slice(path.length + 2, -1).split(', ') : null;
    if (top && (top.length > 2 || top.some((t) => !/^[a-z0-9]+$/.test(t)))) top = null;
    if (!top) {
      const tokens = new Map<string, number>();
      for (let k = 0; k < list.length; k++) {
        const node: GraphNode = ig.nodes[list[k]!]!;
        if (node.kind !== 'file') for (const t of tokensOf(String(node.label ?? ''))) tokens.set(t, (tokens.get(t) ?? 0) + 1);
      }
      top = topCounts(tokens, 2);
    }
    const label = top.length ? `${path} (${top.join(', ')})` : path;
    const cohesion = touching[id]! > 0 ? internal[id]! / touching[id]! : 1;
    return { id, label, size: list.length, cohesion: Math.round(cohesion * 1000) / 1000, path, tokens: top };
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
    partition?: { membership: Int32Array; algorithm: CommunityResult['algorithm'] };
    /** Labels this partition got before over the same node labels and files (see {@link describeCommunities}). */
    labels?: Readonly<Record<string, string>>;
  } = {},
): CommunityResult {
  const ig = options.indexed ?? indexGraph(doc);
  const { membership: raw, algorithm } = options.partition ?? partitionGraph(structuralEdges(ig), options);
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
  const communities = describeCommunities(ig, membership, order.length, options.labels);
  const labels: Record<string, string> = {};
  for (const c of communities) labels[String(c.id)] = c.label;
  doc.graph.community_labels = labels;
  return { membership, rawMembership: raw, communities, algorithm };
}

/**
 * Approximate node betweenness (Brandes 2001, "A faster algorithm for betweenness centrality"),
 * undirected and unweighted, from up to `samples` evenly spaced sources, scaled to the full count.
 */
export function approximateBetweenness(input: UndirectedInput, samples = 128): Float64Array {
  const n = input.n;
  const adj = adjacency(n, input.a, input.b, null);
  const bc = new Float64Array(n);
  if (n === 0) return bc;
  const k = Math.min(n, samples);
  const step = n / k;
  const dist = new Int32Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const stack = new Uint32Array(n);
  const queue = new Uint32Array(n);
  for (let s = 0; s < k; s++) {
    const source = Math.floor(s * step);
    dist.fill(-1);
    sigma.fill(0);
    delta.fill(0);
    dist[source] = 0;
    sigma[source] = 1;
    let head = 0;
    let tail = 0;
    let top = 0;
    queue[tail++] = source;
    while (head < tail) {
      const v = queue[head++]!;
      stack[top++] = v;
      for (let e = adj.offsets[v]!; e < adj.offsets[v + 1]!; e++) {
        const w = adj.targets[e]!;
        if (dist[w] === -1) {
          dist[w] = dist[v]! + 1;
          queue[tail++] = w;
        }
        if (dist[w] === dist[v]! + 1) sigma[w]! += sigma[v]!;
      }
    }
    while (top > 0) {
      const w = stack[--top]!;
      for (let e = adj.offsets[w]!; e < adj.offsets[w + 1]!; e++) {
        const v = adj.targets[e]!;
        if (dist[v] === dist[w]! - 1) delta[v]! += (sigma[v]! / sigma[w]!) * (1 + delta[w]!);
      }
      if (w !== source) bc[w]! += delta[w]!;
    }
  }
  const scale = n / k / 2;
  for (let i = 0; i < n; i++) bc[i]! *= scale;
  return bc;
}
