/**
 * Precise mode's checker pass alone, over a default-mode graph the CLI wrote: applies it in
 * process (no cache), prints its CPU and peak RSS, and scores the result like score-graph.ts.
 * For measuring changes to src/extract/precise/ without the default extract each time.
 *
 *   node --import tsx bench/accuracy/precise.ts <repo-dir> <default graph.json> <oracle.tsv> [--out graph.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resourceUsage } from 'node:process';
import type { GraphDocument } from '../../src/graph/model.ts';
import { applyPrecise } from '../../src/extract/precise/index.node.ts';
import { scoreGraphPairs } from './graph-pairs.ts';

const args = process.argv.slice(2);
const [root, graphPath, oraclePath] = args;
if (!root || !graphPath || !oraclePath) {
  console.error('usage: precise.ts <repo-dir> <default graph.json> <oracle.tsv> [--out graph.json]');
  process.exit(2);
}
const doc = JSON.parse(readFileSync(graphPath, 'utf8')) as GraphDocument;
const cpu0 = process.cpuUsage();
const summary = await applyPrecise(root, doc);
const cpu = process.cpuUsage(cpu0);
const oi = args.indexOf('--out');
if (oi >= 0) writeFileSync(args[oi + 1]!, JSON.stringify(doc));

const truth = new Set(readFileSync(oraclePath, 'utf8').split('\n').filter(Boolean));
console.log(`checker: ${summary.sites} sites in ${summary.files} files, +${summary.added} -${summary.dropped} =${summary.upgraded}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, wall ${(summary.ms / 1000).toFixed(1)} s, peak RSS ${Math.round(resourceUsage().maxRSS / 1024)} MB`);
const { ours, analysedTruth: truthA, lines } = scoreGraphPairs('precise', doc, truth, /\.(c|m)?tsx?$/);
for (const line of lines) console.log(line);
const mi = args.indexOf('--misses');
if (mi >= 0) {
  for (const x of [...ours].filter((y) => !truth.has(y))) console.log(`FP ${x}`);
  for (const x of truthA.filter((y) => !ours.has(y))) console.log(`FN ${x}`);
}
