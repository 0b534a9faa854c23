import type { GraphDocument, GraphNode } from '../../graph/model.ts';
import { edgeCsr, type EdgeCsr, type IndexedGraph } from '../../graph/indexed-graph.ts';
import { OTHER_RELATION_ID, relationId } from '../../graph/model.ts';
import type { CommunityStats } from '../../graph/communities.ts';
import { symbolUse } from '../../graph/community-names.ts';
import { edgeConfidence, surprisingConnections, whySurprising } from '../../graph/surprises.ts';
import { TEST_REACH_DEPTH, TestReach } from '../../graph/test-reach.ts';
import { sanitize } from '../../graph/sanitize.ts';
import { startReading } from './start-here.ts';

/**
 * GRAPH_REPORT.md: a digest of a graph for a person (and an agent): where to start reading, counts
 * and the confidence breakdown, god nodes (highest degree) with how many tests reach them,
 * communities by name (graph/community-names.ts), size and cohesion, surprising connections between
 * otherwise barely connected communities (graph/surprises.ts), questions worth asking the graph, and
 * the files that failed to parse or were skipped. Every name is printed through sanitize.
 * Deterministic: the same graph gives the same bytes. Browser-safe.
 */

export interface ReportInput {
  doc: GraphDocument;
  indexed: IndexedGraph;
  communities: CommunityStats[];
  /** Partition algorithm, for the record. */
  algorithm?: string;
  /**
   * The parts that depend only on the graph's structure (the edge CSR, "Start reading here", the
   * god nodes and their test reach), filled by this render; pass the previous render's to a graph
   * of the same structure (same nodes, edges and communities; only positions moved) and they are
   * not computed again.
   */
  memo?: ReportMemo;
}

