/**
 * Scores a graph document's call links against the checker oracle's pairs, as score.ts counts
 * them: unique (caller, callee) pairs of `calls` and `instantiates` links from the files `file`
 * matches, overload suffixes dropped, AMBIGUOUS links left out. Shared by score-graph.ts and precise.ts.
 */
interface ScoredGraph {
  nodes: { source_file?: string }[];
  links: { source: string; target: string; relation: string; confidence?: string; source_file: string }[];
}

const strip = (id: string): string => id.replace(/~\d+$/, '');
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const f1 = (p: number, r: number): number => (p + r ? (2 * p * r) / (p + r) : 0);

/**
 * The graph's pairs, the oracle's pairs within the files the graph analysed, and the report lines
 * (all files; then the analysed files, when the oracle has pairs elsewhere).
 */
export function scoreGraphPairs(label: string, graph: ScoredGraph, truth: Set<string>, file: RegExp): { ours: Set<string>; analysedTruth: string[]; lines: string[] } {
  const ours = new Set<string>();
  for (const l of graph.links) {
    if ((l.relation !== 'calls' && l.relation !== 'instantiates') || l.confidence === 'AMBIGUOUS' || !file.test(l.source_file)) continue;
    ours.add(`${strip(l.source)}\t${strip(l.target)}`);
  }
  let tp = 0;
  for (const x of ours) if (truth.has(x)) tp++;
  const p = ours.size ? tp / ours.size : 0;
  const r = truth.size ? tp / truth.size : 0;
  const lines = [`${label}: oracle ${truth.size} pairs, ours ${ours.size}: P ${pct(p)} R ${pct(r)} F1 ${pct(f1(p, r))} (tp ${tp})`];
  // The same over the files the graph analysed: the walk skips generated files (a `@generated` /
  // "auto-generated" marker, `*.pb.ts`, ...), whose pairs the oracle still counts.
  const analysed = new Set(graph.nodes.map((n) => n.source_file).filter((f): f is string => !!f));
  const truthA = [...truth].filter((pair) => pair.split('\t').every((id) => analysed.has(id.split('#')[0]!)));
  if (truthA.length !== truth.size) {
    const rA = truthA.length ? truthA.filter((x) => ours.has(x)).length / truthA.length : 0;
    lines.push(`  over the graph's ${analysed.size} files (${truth.size - truthA.length} oracle pairs in skipped files): oracle ${truthA.length}: P ${pct(p)} R ${pct(rA)} F1 ${pct(f1(p, rA))}`);
  }
  return { ours, analysedTruth: truthA, lines };
}
