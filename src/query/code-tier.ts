import { isTestFile } from '../graph/test-paths.ts';
import type { GraphNode, NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { SLICE_ITEMS, Sliced, type WarmStep } from './sliced.ts';

/**
 * What kind of code a node is, for ranking answers: the library itself, code beside it that shows or
 * measures it (examples, benchmarks, fixtures, generated or vendored code), or tests. Browser-safe.
 */
export const CODE_TIER = { library: 0, secondary: 1, test: 2 } as const;
export type CodeTier = (typeof CODE_TIER)[keyof typeof CODE_TIER];

const SECONDARY_DIRS = new Set([
  'bench', 'benches', 'benchmark', 'benchmarks', 'example', 'examples', 'fixture', 'fixtures', '__fixtures__',
  '__mocks__', 'mocks', 'generated', '__generated__', 'vendor', 'third_party', 'testdata', 'e2e', 'docs', 'scripts',
]);

/** The tier of a repo-relative file path (tests by the shared predicate, isTestFile). */
export function fileTier(ix: GraphIndex, file: string): CodeTier {
  if (isTestFile(ix.g, file)) return CODE_TIER.test;
  const parts = file.split('/');
  for (let i = 0; i < parts.length - 1; i++) if (SECONDARY_DIRS.has(parts[i]!)) return CODE_TIER.secondary;
  return /\.generated\.|\.gen\.|_generated\./.test(parts[parts.length - 1]!) ? CODE_TIER.secondary : CODE_TIER.library;
}

const tiersByIndex = new WeakMap<GraphIndex, Sliced<Uint8Array>>();

function tiersOf(ix: GraphIndex): Sliced<Uint8Array> {
  let tiers = tiersByIndex.get(ix);
  if (!tiers) tiersByIndex.set(ix, (tiers = new Sliced(() => buildCodeTiers(ix))));
  return tiers;
}

function* buildCodeTiers(ix: GraphIndex): Generator<void, Uint8Array> {
  const tiers = new Uint8Array(ix.n);
  const byFile = new Map<string, CodeTier>();
  for (let v = 0; v < ix.n; v++) {
    if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
    const file = String(ix.node(v).source_file ?? '');
    if (!file) continue;
    let t = byFile.get(file);
    if (t === undefined) byFile.set(file, (t = fileTier(ix, file)));
    tiers[v] = t;
  }
  return tiers;
}

/** Every node's tier, computed once per index (one predicate call per file). */
export function codeTiers(ix: GraphIndex): Uint8Array {
  return tiersOf(ix).get();
}

/**
 * Every node's tier as a warm-up step (QueryEngine.warmSteps): listings and name resolution order
 * by tier, and on prisma the first find_references built them on its call (~20-35 ms of CPU).
 */
export function codeTiersWarmStep(ix: GraphIndex): WarmStep {
  return (deadline) => tiersOf(ix).step(deadline);
}

/** Record tiers computed elsewhere (the ranking scratch builds them a slice at a time). */
export function rememberCodeTiers(ix: GraphIndex, tiers: Uint8Array): void {
  tiersOf(ix).adopt(tiers);
}

const DECLARATION_KINDS = new Set(['interface', 'type_alias']);

/**
 * True for a node that declares a shape without implementing it: an interface, a type alias, or a
 * member of one (`Client.request` in `interface Client`). A question about how something works is
 * answered by the implementation first.
 */
export function isDeclarationOnly(ix: GraphIndex, v: NodeId): boolean {
  const node = ix.node(v);
  if (DECLARATION_KINDS.has(String(node.kind))) return true;
  const id = node.id;
  const hash = id.indexOf('#');
  const dot = id.lastIndexOf('.');
  if (hash < 0 || dot <= hash) return false;
  const parent = ix.g.idOf.get(id.slice(0, dot));
  return parent !== undefined && DECLARATION_KINDS.has(String(ix.node(parent).kind));
}

/**
 * A factor in 0.75..1 that grows with the lines a node's span covers (1 from 63 lines): between two
 * names that match a question alike, the one with a body that does the work (`verify`, 90 lines)
 * answers it before a five-line error class (`JwtTokenInvalid`). 1 for a node without a span.
 */
export function bodyFactor(node: GraphNode): number {
  const span = node.span;
  if (!span || typeof span.start_line !== 'number' || typeof span.end_line !== 'number') return 1;
  const lines = Math.max(1, span.end_line - span.start_line + 1);
  return 0.75 + 0.25 * Math.min(1, Math.log2(1 + lines) / 6);
}
