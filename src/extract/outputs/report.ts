import type { GraphDocument, GraphNode } from '../../graph/model.ts';
import { edgeCsr, type IndexedGraph } from '../../graph/indexed-graph.ts';
import { OTHER_RELATION_ID, relationId } from '../../graph/model.ts';
import type { CommunityStats } from '../../graph/communities.ts';
import { TEST_REACH_DEPTH, TestReach } from '../../graph/test-reach.ts';
import { sanitize } from '../../graph/sanitize.ts';

/**
 * GRAPH_REPORT.md: a human- and agent-readable digest of a graph: counts and the confidence
 * breakdown, god nodes (highest degree) with how many tests reach them, communities with labels,
 * size and cohesion, surprising cross-community connections ranked by betweenness, questions worth
 * asking the graph, and the files that failed to parse or were skipped. Browser-safe.
 */

export interface ReportInput {
  doc: GraphDocument;
  indexed: IndexedGraph;
  communities: CommunityStats[];
  /** Node betweenness per node index (approximate is fine). */
  betweenness: Float64Array;
  /** Partition algorithm, for the record. */
  algorithm?: string;
}

/** Relations that carry code dependencies (not mere containment). */
const DEPENDENCY_RELATIONS = new Set([
  'calls', 'inherits', 'extends', 'implements', 'references', 'uses', 'tests', 'dynamic_ref', 'mixes_in', 'embeds',
  'imports', 'imports_from', 're_exports', 'instantiates', 'invokes', 'overrides', 'depends_on',
]);

/**
 * Membership test of edge e's relation in a set of names, by the edge's relation id (the name is
 * read only for relations outside RELATIONS, which share one id).
 */
function relationTest(names: ReadonlySet<string>): (ig: IndexedGraph, e: number) => boolean {
  const byId = new Uint8Array(OTHER_RELATION_ID + 1);
  for (const name of names) if (relationId(name) !== OTHER_RELATION_ID) byId[relationId(name)] = 1;
  return (ig, e) => {
    const r = ig.rel[e]!;
    return r === OTHER_RELATION_ID ? names.has(String(ig.links[e]!.relation)) : byId[r] === 1;
  };
}
const isDependency = relationTest(DEPENDENCY_RELATIONS);

const GOD_NODES = 10;
const SHOWN_COMMUNITIES = 20;
const SURPRISES = 10;

