/**
 * Scores a written graph.json's call links against a hand-checked truth (#17, other languages).
 *
 * A truth file (bench/accuracy/truths/<lang>-<repo>.tsv) lists every call site, in the files it
 * covers, whose callee is defined in the repository: `caller<TAB>callee<TAB>line[<TAB>note]`, ids
 * spelled as the extractor spells them (`path#Qualified.name`, the module: `path`). Lines starting
 * with `#` are comments; `# files: a.py b.py` (one or more such lines) names the covered files.
 * Scored over unique (caller, callee) pairs: recall = truth pairs the graph has; precision = graph
 * `calls`/`instantiates` pairs (not AMBIGUOUS) whose caller lies in a covered file that the truth has.
 *
 *   node --import tsx bench/accuracy/score-truth.ts <graph.json> <truth.tsv> [--misses N]
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const [graphPath, truthPath] = args;
if (!graphPath || !truthPath) {
  console.error('usage: score-truth.ts <graph.json> <truth.tsv> [--misses N]');
  process.exit(2);
}
const mi = args.indexOf('--misses');
const showMisses = mi >= 0 ? Number(args[mi + 1] ?? 50) : 0;

const files = new Set<string>();
const truth = new Set<string>();
let sites = 0;
for (const raw of readFileSync(truthPath, 'utf8').split('\n')) {
  const line = raw.trimEnd();
  if (!line) continue;
  if (line.startsWith('#')) {
    const m = /^#\s*files:\s*(.*)$/.exec(line);
    if (m) for (const f of m[1]!.split(/\s+/).filter(Boolean)) files.add(f);
    continue;
  }
  const [caller, callee] = line.split('\t');
  if (!caller || !callee) throw new Error(`${truthPath}: not 'caller<TAB>callee<TAB>line': ${line}`);
  truth.add(`${caller}\t${callee}`);
  sites++;
}
if (files.size === 0) throw new Error(`${truthPath}: no '# files:' line names the covered files`);

interface Graph { links: { source: string; target: string; relation: string; confidence?: string }[] }
const graph = JSON.parse(readFileSync(graphPath, 'utf8')) as Graph;
const fileOf = (id: string): string => id.split('#')[0]!;
const ours = new Set<string>();
for (const l of graph.links) {
  if ((l.relation !== 'calls' && l.relation !== 'instantiates') || l.confidence === 'AMBIGUOUS') continue;
  if (files.has(fileOf(l.source))) ours.add(`${l.source}\t${l.target}`);
}
let tp = 0;
for (const x of ours) if (truth.has(x)) tp++;
const p = ours.size ? tp / ours.size : 0;
const r = truth.size ? tp / truth.size : 0;
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
console.log(`${truthPath}: ${files.size} files, ${sites} sites, ${truth.size} pairs; graph ${ours.size} pairs: P ${pct(p)} R ${pct(r)} F1 ${pct(p + r ? (2 * p * r) / (p + r) : 0)} (tp ${tp})`);
if (showMisses) {
  for (const x of [...ours].filter((y) => !truth.has(y)).slice(0, showMisses)) console.log(`FP ${x}`);
  for (const x of [...truth].filter((y) => !ours.has(y)).slice(0, showMisses)) console.log(`FN ${x}`);
}
