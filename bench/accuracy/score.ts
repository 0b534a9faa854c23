/**
 * Scores the extractor's call edges against the TypeScript checker oracle.
 *
 *   node --import tsx bench/accuracy/score.ts <repo-dir> [oracle.tsv] [--misses N] [--js]
 *
 * `--js`: JavaScript files are scored too (the oracle made with `oracle.ts --js`).
 *
 * Without an oracle file the oracle is computed (slow: a full type check). Pairs are unique
 * (caller, callee) ids with overload suffixes (`~2`) removed. Reports precision/recall/F1 for
 * EXTRACTED+INFERRED call links, and with AMBIGUOUS links added.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extractRepo } from './extract-repo.ts';
import { oraclePairs } from './oracle.ts';

const TS_FILE = /\.(c|m)?tsx?$/;
const TS_JS_FILE = /\.(c|m)?(t|j)sx?$/;

function prf(ours: Set<string>, truth: Set<string>): { p: number; r: number; f1: number; tp: number } {
  let tp = 0;
  for (const x of ours) if (truth.has(x)) tp++;
  const p = ours.size ? tp / ours.size : 0;
  const r = truth.size ? tp / truth.size : 0;
  return { p, r, f1: p + r ? (2 * p * r) / (p + r) : 0, tp };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const root = args[0];
  if (!root) throw new TypeError('Cannot score: usage score.ts <repo-dir> [oracle.tsv] [--misses N]');
  const oracleFile = args[1] && !args[1].startsWith('--') ? args[1] : undefined;
  const mi = args.indexOf('--misses');
  const showMisses = mi >= 0 ? Number(args[mi + 1] ?? 20) : 0;
  const js = args.includes('--js');
  const truth = oracleFile && existsSync(oracleFile)
    ? new Set(readFileSync(oracleFile, 'utf8').split('\n').filter(Boolean))
    : oraclePairs(root, js);
  const ex = await extractRepo(root, (p) => (js ? TS_JS_FILE : TS_FILE).test(p));
  const strip = (id: string): string => id.replace(/~\d+$/, '');
  const sure = new Set<string>();
  const all = new Set<string>();
  for (const l of ex.result.links) {
    if (l.relation !== 'calls' && l.relation !== 'instantiates') continue; // (the issue scores calls + instantiates)
    const pair = `${strip(l.source)}\t${strip(l.target)}`;
    all.add(pair);
    if (l.confidence !== 'AMBIGUOUS') sure.add(pair);
  }
  const a = prf(sure, truth);
  const b = prf(all, truth);
  const pct = (x: number): string => (100 * x).toFixed(1) + '%';
  const unresolved = Object.values(ex.result.unresolvedCalls).reduce((s, n) => s + n, 0);
  console.log(`repo ${root}: ${ex.files} files, ${ex.lines} lines; parse ${ex.parseMs.toFixed(0)} ms, link ${ex.linkMs.toFixed(0)} ms`);
  console.log(`oracle pairs ${truth.size}; ours ${sure.size} (+${all.size - sure.size} ambiguous); unresolved call sites ${unresolved}`);
  console.log(`EXTRACTED+INFERRED: P ${pct(a.p)} R ${pct(a.r)} F1 ${pct(a.f1)} (tp ${a.tp})`);
  console.log(`with AMBIGUOUS:     P ${pct(b.p)} R ${pct(b.r)} F1 ${pct(b.f1)} (tp ${b.tp})`);
  if (showMisses) {
    const fp = [...all].filter((x) => !truth.has(x));
    const fn = [...truth].filter((x) => !all.has(x));
    console.log(`\n-- false positives (${fp.length}):`);
    for (const x of fp.slice(0, showMisses)) console.log('FP ' + x);
    console.log(`\n-- false negatives (${fn.length}):`);
    for (const x of fn.slice(0, showMisses)) console.log('FN ' + x);
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