/** A name (label, path, relation, reason) for a table cell or a sentence: sanitized as tools print names, pipes and backticks defused. */
function md(text: unknown): string {
  return sanitize(text, 400).replace(/\|/g, '\\|').replace(/`/g, "'");
}

function pct(part: number, whole: number): string {
  return whole ? `${((100 * part) / whole).toFixed(1)}%` : '0%';
}

function nodeName(node: GraphNode): string {
  return node.kind === 'file' ? node.id : `${node.label}`;
}

/** Render GRAPH_REPORT.md. */
/**
 * `items` (edge ids) in order of score descending, then id ascending, produced lazily: a heap built
 * in linear time, popped only as far as the caller reads (a report keeps a handful of ~50k edges).
 */
function* bestFirst(items: number[], score: Float64Array): Generator<number> {
  const heap = Uint32Array.from(items);
  const before = (a: number, b: number): boolean => score[a]! > score[b]! || (score[a] === score[b] && a < b);
  const sink = (i: number, size: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      let best = i;
      if (l < size && before(heap[l]!, heap[best]!)) best = l;
      if (l + 1 < size && before(heap[l + 1]!, heap[best]!)) best = l + 1;
      if (best === i) return;
      const t = heap[i]!;
      heap[i] = heap[best]!;
      heap[best] = t;
      i = best;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) sink(i, heap.length);
  for (let size = heap.length; size > 0; size--) {
    const first = heap[0]!;
    heap[0] = heap[size - 1]!;
    sink(0, size - 1);
    yield first;
  }
}

export function renderReport(input: ReportInput): string {
  const { doc, indexed: ig, communities, betweenness } = input;
  const meta = doc.graph;
  const nodes = ig.nodes;
  const out: string[] = [];
  out.push(`# Graph report: ${md(meta.name ?? 'repository')}`, '');
  out.push(`Extractor ${md(meta.extractor_version ?? '?')}; commit ${doc.built_at_commit ? '`' + doc.built_at_commit + '`' : '(none)'}.`, '');

  // Summary
  const kinds = new Map<string, number>();
  // Indexed loops over the big arrays: this runs once per update, often before V8 optimizes it, and
  // an unoptimized for-of allocates an iterator result per element.
  for (let i = 0; i < nodes.length; i++) {
    const kind = nodes[i]!.kind;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const relations = new Map<string, number>();
  const confidence = { EXTRACTED: 0, INFERRED: 0, AMBIGUOUS: 0 };
  // Counted in runs: links come grouped by source, and a source's links often share a relation.
  let run = '';
  let runLength = 0;
  const endRun = (): void => {
    if (runLength) relations.set(run, (relations.get(run) ?? 0) + runLength);
  };
  for (let j = 0; j < doc.links.length; j++) {
    const l = doc.links[j]!;
    const relation = String(l.relation);
    if (relation !== run) {
      endRun();
      run = relation;
      runLength = 0;
    }
    runLength++;
    const c = l.confidence;
    if (c === 'EXTRACTED') confidence.EXTRACTED++;
    else if (c === 'INFERRED') confidence.INFERRED++;
    else if (c === 'AMBIGUOUS') confidence.AMBIGUOUS++;
  }
  endRun();
  const m = doc.links.length;
  const unresolved = Object.values(meta.unresolved_calls ?? {}).reduce((a, b) => a + b, 0);
  const failed = Object.entries(meta.failed_files ?? {});
  const skipped = Object.entries(meta.skipped_files ?? {});
  const languages = Object.entries(meta.languages ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  out.push('## Summary', '');
  out.push(`- Files: ${kinds.get('file') ?? 0} (${languages.map(([l, c]) => `${l} ${c}`).join(', ') || 'none'})`);
  out.push(`- Nodes: ${nodes.length} (${[...kinds.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, c]) => `${md(k)} ${c}`).join(', ')})`);
  out.push(`- Edges: ${m} (${[...relations.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r, c]) => `${md(r)} ${c}`).join(', ')})`);
  out.push(`- Communities: ${communities.length}${input.algorithm ? ` (${input.algorithm})` : ''}`);
  out.push(`- Confidence: EXTRACTED ${confidence.EXTRACTED} (${pct(confidence.EXTRACTED, m)}), INFERRED ${confidence.INFERRED} (${pct(confidence.INFERRED, m)}), AMBIGUOUS ${confidence.AMBIGUOUS} (${pct(confidence.AMBIGUOUS, m)})`);
  out.push(`- Unresolved call sites: ${unresolved}; dynamic hazards: ${(meta.hazards ?? []).length}`);
  out.push(`- Failed to parse: ${failed.length}; skipped: ${skipped.length}`, '');

  // God nodes
  const degree = new Uint32Array(nodes.length);
  const inDeg = new Uint32Array(nodes.length);
  const dependency = new Uint8Array(ig.src.length);
  for (let e = 0; e < ig.src.length; e++) {
    if (!isDependency(ig, e)) continue;
    dependency[e] = 1;
    degree[ig.src[e]!]!++;
    degree[ig.dst[e]!]!++;
    inDeg[ig.dst[e]!]!++;
  }
  // The god_nodes tool's count (graph/test-reach.ts), so the report and the tool agree.
  const reach = new TestReach(ig, edgeCsr(nodes.length, ig.src, ig.dst));
  const testsOf = (i: number): number => reach.count(i);
  // The GOD_NODES highest degrees (ties by id), picked in one pass instead of sorting every node.
  const godOrder = (a: number, b: number): number => degree[b]! - degree[a]! || (nodes[a]!.id < nodes[b]!.id ? -1 : 1);
  const gods: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (degree[i] === 0 || nodes[i]!.kind === 'file') continue;
    if (gods.length === GOD_NODES && godOrder(i, gods[GOD_NODES - 1]!) >= 0) continue;
    let at = gods.length < GOD_NODES ? gods.length : GOD_NODES - 1;
    while (at > 0 && godOrder(i, gods[at - 1]!) < 0) {
      gods[at] = gods[at - 1]!;
      at--;
    }
    gods[at] = i;
  }
  out.push('## God nodes', '', `Symbols with the most dependency edges (calls, imports, inheritance, references), and how many test files reach each: test files with a test, helper or top-level code that reaches the symbol (or, for a type, one of its members) within ${TEST_REACH_DEPTH} hops of calls, references, named imports, inheritance or uses (the god_nodes tool counts the same way).`, '');
  if (gods.length) {
    out.push('| symbol | kind | file | degree | in | test files reaching |', '|---|---|---|---:|---:|---:|');
    for (const i of gods) {
      const n = nodes[i]!;
      out.push(`| \`${md(nodeName(n))}\` | ${md(n.kind)} | ${md(n.source_file)} | ${degree[i]} | ${inDeg[i]} | ${testsOf(i)} |`);
    }
  } else out.push('(no dependency edges)');
  out.push('');

  // Communities
  const shown = [...communities].sort((a, b) => b.size - a.size || a.id - b.id).slice(0, SHOWN_COMMUNITIES);
  out.push('## Communities', '', `${communities.length} communities; the ${shown.length} largest:`, '');
  if (shown.length) {
    out.push('| id | label | size | cohesion |', '|---:|---|---:|---:|');
    for (const c of shown) out.push(`| ${c.id} | ${md(c.label)} | ${c.size} | ${c.cohesion.toFixed(3)} |`);
  }
  out.push('');

  // Surprising connections
  const communityOf = new Int32Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) communityOf[i] = (nodes[i]!.community as number | undefined) ?? -1;
  const community = (i: number): number => communityOf[i]!;
  const crossing: number[] = [];
  const scoreOf = new Float64Array(ig.src.length);
  const seenPairs = new Set<string>();
  const contains = relationId('contains');
  for (let e = 0; e < ig.src.length; e++) {
    if (!dependency[e] || ig.rel[e] === contains) continue;
    const s = ig.src[e]!;
    const t = ig.dst[e]!;
    if (community(s) === community(t)) continue;
    crossing.push(e);
    scoreOf[e] = betweenness[s]! + betweenness[t]!;
  }
  // One row per node pair, and at most two rows per node, so one hub does not fill the table.
  const top: { e: number; score: number }[] = [];
  const uses = new Map<number, number>();
  for (const e of bestFirst(crossing, scoreOf)) {
    const s = { e, score: scoreOf[e]! };
    const a = ig.src[s.e]!;
    const b = ig.dst[s.e]!;
    const key = `${a}>${b}`;
    if (seenPairs.has(key) || (uses.get(a) ?? 0) >= 2 || (uses.get(b) ?? 0) >= 2) continue;
    seenPairs.add(key);
    uses.set(a, (uses.get(a) ?? 0) + 1);
    uses.set(b, (uses.get(b) ?? 0) + 1);
    top.push(s);
    if (top.length >= SURPRISES) break;
  }
  out.push('## Surprising connections', '', 'Edges between different communities, ranked by the betweenness of their endpoints.', '');
  if (top.length) {
    out.push('| from | relation | to | communities | where | score |', '|---|---|---|---|---|---:|');
    for (const { e, score } of top) {
      const l = ig.links[e]!;
      const s = nodes[ig.src[e]!]!;
      const t = nodes[ig.dst[e]!]!;
      out.push(`| \`${md(nodeName(s))}\` | ${md(l.relation)} | \`${md(nodeName(t))}\` | ${community(ig.src[e]!)} -> ${community(ig.dst[e]!)} | ${md(l.source_file)}:${md(l.source_location)} | ${score.toFixed(1)} |`);
    }
  } else out.push('(none: no dependency edge crosses communities)');
  out.push('');

  // Suggested questions
  out.push('## Suggested questions', '');
  const questions: string[] = [];
  for (const i of gods.slice(0, 3)) {
    questions.push(`What calls \`${md(nodeName(nodes[i]!))}\`, and which tests would break if it changed?`);
  }
  if (top[0]) {
    const l = ig.links[top[0].e]!;
    questions.push(`Why does \`${md(nodeName(nodes[ig.src[top[0].e]!]!))}\` (${md(l.source_file)}) depend on \`${md(nodeName(nodes[ig.dst[top[0].e]!]!))}\` in another community?`);
  }
  const biggest = shown[0];
  if (biggest) questions.push(`What are the entry points of community ${biggest.id} (${md(biggest.label)})?`);
  const loose = [...communities].filter((c) => c.size >= 5).sort((a, b) => a.cohesion - b.cohesion || a.id - b.id)[0];
  if (loose) questions.push(`Community ${loose.id} (${md(loose.label)}) has the lowest cohesion (${loose.cohesion.toFixed(2)}): should it be split?`);
  const ambiguous = doc.links.find((l) => l.confidence === 'AMBIGUOUS');
  if (ambiguous) questions.push(`Which target does the ambiguous call at ${md(ambiguous.source_file)}:${md(ambiguous.source_location)} really reach?`);
  if ((meta.hazards ?? []).length) questions.push('Where does the code dispatch dynamically (by name, eval, dynamic import), and what could those sites reach?');
  const untested = gods.find((i) => testsOf(i) === 0);
  if (untested !== undefined) questions.push(`\`${md(nodeName(nodes[untested]!))}\` is central but no test reaches it: what would a test for it look like?`);
  out.push(...(questions.length ? questions.map((q) => `- ${q}`) : ['- (graph too small for suggestions)']), '');

  // Failed and skipped files
  out.push('## Files that failed to parse', '');
  out.push(...(failed.length ? failed.map(([f, msg]) => `- ${md(f)}: ${md(msg)}`) : ['(none)']), '');
  out.push('## Skipped files', '');
  if (skipped.length) {
    const reasons = new Map<string, number>();
    for (const [, r] of skipped) {
      const key = r.startsWith('too large') ? 'too large' : r;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    out.push(`By reason: ${[...reasons.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r, c]) => `${md(r)} ${c}`).join(', ')}.`, '');
    for (const [f, r] of skipped.slice(0, 30)) out.push(`- ${md(f)}: ${md(r)}`);
    if (skipped.length > 30) out.push(`- ... and ${skipped.length - 30} more (see graph.json graph.skipped_files)`);
  } else out.push('(none)');
  out.push('');
  return out.join('\n');
}
