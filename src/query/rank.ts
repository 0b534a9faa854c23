import type { NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { MaxHeap } from './heap.ts';
import { bareName, questionTokens } from './tokens.ts';

export interface RankOptions {
  mode?: 'bfs' | 'dfs';
  /** Output token budget; maps to a node cap of about budget/40, clamped to 10..400. */
  tokenBudget?: number;
  /** Keep only nodes whose source file contains one of these substrings. */
  contextFilter?: readonly string[];
  /**
   * Recency: changed files (repo-relative) with a churn weight in 0..1. `boost` re-ranks matches in
   * changed files; `seed` also injects the changed files' symbols as candidates.
   */
  recency?: { weights: ReadonlyMap<string, number>; mode: 'boost' | 'seed' };
}

export interface RankedNode {
  node: NodeId;
  score: number;
  depth: number;
  /** True when the node matched the question itself (not only reached by expansion). */
  matched: boolean;
}

export interface RankedEdge {
  edge: number;
  score: number;
}

export interface RankResult {
  tokens: string[];
  seeds: NodeId[];
  nodes: RankedNode[];
  edges: RankedEdge[];
  /** How many nodes matched the question before the cap. */
  matchedTotal: number;
  nodeCap: number;
}

const PATH_WEIGHT = 0.3;
const EXACT_BONUS = 2.5;
const DECAY = 0.5;
const MAX_SCAN_PER_NODE = 128;

/** Node cap for a token budget: about budget/40, clamped to 10..400. */
export function nodeCapFor(budget: number): number {
  return Math.max(10, Math.min(400, Math.round(budget / 40)));
}

/**
 * Rank the graph against a natural-language question. Label tokens (camelCase / snake_case split,
 * stemmed) are weighted by inverse document frequency; source-path tokens add a lower weight; nodes
 * covering several query concepts are rewarded; exact symbol-name matches get a bonus. The best
 * matches seed a best-first expansion in which a neighbour inherits a decayed share of its parent's
 * score, divided by a log-degree hub penalty, so high-fan-out hubs do not flood the result.
 */
export function rankQuery(ix: GraphIndex, question: string, options: RankOptions = {}): RankResult {
  const mode = options.mode ?? 'bfs';
  const cap = nodeCapFor(options.tokenBudget ?? 1200);
  const filters = (options.contextFilter ?? []).filter((f) => f.length > 0);
  const allowed = (v: NodeId): boolean => {
    if (!filters.length) return true;
    const file = String(ix.node(v).source_file ?? '');
    return filters.some((f) => file.includes(f));
  };
  const tokens = questionTokens(question);
  const n = ix.n;
  const match = new Map<NodeId, { label: number; path: number; concepts: number }>();
  const logN = Math.log(1 + n);
  tokens.forEach((t, ti) => {
    const bit = ti < 31 ? 1 << ti : 0;
    const lp = ix.labelPostings.get(t);
    if (lp) {
      const idf = Math.log(1 + n / (1 + lp.length));
      for (const v of lp) {
        const m = match.get(v) ?? { label: 0, path: 0, concepts: 0 };
        m.label += idf;
        m.concepts |= bit;
        match.set(v, m);
      }
    }
  });
  // Path tokens only strengthen nodes that already match by label (or file nodes), so a directory
  // name does not drag in every symbol of the folder.
  tokens.forEach((t, ti) => {
    const bit = ti < 31 ? 1 << ti : 0;
    const pp = ix.pathPostings.get(t);
    if (!pp) return;
    const idf = Math.log(1 + n / (1 + pp.length));
    for (const v of pp) {
      let m = match.get(v);
      if (!m) {
        if (ix.node(v).kind !== 'file') continue;
        m = { label: 0, path: 0, concepts: 0 };
        match.set(v, m);
      }
      m.path += idf * PATH_WEIGHT;
      m.concepts |= bit;
    }
  });
  // Exact symbol-name matches for symbol-shaped pieces of the question (getNode, get_node, Foo.bar).
  const exact = new Set<NodeId>();
  for (const piece of question.split(/[\s,;:?!'"()]+/)) {
    if (!piece) continue;
    const lower = piece.toLowerCase();
    const bare = bareName(piece).toLowerCase();
    for (const key of new Set([lower, bare])) {
      if (!key) continue;
      for (const v of ix.byLabel.get(key) ?? []) exact.add(v);
      for (const v of ix.byBare.get(key) ?? []) exact.add(v);
    }
  }
  for (const v of exact) {
    const m = match.get(v) ?? { label: 0, path: 0, concepts: 0 };
    m.label += EXACT_BONUS * logN * 0.5;
    match.set(v, m);
  }

  const base = new Map<NodeId, number>();
  let top = 0;
  for (const [v, m] of match) {
    if (!allowed(v)) continue;
    const concepts = popcount(m.concepts);
    // Coverage reward, and a mild hub penalty so a giant class does not outrank the function.
    let s = (m.label + m.path) * (1 + 0.6 * Math.max(0, concepts - 1));
    s /= 1 + 0.05 * Math.log2(1 + ix.degree[v]!);
    if (m.label === 0) s *= 0.5;
    // Penalize long labels that merely contain a token among many others.
    const words = ix.labelWords[v]!;
    if (words > concepts + 2) s *= 0.9;
    const w = options.recency?.weights.get(String(ix.node(v).source_file ?? ''));
    if (w !== undefined) s *= 1 + 0.5 * w;
    base.set(v, s);
    if (s > top) top = s;
  }
  if (options.recency?.mode === 'seed') {
    // The changed surface appears even when the question matches little: each changed file's
    // best-connected symbols become candidates, scored below the question's own matches.
    const floor = top > 0 ? top * 0.5 : 1;
    for (const [file, w] of options.recency.weights) {
      const ids = (ix.byFile.get(file) ?? []).filter((v) => allowed(v) && !base.has(v));
      ids.sort((a, b) => ix.degree[b]! - ix.degree[a]! || a - b);
      for (const v of ids.slice(0, 5)) {
        const s = floor * (0.5 + 0.5 * w);
        base.set(v, s);
        if (s > top) top = s;
      }
    }
  }
  const matchedTotal = base.size;
  if (!matchedTotal) return { tokens, seeds: [], nodes: [], edges: [], matchedTotal: 0, nodeCap: cap };

  const ranked = [...base.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const seedLimit = Math.max(1, Math.min(Math.ceil(cap / 2), 12));
  const seeds: NodeId[] = [];
  for (const [v, s] of ranked) {
    if (seeds.length >= seedLimit) break;
    if (s < top * 0.35 && seeds.length >= 3) break;
    seeds.push(v);
  }

  const best = new Map<NodeId, { score: number; depth: number }>();
  const heap = new MaxHeap<{ v: NodeId; depth: number }>((a, b) => (mode === 'bfs' ? a.depth - b.depth : b.depth - a.depth) || a.v - b.v);
  // The strongest matches are candidates on their own merit (the rest can still be reached by
  // expansion, scored with their own match): bounded so a common word does not flood the frontier.
  for (const [v, s] of ranked.slice(0, cap * 4)) {
    best.set(v, { score: s / top, depth: 0 });
    heap.push({ v, depth: 0 }, s / top);
  }
  const selected: RankedNode[] = [];
  const done = new Uint8Array(n);
  while (heap.size && selected.length < cap) {
    const { item, priority } = heap.pop()!;
    const { v, depth } = item;
    if (done[v]) continue;
    const cur = best.get(v)!;
    if (priority < cur.score) continue; // stale entry
    done[v] = 1;
    selected.push({ node: v, score: cur.score, depth, matched: base.has(v) });
    let scanned = 0;
    const relax = (u: NodeId, weight: number) => {
      if (done[u] || !allowed(u)) return;
      const own = base.has(u) ? base.get(u)! / top : 0;
      const inherited = (cur.score * DECAY * weight) / (1 + 0.35 * Math.log2(1 + ix.degree[u]!));
      const s = Math.max(own, inherited, own + inherited * 0.5);
      const prev = best.get(u);
      if (!prev || s > prev.score + 1e-12) {
        best.set(u, { score: s, depth: depth + 1 });
        heap.push({ v: u, depth: depth + 1 }, s);
      }
    };
    for (let i = ix.outOff[v]!; i < ix.outOff[v + 1]! && scanned < MAX_SCAN_PER_NODE; i++, scanned++) {
      const e = ix.outEdges[i]!;
      relax(ix.g.dst[e]!, relWeight(ix.relName(e)));
    }
    for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]! && scanned < MAX_SCAN_PER_NODE * 2; i++, scanned++) {
      const e = ix.inEdges[i]!;
      relax(ix.g.src[e]!, relWeight(ix.relName(e)) * 0.9);
    }
  }
  // Scores are relative: the best node reads 1.
  const maxScore = selected.reduce((m, r) => Math.max(m, r.score), 0) || 1;
  for (const r of selected) r.score = round(r.score / maxScore);
  selected.sort((a, b) => b.score - a.score || a.depth - b.depth || a.node - b.node);

  const inSet = new Map<NodeId, number>();
  for (const r of selected) inSet.set(r.node, r.score);
  const edges: RankedEdge[] = [];
  for (const r of selected) {
    for (let i = ix.outOff[r.node]!; i < ix.outOff[r.node + 1]!; i++) {
      const e = ix.outEdges[i]!;
      const t = inSet.get(ix.g.dst[e]!);
      if (t !== undefined) edges.push({ edge: e, score: round((r.score + t) / 2) });
    }
  }
  edges.sort((a, b) => b.score - a.score || a.edge - b.edge);
  return { tokens, seeds, nodes: selected, edges: edges.slice(0, selected.length * 2), matchedTotal, nodeCap: cap };
}

function relWeight(rel: string): number {
  switch (rel) {
    case 'calls':
    case 'method':
    case 'inherits':
    case 'extends':
    case 'implements':
      return 1;
    case 'references':
    case 'uses':
    case 'instantiates':
      return 0.8;
    case 'contains':
    case 'defines':
      return 0.6;
    case 'imports':
    case 'imports_from':
    case 're_exports':
      return 0.4;
    default:
      return 0.7;
  }
}

function popcount(x: number): number {
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
