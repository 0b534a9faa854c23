/**
 * The ranking's per-index scratch (rank.ts): one record of 16 doubles per node, the expansion's
 * per-slot neighbours and weights, and the per-node tiers and flags fixed for the index. Built slice
 * by slice in the warm-up, or on a worker thread and adopted (mcp/rank-index-worker.node.ts).
 */
import { OTHER_RELATION_ID, RELATIONS } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { bodyFactor, CODE_TIER, fileTier, isDeclarationOnly, rememberCodeTiers, type CodeTier } from './code-tier.ts';
import { SLICE_ITEMS, Sliced, type WarmStep } from './sliced.ts';
import { FrontierHeap } from './rank-heaps.ts';
import { isDeprecated, isErrorType } from './rank-evidence.ts';

/**
 * Per-node fields of one call, in one record of 16 doubles per node (`v << 4`): a call touches a
 * few hundred scattered nodes, and with a column per field each touch missed the cache once per
 * field (about half of a call's time on a server whose caches other work keeps cold). The relaxation
 * reads only the first eight, a match only the last eight. Stamps are call generations (exact in a double).
 */
export const R_DONE_GEN = 0;
export const R_BASE_GEN = 1;
export const R_BASE = 2;
/** Fixed for the index: 1 + 0.35 * log2(1 + degree), the expansion's hub divisor. */
export const R_EXPAND_HUB = 3;
export const R_BEST_GEN = 4;
export const R_BEST = 5;
export const R_BEST_DEPTH = 6;
export const R_SEL_GEN = 7;
export const R_MATCH_GEN = 8;
export const R_LABEL = 9;
export const R_PATH = 10;
export const R_CONCEPTS = 11;
/** Fixed for the index: 1 + 0.05 * log2(1 + degree), the match's hub divisor. */
export const R_MATCH_HUB = 12;
/** Fixed for the index: the label's word count. */
export const R_LABEL_WORDS = 13;
/** Fixed for the index: 1 for a file node. */
export const R_IS_FILE = 14;
export const R_SEL_SCORE = 15;
export const R_SHIFT = 4;

/**
 * Per-index scratch, reused by every call (rankQuery is synchronous, so calls never interleave): a
 * generation stamp marks which record fields belong to the current call, so nothing is cleared or
 * allocated per node. This keeps a call's cost proportional to what it touches.
 */
export interface Scratch {
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

export const ERROR_FLAG = 2;
export const DEPRECATED_FLAG = 4;

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

export function scratchFor(ix: GraphIndex): Scratch {
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
