import type { NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { bareName, namePieces, questionTokens } from './tokens.ts';
import { asksForDeclarations, asksForErrors, questionTerms, tierFactors, type Term } from './rank-terms.ts';
import { topMatches } from './rank-heaps.ts';
import { signatureWords } from './rank-evidence.ts';
import { addCallerSupport } from './rank-support.ts';
import { dropOverloadRepeats, spreadAcrossFiles } from './rank-answer.ts';
import {
  DEPRECATED_FLAG, ERROR_FLAG, R_BASE, R_BASE_GEN, R_BEST, R_BEST_DEPTH, R_BEST_GEN, R_CONCEPTS, R_DONE_GEN, R_EXPAND_HUB,
  R_IS_FILE, R_LABEL, R_LABEL_WORDS, R_MATCH_GEN, R_MATCH_HUB, R_PATH, R_SEL_GEN, R_SEL_SCORE, R_SHIFT, scratchFor,
} from './rank-scratch.ts';

export { topMatches } from './rank-heaps.ts';
export { adoptRankScratch, buildRankScratch, rankWarmStep } from './rank-scratch.ts';

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
