import type { GraphDocument, GraphNode } from './model.ts';
import { indexGraph, type IndexedGraph } from './indexed-graph.ts';

/**
 * Community assignment for a code graph: partition the structural graph (every link, undirected)
 * with the WASM core's Leiden (Traag et al. 2019), number communities by size, store
 * `node.community`, and give each a readable label from its dominant folder and most frequent
 * symbol-name tokens (`graph.community_labels`). Deterministic: a fixed seed, nodes in id order.
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

const STOP_TOKENS = new Set([
  'get', 'set', 'is', 'has', 'to', 'from', 'the', 'a', 'an', 'of', 'and', 'or', 'in', 'on', 'for', 'with', 'by',
  'new', 'init', 'test', 'tests', 'spec', 'index', 'main', 'src', 'lib', 'ts', 'js', 'tsx', 'default', 'constructor',
  'it', 'do', 'make', 'create', 'run', 'self', 'this', 'type', 'types',
]);

/**
 * Name tokens of a symbol label: camelCase, snake_case and dotted parts, lower-cased; of 3 or more
 * characters, not all digits, not a stop word. A token is a run of ASCII letters and digits, cut
 * before an upper-case letter that follows a lower-case letter or digit (`fooBar`, `v2Api`) or that
 * starts a capitalised word after other capitals (`HTMLParser`: `HTML`, `Parser`). One pass over
 * the characters: an update labels every community, tens of thousands of labels in a fresh process
 * (test/graph/name-tokens.test.ts holds it to the regular expressions this replaced).
 */
export function nameTokens(label: string): string[] {
  const out: string[] = [];
  const n = label.length;
  let start = -1;
  const end = (at: number): void => {
    if (at - start > 2) {
      const token = label.slice(start, at).toLowerCase();
      if (!STOP_TOKENS.has(token) && !ALL_DIGITS.test(token)) out.push(token);
    }
  };
  for (let i = 0; i < n; i++) {
    const c = label.charCodeAt(i);
    const kind = charKind(c);
    if (kind === OTHER) {
      if (start >= 0) end(i);
      start = -1;
      continue;
    }
    if (start < 0) {
      start = i;
      continue;
    }
    if (kind !== UPPER) continue;
    const before = charKind(label.charCodeAt(i - 1));
    if (before === LOWER || before === DIGIT || (before === UPPER && i + 1 < n && charKind(label.charCodeAt(i + 1)) === LOWER)) {
      end(i);
      start = i;
    }
  }
  if (start >= 0) end(n);
  return out;
}

const ALL_DIGITS = /^\d+$/;
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function charKind(c: number): number {
  return c >= 0x61 && c <= 0x7a ? LOWER : c >= 0x41 && c <= 0x5a ? UPPER : c >= 0x30 && c <= 0x39 ? DIGIT : OTHER;
}

/**
 * Distinct name tokens of a label, memoized for the process: labels repeat across the runs of a
 * keeper (`update --watch`, `serve --watch`) and across communities. Bounded: cleared when it grows large.
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
    partition?: { membership: Int32Array };
    /** Labels this partition got before over the same node labels and files (see {@link describeCommunities}). */
    labels?: Readonly<Record<string, string>>;
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
  const communities = describeCommunities(ig, membership, order.length, options.labels);
  const labels: Record<string, string> = {};
  for (const c of communities) labels[String(c.id)] = c.label;
  doc.graph.community_labels = labels;
  return { membership, rawMembership: raw, communities, algorithm: 'leiden-core' };
}
