import { OTHER_RELATION_ID, RELATIONS, type NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
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
 * Per-index scratch columns, reused by every call (rankQuery is synchronous, so calls never
 * interleave): a generation stamp marks which entries belong to the current call, so nothing is
 * cleared or allocated per node. This keeps a call's cost proportional to what it touches.
 */
interface Scratch {
  gen: number;
  matchGen: Uint32Array;
  label: Float64Array;
  path: Float64Array;
  concepts: Int32Array;
  baseGen: Uint32Array;
  base: Float64Array;
  bestGen: Uint32Array;
  best: Float64Array;
  bestDepth: Int32Array;
  doneGen: Uint32Array;
  /** The call's matched nodes and based nodes, in insertion order (lists, not per-node columns). */
  matchedList: Int32Array;
  basedList: Int32Array;
  /** Per node, fixed for the index: is it a file node; the two log-degree hub divisors. */
  isFile: Uint8Array;
  matchHub: Float64Array;
  expandHub: Float64Array;
}

const scratchByIndex = new WeakMap<GraphIndex, Scratch>();

function scratchFor(ix: GraphIndex): Scratch {
  let s = scratchByIndex.get(ix);
  if (!s || s.matchGen.length !== ix.n) {
    const n = ix.n;
    s = {
      gen: 0,
      matchGen: new Uint32Array(n),
      label: new Float64Array(n),
      path: new Float64Array(n),
      concepts: new Int32Array(n),
      baseGen: new Uint32Array(n),
      base: new Float64Array(n),
      bestGen: new Uint32Array(n),
      best: new Float64Array(n),
      bestDepth: new Int32Array(n),
      doneGen: new Uint32Array(n),
      matchedList: new Int32Array(n),
      basedList: new Int32Array(n),
      isFile: new Uint8Array(n),
      matchHub: new Float64Array(n),
      expandHub: new Float64Array(n),
    };
    for (let v = 0; v < n; v++) {
      if (ix.node(v).kind === 'file') s.isFile[v] = 1;
      const lg = Math.log2(1 + ix.degree[v]!);
      s.matchHub[v] = 1 + 0.05 * lg;
      s.expandHub[v] = 1 + 0.35 * lg;
    }
    scratchByIndex.set(ix, s);
  }
  if (s.gen >= 0xfffffffe) {
    s.gen = 0;
    s.matchGen.fill(0);
    s.baseGen.fill(0);
    s.bestGen.fill(0);
    s.doneGen.fill(0);
  }
  s.gen++;
  return s;
}

/** Expansion weight of each core relation id (the `other` id is looked up by name per edge). */
const REL_WEIGHT = Float64Array.from({ length: OTHER_RELATION_ID }, (_, r) => relWeight((RELATIONS as readonly string[])[r] ?? 'other'));

function edgeWeight(ix: GraphIndex, e: number): number {
  const r = ix.g.rel[e]!;
  return r < OTHER_RELATION_ID ? REL_WEIGHT[r]! : relWeight(ix.relName(e));
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
  const sc = scratchFor(ix);
  const gen = sc.gen;
  const { matchGen, label, path, concepts } = sc;
  /** Matched nodes in first-match order (each at most once, so n slots suffice). */
  const matched = sc.matchedList;
  let matchedCount = 0;
  const touch = (v: NodeId): void => {
    if (matchGen[v] === gen) return;
    matchGen[v] = gen;
    label[v] = 0;
    path[v] = 0;
    concepts[v] = 0;
    matched[matchedCount++] = v;
  };
  const logN = Math.log(1 + n);
  const labelPostings = ix.labelPostings;
  for (let ti = 0; ti < tokens.length; ti++) {
    const bit = ti < 31 ? 1 << ti : 0;
    const lp = labelPostings.get(tokens[ti]!);
    if (!lp) continue;
    const idf = Math.log(1 + n / (1 + lp.length));
    for (let k = 0; k < lp.length; k++) {
      const v = lp[k]!;
      touch(v);
      label[v] += idf;
      concepts[v] |= bit;
    }
  }
  // Path tokens only strengthen nodes that already match by label (or file nodes), so a directory
  // name does not drag in every symbol of the folder.
  const pathPostings = ix.pathPostings;
  for (let ti = 0; ti < tokens.length; ti++) {
    const bit = ti < 31 ? 1 << ti : 0;
    const pp = pathPostings.get(tokens[ti]!);
    if (!pp) continue;
    const idf = Math.log(1 + n / (1 + pp.length));
    for (let k = 0; k < pp.length; k++) {
      const v = pp[k]!;
      if (matchGen[v] !== gen) {
        if (!sc.isFile[v]) continue;
        touch(v);
      }
      path[v] += idf * PATH_WEIGHT;
      concepts[v] |= bit;
    }
  }
  // Exact symbol-name matches for symbol-shaped pieces of the question (getNode, get_node, Foo.bar).
  const exact = new Set<NodeId>();
  for (const piece of question.split(/[\s,;:?!'"()]+/)) {
    if (!piece) continue;
    const lower = piece.toLowerCase();
    const bare = bareName(piece).toLowerCase();
    for (const key of lower === bare ? [lower] : [lower, bare]) {
      if (!key) continue;
      for (const v of ix.byLabel.get(key) ?? []) exact.add(v);
      for (const v of ix.byBare.get(key) ?? []) exact.add(v);
    }
  }
  for (const v of exact) {
    touch(v);
    label[v] += EXACT_BONUS * logN * 0.5;
  }

  const { baseGen, base } = sc;
  /** Nodes with a base score (the question's own matches), in insertion order (each once). */
  const based = sc.basedList;
  let basedCount = 0;
  let top = 0;
  const labelWords = ix.labelWords;
  const { matchHub, expandHub } = sc;
  for (let k = 0; k < matchedCount; k++) {
    const v = matched[k]!;
    if (!allowed(v)) continue;
    const c = popcount(concepts[v]!);
    // Coverage reward, and a mild hub penalty so a giant class does not outrank the function.
    let s = (label[v]! + path[v]!) * (1 + 0.6 * Math.max(0, c - 1));
    s /= matchHub[v]!; // 1 + 0.05 * log2(1 + degree)
    if (label[v] === 0) s *= 0.5;
    // Penalize long labels that merely contain a token among many others.
    const words = labelWords[v]!;
    if (words > c + 2) s *= 0.9;
    const w = options.recency?.weights.get(String(ix.node(v).source_file ?? ''));
    if (w !== undefined) s *= 1 + 0.5 * w;
    baseGen[v] = gen;
    base[v] = s;
    based[basedCount++] = v;
    if (s > top) top = s;
  }
  const hasBase = (v: NodeId): boolean => baseGen[v] === gen;
  if (options.recency?.mode === 'seed') {
    // The changed surface appears even when the question matches little: each changed file's
    // best-connected symbols become candidates, scored below the question's own matches.
    const floor = top > 0 ? top * 0.5 : 1;
    for (const [file, w] of options.recency.weights) {
      const ids = (ix.byFile.get(file) ?? []).filter((v) => allowed(v) && !hasBase(v));
      ids.sort((a, b) => ix.degree[b]! - ix.degree[a]! || a - b);
      for (const v of ids.slice(0, 5)) {
        const s = floor * (0.5 + 0.5 * w);
        if (!hasBase(v)) based[basedCount++] = v;
        baseGen[v] = gen;
        base[v] = s;
        if (s > top) top = s;
      }
    }
  }
  const matchedTotal = basedCount;
  if (!matchedTotal) return { tokens, seeds: [], nodes: [], edges: [], matchedTotal: 0, nodeCap: cap };

  // Only the strongest cap*4 matches are used (seeds come from the first dozen): select them
  // instead of sorting every match; the order (score desc, id asc) is total, so this is exact.
  const ranked = topMatches(based, basedCount, base, cap * 4);
  const seedLimit = Math.max(1, Math.min(Math.ceil(cap / 2), 12));
  const seeds: NodeId[] = [];
  for (const v of ranked) {
    if (seeds.length >= seedLimit) break;
    if (base[v]! < top * 0.35 && seeds.length >= 3) break;
    seeds.push(v);
  }

  const { bestGen, best, bestDepth, doneGen } = sc;
  const heap = new FrontierHeap(mode === 'bfs');
  // The strongest matches are candidates on their own merit (the rest can still be reached by
  // expansion, scored with their own match): bounded so a common word does not flood the frontier.
  for (const v of ranked) {
    const s = base[v]! / top;
    bestGen[v] = gen;
    best[v] = s;
    bestDepth[v] = 0;
    heap.push(v, 0, s);
  }
  const selected: RankedNode[] = [];
  const noFilter = filters.length === 0;
  while (heap.size && selected.length < cap) {
    const priority = heap.topPriority();
    const v = heap.topNode();
    const depth = heap.topDepth();
    heap.pop();
    if (doneGen[v] === gen) continue;
    const curScore = best[v]!;
    if (priority < curScore) continue; // stale entry
    doneGen[v] = gen;
    selected.push({ node: v, score: curScore, depth, matched: hasBase(v) });
    let scanned = 0;
    const relax = (u: NodeId, weight: number): void => {
      if (doneGen[u] === gen || (!noFilter && !allowed(u))) return;
      const own = baseGen[u] === gen ? base[u]! / top : 0;
      const inherited = (curScore * DECAY * weight) / expandHub[u]!; // 1 + 0.35 * log2(1 + degree)
      const s = Math.max(own, inherited, own + inherited * 0.5);
      if (bestGen[u] !== gen || s > best[u]! + 1e-12) {
        bestGen[u] = gen;
        best[u] = s;
        bestDepth[u] = depth + 1;
        heap.push(u, depth + 1, s);
      }
    };
    const outEnd = ix.outOff[v + 1]!;
    for (let i = ix.outOff[v]!; i < outEnd && scanned < MAX_SCAN_PER_NODE; i++, scanned++) {
      const e = ix.outEdges[i]!;
      relax(ix.g.dst[e]!, edgeWeight(ix, e));
    }
    const inEnd = ix.inOff[v + 1]!;
    for (let i = ix.inOff[v]!; i < inEnd && scanned < MAX_SCAN_PER_NODE * 2; i++, scanned++) {
      const e = ix.inEdges[i]!;
      relax(ix.g.src[e]!, edgeWeight(ix, e) * 0.9);
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

/** a ranks before b: higher score, then lower id. */
function ahead(sa: number, va: number, sb: number, vb: number): boolean {
  return sa > sb || (sa === sb && va < vb);
}

/**
 * Sort ids h[0..size) into (score desc, id asc) order (h is clobbered): a heap sort with the
 * comparisons inline, where Array#sort would call a comparator closure per comparison. The order is
 * total (ids are distinct), so the result is the one any correct sort gives.
 */
function sortBest(h: Int32Array, size: number, score: Float64Array): NodeId[] {
  // A heap with the weakest at the root; popping the weakest each time lists them from the back.
  for (let i = (size >> 1) - 1; i >= 0; i--) siftWeakest(h, i, size, score);
  const out: NodeId[] = [];
  for (let end = size - 1; end >= 0; end--) {
    out.push(h[0]!);
    h[0] = h[end]!;
    siftWeakest(h, 0, end, score);
  }
  return out.reverse();
}

/** Sift h[i] down a heap of `size` ids whose root is the weakest (lowest score, then highest id). */
function siftWeakest(h: Int32Array, i: number, size: number, score: Float64Array): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < size && ahead(score[h[m]!]!, h[m]!, score[h[l]!]!, h[l]!)) m = l;
    if (r < size && ahead(score[h[m]!]!, h[m]!, score[h[r]!]!, h[r]!)) m = r;
    if (m === i) return;
    const t = h[i]!;
    h[i] = h[m]!;
    h[m] = t;
    i = m;
  }
}

/** The k best of the first `count` ids by (score desc, id asc), in that order: a bounded heap, then a sort of k. */
export function topMatches(ids: Int32Array, count: number, score: Float64Array, k: number): NodeId[] {
  if (count <= k) return sortBest(ids.slice(0, count), count, score);
  // Min-heap of the k best so far: the weakest of them at the root.
  const h = new Int32Array(k);
  let size = 0;
  const weaker = (i: number, j: number): boolean => ahead(score[h[j]!]!, h[j]!, score[h[i]!]!, h[i]!);
  for (let c = 0; c < count; c++) {
    const v = ids[c]!;
    if (size < k) {
      let i = size++;
      h[i] = v;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!weaker(i, p)) break;
        const t = h[i]!;
        h[i] = h[p]!;
        h[p] = t;
        i = p;
      }
      continue;
    }
    const root = h[0]!;
    if (!ahead(score[v]!, v, score[root]!, root)) continue;
    h[0] = v;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && weaker(l, m)) m = l;
      if (r < size && weaker(r, m)) m = r;
      if (m === i) break;
      const t = h[i]!;
      h[i] = h[m]!;
      h[m] = t;
      i = m;
    }
  }
  return sortBest(h, size, score);
}

