/**
 * Scores a written graph.json's call links against an oracle file (oracle.ts output), the way
 * score.ts scores an in-process extract: unique (caller, callee) pairs of `calls` and `instantiates` links from
 * TypeScript files, overload suffixes dropped, AMBIGUOUS links left out. For graphs the CLI wrote,
 * e.g. by `synaptic extract --precise`.
 *
 *   node --import tsx bench/accuracy/score-graph.ts <graph.json> <oracle.tsv> [--js] [--misses N]
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const [graphPath, oraclePath] = args;
if (!graphPath || !oraclePath) {
  console.error('usage: score-graph.ts <graph.json> <oracle.tsv> [--js] [--misses N]');
  process.exit(2);
}
const js = args.includes('--js');
const mi = args.indexOf('--misses');
const showMisses = mi >= 0 ? Number(args[mi + 1] ?? 20) : 0;
const file = js ? /\.(c|m)?(t|j)sx?$/ : /\.(c|m)?tsx?$/;
const truth = new Set(readFileSync(oraclePath, 'utf8').split('\n').filter(Boolean));
const graph = JSON.parse(readFileSync(graphPath, 'utf8')) as {
  nodes: { source_file?: string }[];
  links: { source: string; target: string; relation: string; confidence: string; source_file: string }[];
};
const strip = (id: string): string => id.replace(/~\d+$/, '');
const ours = new Set<string>();
for (const l of graph.links) {
  if ((l.relation !== 'calls' && l.relation !== 'instantiates') || l.confidence === 'AMBIGUOUS' || !file.test(l.source_file)) continue;
  ours.add(`${strip(l.source)}\t${strip(l.target)}`);
}
let tp = 0;
for (const x of ours) if (truth.has(x)) tp++;
const p = ours.size ? tp / ours.size : 0;
const r = truth.size ? tp / truth.size : 0;
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
console.log(`${graphPath}: oracle ${truth.size} pairs, ours ${ours.size}: P ${pct(p)} R ${pct(r)} F1 ${pct(p + r ? (2 * p * r) / (p + r) : 0)} (tp ${tp})`);
// The same over the files the graph analysed: the walk skips generated files (a `@generated` /
// "auto-generated" marker, `*.pb.ts`, ...), whose pairs the oracle still counts.
const analysed = new Set(graph.nodes.map((n) => n.source_file).filter((f): f is string => !!f));
const inGraph = (pair: string): boolean => pair.split('\t').every((id) => analysed.has(id.split('#')[0]!));
const truthA = [...truth].filter(inGraph);
if (truthA.length !== truth.size) {
  const rA = truthA.length ? truthA.filter((x) => ours.has(x)).length / truthA.length : 0;
  console.log(`  over the graph's ${analysed.size} files (${truth.size - truthA.length} oracle pairs in skipped files): oracle ${truthA.length}: P ${pct(p)} R ${pct(rA)} F1 ${pct(p + rA ? (2 * p * rA) / (p + rA) : 0)}`);
}
if (showMisses) {
  for (const x of [...ours].filter((y) => !truth.has(y)).slice(0, showMisses)) console.log(`FP ${x}`);
  for (const x of [...truth].filter((y) => !ours.has(y)).slice(0, showMisses)) console.log(`FN ${x}`);
}
