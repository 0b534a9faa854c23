import type { IndexedGraph } from './indexed-graph.ts';
import { nodeFiles, USE_MASK, type NodeFiles } from './community-names.ts';

/**
 * Surprising connections: a link between two communities that are otherwise barely connected, few
 * links where the links each community has would predict many. One definition for GRAPH_REPORT.md
 * and the synaptic://surprises resource. Links are uses (graph/community-names.ts USE_RELATIONS:
 * calls, references, inheritance, ...); an import alone is not one (a file importing what it uses is
 * expected), a link from test code is never listed (a test using its subject is expected), nor one
 * within a file (a file is one unit whatever the partition says). Browser-safe.
 */

export interface Surprise {
  /** The listed link (edge index). */
  edge: number;
  /** Communities of its source and target. */
  from: number;
  to: number;
  /** Use links between the two communities, both directions, test code included. */
  links: number;
  /** The links the pair would share if each community's links went anywhere at random (vol_a * vol_b / 2m). */
  expected: number;
}

/** A pair is listed only with this many links or fewer... */
const MAX_LINKS = 3;
/** ...and when it has at most half the links its communities' links predict. */
const MIN_RATIO = 2;
/** A symbol used from this many communities besides its own is a shared helper. */
const SHARED_BY = 3;
/** Rows one node may take (one hub must not fill the list). */
const ROWS_PER_NODE = 2;
export const DEFAULT_SURPRISES = 10;
const EXTRACTED = 0;
const AMBIGUOUS = 2;

/** The confidence column surprisingConnections takes, from a graph's links. */
export function edgeConfidence(links: readonly { confidence?: unknown }[]): Uint8Array {
  const out = new Uint8Array(links.length);
  for (let e = 0; e < links.length; e++) {
    const c = links[e]!.confidence;
    if (c === 'INFERRED') out[e] = 1;
    else if (c === 'AMBIGUOUS') out[e] = AMBIGUOUS;
  }
  return out;
}

/** Surprising connections, most surprising first (ratio expected/links, then pair, then edge). */
export function surprisingConnections(
  g: Pick<IndexedGraph, 'nodes' | 'idOf' | 'src' | 'dst' | 'rel'>,
  community: Int32Array,
  /** Per edge: 0 EXTRACTED, 1 INFERRED, 2 AMBIGUOUS (GraphIndex.edgeConf; edgeConfidence below). */
  confidence: Uint8Array,
  options: { limit?: number; files?: NodeFiles } = {},
): Surprise[] {
  const limit = options.limit ?? DEFAULT_SURPRISES;
  const { fileOf, test } = options.files ?? nodeFiles(g);
  const { src, dst, rel } = g;
  let communities = 0;
  for (let v = 0; v < community.length; v++) if (community[v]! >= communities) communities = community[v]! + 1;
  // One pass over the edges: each community's and node's ends of the use links that count.
  const volume = new Float64Array(communities);
  const degree = new Uint32Array(g.nodes.length);
  const cross: number[] = [];
  let m = 0;
  for (let e = 0; e < src.length; e++) {
    if (((USE_MASK >>> rel[e]!) & 1) === 0 || confidence[e] === AMBIGUOUS) continue;
    const s = src[e]!;
    const t = dst[e]!;
    const a = community[s]!;
    const b = community[t]!;
    if (s === t || a < 0 || b < 0) continue;
    m++;
    volume[a]!++;
    volume[b]!++;
    degree[s]!++;
    degree[t]!++;
    if (a !== b) cross.push(e);
  }
  const between = new Map<number, number>();
  /** Per pair: the link to list (the one between the most linked nodes, then the first). */
  const pick = new Map<number, number>();
  const pairOf = (e: number): number => {
    const a = community[g.src[e]!]!;
    const b = community[g.dst[e]!]!;
    return a < b ? a * communities + b : b * communities + a;
  };
  // Communities besides its own each target is used from, counted up to SHARED_BY (the first two kept).
  const usedBy = new Uint8Array(g.nodes.length);
  const firstBy = new Int32Array(g.nodes.length);
  const secondBy = new Int32Array(g.nodes.length);
  for (const e of cross) {
    const t = g.dst[e]!;
    const c = community[g.src[e]!]!;
    const k = usedBy[t]!;
    if (k >= SHARED_BY || (k > 0 && firstBy[t] === c) || (k > 1 && secondBy[t] === c)) continue;
    if (k === 0) firstBy[t] = c;
    else if (k === 1) secondBy[t] = c;
    usedBy[t] = k + 1;
  }
  for (const e of cross) {
    const key = pairOf(e);
    between.set(key, (between.get(key) ?? 0) + 1);
    const s = g.src[e]!;
    const t = g.dst[e]!;
    if (test[s] || fileOf[s] === fileOf[t] || confidence[e] !== EXTRACTED || usedBy[t]! >= SHARED_BY) continue;
    const was = pick.get(key);
    if (was === undefined || degree[s]! + degree[t]! > degree[g.src[was]!]! + degree[g.dst[was]!]!) pick.set(key, e);
  }
  const rows: Surprise[] = [];
  for (const [key, e] of pick) {
    const links = between.get(key)!;
    const a = Math.floor(key / communities);
    const b = key % communities;
    const expected = (volume[a]! * volume[b]!) / (2 * m);
    if (links > MAX_LINKS || expected < MIN_RATIO * links) continue;
    rows.push({ edge: e, from: community[g.src[e]!]!, to: community[g.dst[e]!]!, links, expected });
  }
  rows.sort((x, y) => y.expected / y.links - x.expected / x.links || pairOf(x.edge) - pairOf(y.edge));
  const out: Surprise[] = [];
  const uses = new Map<number, number>();
  for (const r of rows) {
    const s = g.src[r.edge]!;
    const t = g.dst[r.edge]!;
    if ((uses.get(s) ?? 0) >= ROWS_PER_NODE || (uses.get(t) ?? 0) >= ROWS_PER_NODE) continue;
    uses.set(s, (uses.get(s) ?? 0) + 1);
    uses.set(t, (uses.get(t) ?? 0) + 1);
    out.push(r);
    if (out.length >= limit) break;
  }
  return out;
}

/** Why a connection is listed, in one line (the report and the resource print the same); `name` prints a community. */
export function whySurprising(s: Surprise, name: (community: number) => string): string {
  const expected = s.expected >= 10 ? Math.round(s.expected).toString() : s.expected.toFixed(1);
  const links = s.links === 1 ? 'the only link' : `1 of ${s.links} links`;
  return `${links} between ${name(s.from)} and ${name(s.to)}, where ~${expected} would be expected from how linked each is`;
}