/** See ReportInput.memo. */
export interface ReportMemo {
  csr?: EdgeCsr;
  reading?: ReturnType<typeof startReading>;
  gods?: { lines: string[]; rows: { node: number; tests: number }[] };
  /** The surprising connections and the per-edge confidence they were found with (they depend on it too). */
  surprises?: { confidence: Uint8Array; rows: ReturnType<typeof surprisingConnections> };
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
export function renderReport(input: ReportInput): string {
  const { doc, indexed: ig, communities } = input;
  const meta = doc.graph;
  const out: string[] = [];
  out.push(`# Graph report: ${md(meta.name ?? 'repository')}`, '');
  out.push(`Extractor ${md(meta.extractor_version ?? '?')}; commit ${doc.built_at_commit ? '`' + doc.built_at_commit + '`' : '(none)'}.`, '');
  const use = symbolUse(ig);
  const byId = new Map(communities.map((c) => [c.id, c]));
  const name = (id: number): string => `${id} "${md(byId.get(id)?.label ?? '?')}"`;

  out.push('## Start reading here', '');
  const memo = input.memo ?? {};
  const csr = (memo.csr ??= edgeCsr(ig.nodes.length, ig.src, ig.dst));
  const reading = (memo.reading ??= startReading(ig, csr, communities, use));
  if (reading.length) {
    reading.forEach((r, i) => {
      const n = ig.nodes[r.node]!;
      const where = n.kind === 'file' ? '' : ` (${md(n.source_file)})`;
      out.push(`${i + 1}. \`${md(nodeName(n))}\`${where}: ${md(r.why)}${r.community ? ` ${name(r.community.id)}` : ''}.`);
    });
  } else out.push('(nothing stands out: no entry file and no public symbol used from another file)');
  out.push('');

  summary(out, input);
  memo.gods ??= godNodes(ig, csr);
  out.push(...memo.gods.lines);
  const gods = memo.gods.rows;

  // Communities
  const shown = [...communities].sort((a, b) => b.size - a.size || a.id - b.id).slice(0, SHOWN_COMMUNITIES);
  out.push('## Communities', '');
  out.push(
    `${communities.length} communities; the ${shown.length} largest. Each is named by the folder (or file) most of its members sit in and its most used public symbols; ` +
      '"tests:" marks one made (almost) only of test code, and one that mixes code and its tests is named by the code.',
    '',
  );
  if (shown.length) {
    out.push('| id | name | members | in tests | cohesion |', '|---:|---|---:|---:|---:|');
    for (const c of shown) out.push(`| ${c.id} | ${md(c.label)} | ${c.size} | ${pct(c.testMembers, c.size)} | ${c.cohesion.toFixed(3)} |`);
  }
  out.push('');

  // Surprising connections (the synaptic://surprises resource lists the same)
  const community = Int32Array.from(ig.nodes, (n) => (n.community as number | undefined) ?? -1);
  const confidence = edgeConfidence(ig.links);
  const known = memo.surprises;
  const surprises = known && sameBytes(known.confidence, confidence)
    ? known.rows : surprisingConnections(ig, community, confidence, { files: use });
  memo.surprises = { confidence, rows: surprises };
  out.push('## Surprising connections', '');
  out.push(
    'Links between two communities that are otherwise barely connected: at most a few links where the links each community has elsewhere would predict many. ' +
      'Imports, links from test code and links within one file are left out (a file importing what it uses, or a test using its subject, is expected).',
    '',
  );
  if (surprises.length) {
    for (const s of surprises) {
      const l = ig.links[s.edge]!;
      const from = ig.nodes[ig.src[s.edge]!]!;
      const to = ig.nodes[ig.dst[s.edge]!]!;
      const target = to.kind === 'file' ? '' : ` -> ${md(to.source_file)}`;
      out.push(`- \`${md(nodeName(from))}\` ${md(l.relation)} \`${md(nodeName(to))}\` (${md(l.source_file)}:${md(l.source_location)}${target}): ${whySurprising(s, name)}.`);
    }
  } else out.push('(none: every pair of communities that link is about as connected as their links predict)');
  out.push('');

  // Suggested questions
  out.push('## Suggested questions', '');
  const questions: string[] = [];
  for (const g of gods.slice(0, 3)) {
    questions.push(`What calls \`${md(nodeName(ig.nodes[g.node]!))}\`, and which tests would break if it changed?`);
  }
  const first = surprises[0];
  if (first) {
    const l = ig.links[first.edge]!;
    const tie = first.links === 1 ? 'the only link' : `one of ${first.links} links`;
    questions.push(`Why does \`${md(nodeName(ig.nodes[ig.src[first.edge]!]!))}\` (${md(l.source_file)}) depend on \`${md(nodeName(ig.nodes[ig.dst[first.edge]!]!))}\`, ${tie} between their communities?`);
  }
  const biggest = shown.find((c) => !c.mostlyTests);
  if (biggest) questions.push(`What are the entry points of community ${name(biggest.id)}?`);
  const loose = [...communities].filter((c) => c.size >= 5).sort((a, b) => a.cohesion - b.cohesion || a.id - b.id)[0];
  if (loose) questions.push(`Community ${name(loose.id)} has the lowest cohesion (${loose.cohesion.toFixed(2)}): should it be split?`);
  const ambiguous = doc.links.find((l) => l.confidence === 'AMBIGUOUS');
  if (ambiguous) questions.push(`Which target does the ambiguous call at ${md(ambiguous.source_file)}:${md(ambiguous.source_location)} really reach?`);
  if ((meta.hazards ?? []).length) questions.push('Where does the code dispatch dynamically (by name, eval, dynamic import), and what could those sites reach?');
  const untested = gods.find((g) => g.tests === 0);
  if (untested) questions.push(`\`${md(nodeName(ig.nodes[untested.node]!))}\` is central but no test reaches it: what would a test for it look like?`);
  out.push(...(questions.length ? questions.map((q) => `- ${q}`) : ['- (graph too small for suggestions)']), '');

  failedAndSkipped(out, doc);
  return out.join('\n');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The counts: files, nodes, edges, communities, confidence, unresolved sites, failures. */
function summary(out: string[], input: ReportInput): void {
  const { doc, indexed: ig, communities } = input;
  const meta = doc.graph;
  const nodes = ig.nodes;
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
  const failed = Object.keys(meta.failed_files ?? {}).length;
  const skipped = Object.keys(meta.skipped_files ?? {}).length;
  const languages = Object.entries(meta.languages ?? {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  out.push('## Summary', '');
  out.push(`- Files: ${kinds.get('file') ?? 0} (${languages.map(([l, c]) => `${md(l)} ${c}`).join(', ') || 'none'})`);
  out.push(`- Nodes: ${nodes.length} (${[...kinds.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, c]) => `${md(k)} ${c}`).join(', ')})`);
  out.push(`- Edges: ${m} (${[...relations.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r, c]) => `${md(r)} ${c}`).join(', ')})`);
  out.push(`- Communities: ${communities.length}${input.algorithm ? ` (${md(input.algorithm)})` : ''}`);
  out.push(`- Confidence: EXTRACTED ${confidence.EXTRACTED} (${pct(confidence.EXTRACTED, m)}), INFERRED ${confidence.INFERRED} (${pct(confidence.INFERRED, m)}), AMBIGUOUS ${confidence.AMBIGUOUS} (${pct(confidence.AMBIGUOUS, m)})`);
  out.push(`- Unresolved call sites: ${unresolved}; dynamic hazards: ${(meta.hazards ?? []).length}`);
  out.push(`- Failed to parse: ${failed}; skipped: ${skipped}`, '');
}

/** The god-node table's lines, and the hubs with their test counts. */
function godNodes(ig: IndexedGraph, csr: EdgeCsr): { lines: string[]; rows: { node: number; tests: number }[] } {
  const out: string[] = [];
  const nodes = ig.nodes;
  const degree = new Uint32Array(nodes.length);
  const inDeg = new Uint32Array(nodes.length);
  for (let e = 0; e < ig.src.length; e++) {
    if (!isDependency(ig, e)) continue;
    degree[ig.src[e]!]!++;
    degree[ig.dst[e]!]!++;
    inDeg[ig.dst[e]!]!++;
  }
  // The god_nodes tool's count (graph/test-reach.ts), so the report and the tool agree.
  const reach = new TestReach(ig, csr);
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
  const rows = gods.map((node) => ({ node, tests: reach.count(node) }));
  if (rows.length) {
    out.push('| symbol | kind | file | degree | in | test files reaching |', '|---|---|---|---:|---:|---:|');
    for (const { node, tests } of rows) {
      const n = nodes[node]!;
      out.push(`| \`${md(nodeName(n))}\` | ${md(n.kind)} | ${md(n.source_file)} | ${degree[node]} | ${inDeg[node]} | ${tests} |`);
    }
  } else out.push('(no dependency edges)');
  out.push('');
  return { lines: out, rows };
}

function failedAndSkipped(out: string[], doc: GraphDocument): void {
  const failed = Object.entries(doc.graph.failed_files ?? {});
  const skipped = Object.entries(doc.graph.skipped_files ?? {});
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
}
