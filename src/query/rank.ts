import { OTHER_RELATION_ID, RELATIONS, type NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { bareName, namePieces, questionTokens } from './tokens.ts';
import { asksForDeclarations, asksForErrors, questionTerms, tierFactors, type Term } from './rank-terms.ts';
import { bodyFactor, CODE_TIER, fileTier, isDeclarationOnly, rememberCodeTiers, type CodeTier } from './code-tier.ts';
import { SLICE_ITEMS, Sliced, type WarmStep } from './sliced.ts';
import { FrontierHeap, topMatches } from './rank-heaps.ts';
import { isDeprecated, isErrorType, signatureWords } from './rank-evidence.ts';
import { addCallerSupport } from './rank-support.ts';
import { dropOverloadRepeats, spreadAcrossFiles } from './rank-answer.ts';

export { topMatches } from './rank-heaps.ts';

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
/** A doc-comment word counts for less than a word of the name: comments mention what they use too. */
const DOC_WEIGHT = 0.45;
/** Score factor of an interface, a type alias or one of their members (code-tier.ts declarationOnly). */
const DECLARATION_FACTOR = 0.6;
const EXACT_BONUS = 2.5;
/** A signature word (a parameter's name or type) counts for less than a doc-comment word. */
const SIGNATURE_WEIGHT = 0.45;
/** Score factor of an error type when the question is not about errors (rank-evidence.ts). */
const ERROR_TYPE_FACTOR = 0.5;
/** Up to this share more for a match that other matches call (rank-support.ts). */
const CALLER_SUPPORT = 0.25;
/** Score factor of a symbol its doc comment calls deprecated or disabled. */
const DEPRECATED_FACTOR = 0.5;
const DECAY = 0.5;
const MAX_SCAN_PER_NODE = 128;

/** Node cap for a token budget: about budget/40, clamped to 10..400. */
export function nodeCapFor(budget: number): number {
  return Math.max(10, Math.min(400, Math.round(budget / 40)));
}

/**
 * Per-node fields of one call, in one record of 16 doubles per node (`v << 4`): a call touches a
 * few hundred scattered nodes, and with a column per field each touch missed the cache once per
 * field (about half of a call's time on a server whose caches other work keeps cold). The relaxation
 * reads only the first eight, a match only the last eight. Stamps are call generations (exact in a double).
 */
const R_DONE_GEN = 0;
const R_BASE_GEN = 1;
const R_BASE = 2;
/** Fixed for the index: 1 + 0.35 * log2(1 + degree), the expansion's hub divisor. */
const R_EXPAND_HUB = 3;
const R_BEST_GEN = 4;
const R_BEST = 5;
const R_BEST_DEPTH = 6;
const R_SEL_GEN = 7;
const R_MATCH_GEN = 8;
const R_LABEL = 9;
const R_PATH = 10;
const R_CONCEPTS = 11;
/** Fixed for the index: 1 + 0.05 * log2(1 + degree), the match's hub divisor. */
const R_MATCH_HUB = 12;
/** Fixed for the index: the label's word count. */
const R_LABEL_WORDS = 13;
/** Fixed for the index: 1 for a file node. */
const R_IS_FILE = 14;
const R_SEL_SCORE = 15;
const R_SHIFT = 4;

/**
 * Per-index scratch, reused by every call (rankQuery is synchronous, so calls never interleave): a
 * generation stamp marks which record fields belong to the current call, so nothing is cleared or
 * allocated per node. This keeps a call's cost proportional to what it touches.
 */
interface Scratch {
  gen: number;
  n: number;
  rec: Float64Array;
  /** The call's matched nodes and based nodes, in insertion order (lists, not per-node fields). */
  matchedList: Int32Array;
  basedList: Int32Array;
  /**
   * Per CSR slot, fixed for the index: the neighbour and the expansion weight (in-edges already
   * times 0.9), so the expansion reads two arrays per edge instead of the edge, its end and its relation.
   */
  outDst: Int32Array;
  outW: Float64Array;
  inSrc: Int32Array;
  inW: Float64Array;
  /** The expansion frontier, emptied by each call. */
  heap: FrontierHeap;
  /** Per node, the call's count of label words the question matched (reset by `touch`). */
  labelHits: Uint8Array;
  /** Per node, fixed for the index: its code tier (code-tier.ts). */
  tiers: Uint8Array;
  /** Per node, fixed for the index: 1 when it only declares a shape (code-tier.ts). */
  declarations: Uint8Array;
  /** Per node, fixed for the index: 0.75..1 by the lines of its body (code-tier.ts). */
  bodies: Float32Array;
  /** Per node, fixed for the index: ERROR_FLAG | DEPRECATED_FLAG (rank-evidence.ts). */
  flags: Uint8Array;
}

const ERROR_FLAG = 2;
const DEPRECATED_FLAG = 4;

/** Per index: the scratch, built on the first call or slice by slice ahead of it (`rankWarmStep`). */
const scratchByIndex = new WeakMap<GraphIndex, Sliced<Scratch>>();

function scratchBuild(ix: GraphIndex): Sliced<Scratch> {
  let built = scratchByIndex.get(ix);
  if (!built) scratchByIndex.set(ix, (built = new Sliced(() => buildScratch(ix))));
  return built;
}

/** The ranking scratch of an index as a warm-up step (see QueryEngine.warmSteps). */
export function rankWarmStep(ix: GraphIndex): WarmStep {
  return (deadline) => scratchBuild(ix).step(deadline);
}

/** Scratch fields that are not per-node typed arrays (a worker's scratch carries only the arrays). */
const SCRATCH_SCALARS = new Set(['gen', 'n', 'heap']);

/**
 * The ranking scratch of an index built whole, as its typed arrays (a worker thread builds it and
 * transfers them; see adoptRankScratch). Throws when the scratch holds a field of another kind.
 */
export function buildRankScratch(ix: GraphIndex): Record<string, ArrayBufferView> {
  const parts: Record<string, ArrayBufferView> = {};
  for (const [key, value] of Object.entries(scratchBuild(ix).get())) {
    if (ArrayBuffer.isView(value)) parts[key] = value;
    else if (!SCRATCH_SCALARS.has(key)) throw new TypeError(`Cannot send the ranking scratch: field '${key}' is not a typed array`);
  }
  return parts;
}

/**
 * Take the scratch a worker built from the same graph (buildRankScratch); false when this index
 * built its own first.
 */
export function adoptRankScratch(ix: GraphIndex, parts: Record<string, ArrayBufferView>): boolean {
  // Into an allocated scratch, not a new object spread from `parts`: the same hidden class as a
  // scratch built here, so rankQuery's field reads (some per matched node) see one shape.
  const s = Object.assign(emptyScratch(ix), parts);
  if (!scratchBuild(ix).adopt(s)) return false;
  rememberCodeTiers(ix, s.tiers);
  return true;
}

/** A scratch with every array allocated (zeroed): one object shape for a build here and an adopted one. */
function emptyScratch(ix: GraphIndex): Scratch {
  const n = ix.n;
  return {
    gen: 0,
    n,
    rec: new Float64Array(n << R_SHIFT),
    matchedList: new Int32Array(n),
    basedList: new Int32Array(n),
    outDst: new Int32Array(ix.outEdges.length),
    outW: new Float64Array(ix.outEdges.length),
    inSrc: new Int32Array(ix.inEdges.length),
    inW: new Float64Array(ix.inEdges.length),
    heap: new FrontierHeap(),
    labelHits: new Uint8Array(n),
    tiers: new Uint8Array(n),
    declarations: new Uint8Array(n),
    bodies: new Float32Array(n),
    flags: new Uint8Array(n),
  };
}

function* buildScratch(ix: GraphIndex): Generator<void, Scratch> {
  const n = ix.n;
  const s = emptyScratch(ix);
  const tierOfFile = new Map<string, CodeTier>();
  const rec = s.rec;
  const labelWords = ix.labelWords;
  for (let v = 0; v < n; v++) {
    if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    const o = v << R_SHIFT;
    if (ix.node(v).kind === 'file') rec[o + R_IS_FILE] = 1;
    const lg = Math.log2(1 + ix.degree[v]!);
    rec[o + R_MATCH_HUB] = 1 + 0.05 * lg;
    rec[o + R_EXPAND_HUB] = 1 + 0.35 * lg;
    rec[o + R_LABEL_WORDS] = labelWords[v]!;
    const node = ix.node(v);
    const file = String(node.source_file ?? '');
    let tier = tierOfFile.get(file);
    if (tier === undefined) tierOfFile.set(file, (tier = file ? fileTier(ix, file) : CODE_TIER.library));
    s.tiers[v] = tier;
    s.declarations[v] = isDeclarationOnly(ix, v) ? 1 : 0;
    s.bodies[v] = bodyFactor(node);
    s.flags[v] = (isErrorType(ix, v) ? ERROR_FLAG : 0) | (isDeprecated(node) ? DEPRECATED_FLAG : 0);
  }
  rememberCodeTiers(ix, s.tiers);
  for (let i = 0; i < ix.outEdges.length; i++) {
    if (i % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    const e = ix.outEdges[i]!;
    s.outDst[i] = ix.g.dst[e]!;
    s.outW[i] = edgeWeight(ix, e);
  }
  for (let i = 0; i < ix.inEdges.length; i++) {
    if (i % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    const e = ix.inEdges[i]!;
    s.inSrc[i] = ix.g.src[e]!;
    s.inW[i] = edgeWeight(ix, e) * 0.9;
  }
  return s;
}

function scratchFor(ix: GraphIndex): Scratch {
  const s = scratchBuild(ix).get();
  if (s.gen >= 0xfffffffe) {
    s.gen = 0;
    const rec = s.rec;
    for (let o = 0; o < rec.length; o += 1 << R_SHIFT) {
      rec[o + R_MATCH_GEN] = 0;
      rec[o + R_BASE_GEN] = 0;
      rec[o + R_BEST_GEN] = 0;
      rec[o + R_DONE_GEN] = 0;
      rec[o + R_SEL_GEN] = 0;
    }
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
  const rec = sc.rec;
  /** Matched nodes in first-match order (each at most once, so n slots suffice). */
  const matched = sc.matchedList;
  let matchedCount = 0;
  /** Start a node's match fields for this call (once); returns its record offset. */
  const touch = (v: NodeId): number => {
    const o = v << R_SHIFT;
    if (rec[o + R_MATCH_GEN] === gen) return o;
    rec[o + R_MATCH_GEN] = gen;
    rec[o + R_LABEL] = 0;
    rec[o + R_PATH] = 0;
    rec[o + R_CONCEPTS] = 0;
    sc.labelHits[v] = 0;
    matched[matchedCount++] = v;
    return o;
  };
  const logN = Math.log(1 + n);
  const labelPostings = ix.labelPostings;
  const labelHits = sc.labelHits;
  const terms = questionTerms(ix, question, tokens);
  for (const term of terms) {
    const lp = labelPostings.get(term.token);
    if (!lp) continue;
    // An abbreviation names the concept its word does: rarer as a spelling, not as a concept
    // (`comp` in 30 names must not outweigh `completion` in 90).
    const df = lp.length + (term.of !== undefined ? (labelPostings.get(term.of)?.length ?? 0) : 0);
    const idf = Math.log(1 + n / (1 + df)) * term.weight;
    for (let k = 0; k < lp.length; k++) {
      const v = lp[k]!;
      const o = touch(v);
      rec[o + R_LABEL] += idf;
      rec[o + R_CONCEPTS] = rec[o + R_CONCEPTS]! | term.bits;
      if (labelHits[v]! < 255) labelHits[v]!++;
    }
  }
  // Doc-comment words: a symbol whose comment explains the concept matches, below its name's words.
  const docPostings = ix.docPostings;
  for (const term of terms) {
    const dp = docPostings.get(term.token);
    if (!dp) continue;
    const idf = Math.log(1 + n / (1 + dp.length)) * DOC_WEIGHT * term.weight;
    for (let k = 0; k < dp.length; k++) {
      const o = touch(dp[k]!);
      if (term.bits !== 0 && (rec[o + R_CONCEPTS]! & term.bits) === term.bits) continue; // the name already says it
      rec[o + R_PATH] += idf;
      rec[o + R_CONCEPTS] = rec[o + R_CONCEPTS]! | term.bits;
    }
  }
  // A word of the type a member sits in (`request` of `PreparedRequest.prepare_body`) counts as a
  // concept the member covers, without weight of its own: only for members that already match (every
  // method of a class would else come in), and a class's words would else outweigh the member's name.
  const ownerPostings = ix.ownerPostings;
  for (const term of terms) {
    const op = ownerPostings.get(term.token);
    if (!op) continue;
    for (let k = 0; k < op.length; k++) {
      const o = op[k]! << R_SHIFT;
      if (rec[o + R_MATCH_GEN] === gen) rec[o + R_CONCEPTS] = rec[o + R_CONCEPTS]! | term.bits;
    }
  }
  // Path tokens only strengthen nodes that already match by label (or file nodes), so a directory
  // name does not drag in every symbol of the folder.
  const pathPostings = ix.pathPostings;
  for (const term of terms) {
    const pp = pathPostings.get(term.token);
    if (!pp) continue;
    const idf = Math.log(1 + n / (1 + pp.length)) * term.weight;
    for (let k = 0; k < pp.length; k++) {
      const v = pp[k]!;
      let o = v << R_SHIFT;
      if (rec[o + R_MATCH_GEN] !== gen) {
        if (!rec[o + R_IS_FILE]) continue;
        o = touch(v);
      }
      rec[o + R_PATH] += idf * PATH_WEIGHT;
      rec[o + R_CONCEPTS] = rec[o + R_CONCEPTS]! | term.bits;
    }
  }
  // Exact symbol-name matches for the pieces that can be names (getNode, get_node, Foo.bar, `a`;
  // not the grammar of "the a of and").
  const exact = new Set<NodeId>();
  for (const piece of namePieces(question)) {
    const lower = piece.toLowerCase();
    const bare = bareName(piece).toLowerCase();
    for (const key of lower === bare ? [lower] : [lower, bare]) {
      if (!key) continue;
      for (const v of ix.byLabel.get(key) ?? []) exact.add(v);
      for (const v of ix.byBare.get(key) ?? []) exact.add(v);
    }
  }
  for (const v of exact) {
    const o = touch(v);
    rec[o + R_LABEL] += EXACT_BONUS * logN * 0.5;
  }
  /** Nodes with a base score (the question's own matches), in insertion order (each once). */
  const based = sc.basedList;
  let basedCount = 0;
  let top = 0;
  const noFilter = filters.length === 0;
  const tierFactor = tierFactors(tokens);
  const declarationFactor = asksForDeclarations(question) ? 1 : DECLARATION_FACTOR;
  const errorFactor = asksForErrors(tokens) ? 1 : ERROR_TYPE_FACTOR;
  const flags = sc.flags;
  const tiers = sc.tiers;
  const recencyWeights = options.recency?.weights;
  for (let k = 0; k < matchedCount; k++) {
    const v = matched[k]!;
    if (!noFilter && !allowed(v)) continue;
    const o = v << R_SHIFT;
    const c = popcount(rec[o + R_CONCEPTS]!);
    const label = rec[o + R_LABEL]!;
    // Coverage reward, and a mild hub penalty so a giant class does not outrank the function.
    let s = (label + rec[o + R_PATH]!) * (1 + 0.6 * Math.max(0, c - 1));
    s /= rec[o + R_MATCH_HUB]!; // 1 + 0.05 * log2(1 + degree)
    if (label === 0) s *= 0.5;
    // A name the question covers word for word (`verify`) over one that merely contains a word
    // among others it does not ask about (`JwtTokenAudience`).
    const words = rec[o + R_LABEL_WORDS]!;
    if (words > 0) s *= 0.6 + 0.4 * Math.min(1, labelHits[v]! / words);
    s *= tierFactor[sc.tiers[v]!]!;
    if (sc.declarations[v] === 1) s *= declarationFactor;
    const f = flags[v]!;
    if (f & ERROR_FLAG) s *= errorFactor;
    if (f & DEPRECATED_FLAG) s *= DEPRECATED_FACTOR;
    s *= sc.bodies[v]!;
    if (recencyWeights) {
      const w = recencyWeights.get(String(ix.node(v).source_file ?? ''));
      if (w !== undefined) s *= 1 + 0.5 * w;
    }
    rec[o + R_BASE_GEN] = gen;
    rec[o + R_BASE] = s;
    based[basedCount++] = v;
    if (s > top) top = s;
  }
  const hasBase = (v: NodeId): boolean => rec[(v << R_SHIFT) + R_BASE_GEN] === gen;
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
        rec[(v << R_SHIFT) + R_BASE_GEN] = gen;
        rec[(v << R_SHIFT) + R_BASE] = s;
        if (s > top) top = s;
      }
    }
  }
  const matchedTotal = basedCount;
  if (!matchedTotal) return { tokens, seeds: [], nodes: [], edges: [], matchedTotal: 0, nodeCap: cap };

  // Only the strongest cap*4 matches are used (seeds come from the first dozen): select them
  // instead of sorting every match; the order (score desc, id asc) is total, so this is exact.
  const ranked = topMatches(based, basedCount, rec, cap * 4, 1 << R_SHIFT, R_BASE);
  top = addSignatureEvidence(ix, ranked, terms, top, rec);
  top = addCallerSupport(
    ix, ranked, top, CALLER_SUPPORT,
    (v) => (hasBase(v) ? rec[(v << R_SHIFT) + R_BASE]! : 0),
    (v, s) => (rec[(v << R_SHIFT) + R_BASE] = s),
  );
  const seedLimit = Math.max(1, Math.min(Math.ceil(cap / 2), 12));
  const seeds: NodeId[] = [];
  for (const v of ranked) {
    if (seeds.length >= seedLimit) break;
    if (rec[(v << R_SHIFT) + R_BASE]! < top * 0.35 && seeds.length >= 3) break;
    seeds.push(v);
  }

  const { outDst, outW, inSrc, inW } = sc;
  const { outOff, inOff } = ix;
  const heap = sc.heap;
  heap.reset(mode === 'bfs');
  // The strongest matches are candidates on their own merit (the rest can still be reached by
  // expansion, scored with their own match): bounded so a common word does not flood the frontier.
  for (const v of ranked) {
    const o = v << R_SHIFT;
    const s = rec[o + R_BASE]! / top;
    rec[o + R_BEST_GEN] = gen;
    rec[o + R_BEST] = s;
    rec[o + R_BEST_DEPTH] = 0;
    heap.push(v, 0, s);
  }
  const selected: RankedNode[] = [];
  while (heap.size && selected.length < cap) {
    const priority = heap.topPriority();
    const v = heap.topNode();
    const depth = heap.topDepth();
    heap.pop();
    const ov = v << R_SHIFT;
    if (rec[ov + R_DONE_GEN] === gen) continue;
    const curScore = rec[ov + R_BEST]!;
    if (priority < curScore) continue; // stale entry
    rec[ov + R_DONE_GEN] = gen;
    selected.push({ node: v, score: curScore, depth, matched: rec[ov + R_BASE_GEN] === gen });
    // Each neighbour inherits a decayed share of v's score (the relaxation is written out in both
    // loops: a closure per popped node cost more than its body).
    const decayed = curScore * DECAY;
    const next = depth + 1;
    let scanned = 0;
    const outEnd = outOff[v + 1]!;
    for (let i = outOff[v]!; i < outEnd && scanned < MAX_SCAN_PER_NODE; i++, scanned++) {
      const u = outDst[i]!;
      const o = u << R_SHIFT;
      if (rec[o + R_DONE_GEN] === gen || (!noFilter && !allowed(u))) continue;
      const own = rec[o + R_BASE_GEN] === gen ? rec[o + R_BASE]! / top : 0;
      const inherited = ((decayed * outW[i]!) / rec[o + R_EXPAND_HUB]!) * tierFactor[tiers[u]!]!; // hub: 1 + 0.35 * log2(1 + degree)
      const s = Math.max(own, inherited, own + inherited * 0.5);
      if (rec[o + R_BEST_GEN] !== gen || s > rec[o + R_BEST]! + 1e-12) {
        rec[o + R_BEST_GEN] = gen;
        rec[o + R_BEST] = s;
        rec[o + R_BEST_DEPTH] = next;
        heap.push(u, next, s);
      }
    }
    const inEnd = inOff[v + 1]!;
    for (let i = inOff[v]!; i < inEnd && scanned < MAX_SCAN_PER_NODE * 2; i++, scanned++) {
      const u = inSrc[i]!;
      const o = u << R_SHIFT;
      if (rec[o + R_DONE_GEN] === gen || (!noFilter && !allowed(u))) continue;
      const own = rec[o + R_BASE_GEN] === gen ? rec[o + R_BASE]! / top : 0;
      const inherited = ((decayed * inW[i]!) / rec[o + R_EXPAND_HUB]!) * tierFactor[tiers[u]!]!;
      const s = Math.max(own, inherited, own + inherited * 0.5);
      if (rec[o + R_BEST_GEN] !== gen || s > rec[o + R_BEST]! + 1e-12) {
        rec[o + R_BEST_GEN] = gen;
        rec[o + R_BEST] = s;
        rec[o + R_BEST_DEPTH] = next;
        heap.push(u, next, s);
      }
    }
  }
  spreadAcrossFiles(ix, selected);
  // Scores are relative: the best node reads 1.
  const maxScore = selected.reduce((m, r) => Math.max(m, r.score), 0) || 1;
  for (const r of selected) r.score = round(r.score / maxScore);
  selected.sort((a, b) => b.score - a.score || a.depth - b.depth || a.node - b.node);
  dropOverloadRepeats(ix, selected);

  for (const r of selected) {
    const o = r.node << R_SHIFT;
    rec[o + R_SEL_GEN] = gen;
    rec[o + R_SEL_SCORE] = r.score;
  }
  const edges: RankedEdge[] = [];
  for (const r of selected) {
    const end = outOff[r.node + 1]!;
    for (let i = outOff[r.node]!; i < end; i++) {
      const o = outDst[i]! << R_SHIFT;
      if (rec[o + R_SEL_GEN] === gen) edges.push({ edge: ix.outEdges[i]!, score: round((r.score + rec[o + R_SEL_SCORE]!) / 2) });
    }
  }
  edges.sort((a, b) => b.score - a.score || a.edge - b.edge);
  return { tokens, seeds, nodes: selected, edges: edges.slice(0, selected.length * 2), matchedTotal, nodeCap: cap };
}

/**
 * Signature words: a parameter (`getPath(request: Request)`) says what a match works on. Read for the
 * strongest matches (`ranked`) whose name matches and misses a concept, so a call splits a bounded
 * number of signatures the first time it meets them; each word adds the concept and a doc-comment
 * word's weight, and the match's score grows as its base formula would have given (more evidence,
 * more coverage). Re-sorts `ranked`; returns the best score.
 */
function addSignatureEvidence(ix: GraphIndex, ranked: NodeId[], terms: readonly Term[], top: number, rec: Float64Array): number {
  const termOf = new Map<string, Term>();
  let allBits = 0;
  for (const term of terms) {
    allBits |= term.bits;
    if (term.bits !== 0 && !termOf.has(term.token)) termOf.set(term.token, term);
  }
  const n = ix.n;
  let changed = false;
  for (const v of ranked) {
    const o = v << R_SHIFT;
    const label = rec[o + R_LABEL]!;
    const concepts = rec[o + R_CONCEPTS]!;
    if (label === 0 || (concepts & allBits) === allBits) continue;
    const words = signatureWords(ix, v);
    if (!words) continue;
    let added = 0;
    let bits = concepts;
    for (const w of words) {
      const term = termOf.get(w);
      if (!term || (bits & term.bits) === term.bits) continue;
      const lp = ix.labelPostings.get(w);
      added += Math.log(1 + n / (1 + (lp ? lp.length : 0))) * SIGNATURE_WEIGHT * term.weight;
      bits |= term.bits;
    }
    if (added === 0) continue;
    const evidence = rec[o + R_PATH]!;
    const coverage = (1 + 0.6 * Math.max(0, popcount(bits) - 1)) / (1 + 0.6 * Math.max(0, popcount(concepts) - 1));
    rec[o + R_PATH] = evidence + added;
    rec[o + R_CONCEPTS] = bits;
    const s = rec[o + R_BASE]! * ((label + evidence + added) / (label + evidence)) * coverage;
    rec[o + R_BASE] = s;
    if (s > top) top = s;
    changed = true;
  }
  if (changed) ranked.sort((a, b) => rec[(b << R_SHIFT) + R_BASE]! - rec[(a << R_SHIFT) + R_BASE]! || a - b);
  return top;
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
