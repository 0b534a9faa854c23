/**
 * Scores a written graph.json's call links against an oracle file (oracle.ts output), the way
 * score.ts scores an in-process extract: unique (caller, callee) pairs of `calls` and `instantiates` links from
 * TypeScript files, overload suffixes dropped, AMBIGUOUS links left out. For graphs the CLI wrote,
 * e.g. by `synaptic extract --precise`.
 *
 *   node --import tsx bench/accuracy/score-graph.ts <graph.json> <oracle.tsv> [--js] [--misses N]
 */
import { readFileSync } from 'node:fs';
import { scoreGraphPairs } from './graph-pairs.ts';

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
const graph = JSON.parse(readFileSync(graphPath, 'utf8')) as Parameters<typeof scoreGraphPairs>[1];
const { ours, lines } = scoreGraphPairs(graphPath, graph, truth, file);
for (const line of lines) console.log(line);
if (showMisses) {
  for (const x of [...ours].filter((y) => !truth.has(y)).slice(0, showMisses)) console.log(`FP ${x}`);
  for (const x of [...truth].filter((y) => !ours.has(y)).slice(0, showMisses)) console.log(`FN ${x}`);
}