/**
 * The expansion frontier: a binary max-heap on priority; ties go to the lower depth (bfs) or the
 * higher depth (dfs), then the lower node id. The pop order is fully determined by those keys.
 */
class FrontierHeap {
  private node: Int32Array = new Int32Array(256);
  private depth: Int32Array = new Int32Array(256);
  private prio: Float64Array = new Float64Array(256);
  size = 0;
  constructor(private readonly bfs: boolean) {}

  topNode(): number {
    return this.node[0]!;
  }

  topDepth(): number {
    return this.depth[0]!;
  }

  topPriority(): number {
    return this.prio[0]!;
  }

  private before(i: number, j: number): boolean {
    const d = this.prio[i]! - this.prio[j]!;
    if (d !== 0) return d > 0;
    const dd = this.bfs ? this.depth[i]! - this.depth[j]! : this.depth[j]! - this.depth[i]!;
    return (dd || this.node[i]! - this.node[j]!) < 0;
  }

  private swap(i: number, j: number): void {
    const n = this.node[i]!;
    this.node[i] = this.node[j]!;
    this.node[j] = n;
    const d = this.depth[i]!;
    this.depth[i] = this.depth[j]!;
    this.depth[j] = d;
    const p = this.prio[i]!;
    this.prio[i] = this.prio[j]!;
    this.prio[j] = p;
  }

  push(v: number, depth: number, priority: number): void {
    if (this.size === this.node.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.node = grow(this.node);
      this.depth = grow(this.depth);
      this.prio = grow(this.prio);
    }
    let i = this.size++;
    this.node[i] = v;
    this.depth[i] = depth;
    this.prio[i] = priority;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): void {
    const last = --this.size;
    if (last > 0) {
      this.node[0] = this.node[last]!;
      this.depth[0] = this.depth[last]!;
      this.prio[0] = this.prio[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < last && this.before(l, m)) m = l;
        if (r < last && this.before(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
  }
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
