// plan_rename (and predict_edit) latency on a real graph, through the tool handlers serve runs.
//
//   node --import tsx bench/rename.bench.ts <synaptic-out dir> <source root> [symbol] [new name]
//
// Default: a copy of prisma's outputs in SYNAPTIC_BENCH_OUT (copy /tmp/corpus/prisma/synaptic-out to your
// own folder: another bench may update the corpus's own) over the source in SYNAPTIC_BENCH_ROOT, and
// ifDefined (packages/1-framework/0-foundation/utils/src/defined.ts: ~500 references in ~180 files).
// Target (issue 19): plan_rename of a symbol with ~500 references <= 50 ms warm. The machine is shared:
// each round times the tool's wall and CPU (process.cpuUsage) and the table gives min / median of
// BENCH_ROUNDS (default 15) rounds. Results: bench/results/rename.json.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Core } from '../src/core/index.ts';
import { loadGraph } from '../src/graph/load.node.ts';
import { NORMAL_DEFAULTS, type GraphToolContext } from '../src/mcp/tools/context.ts';
import { createPlanRenameTool } from '../src/mcp/tools/plan-rename.ts';
import { createPredictEditTool } from '../src/mcp/tools/predict-edit.ts';
import { coreTraversal } from '../src/query/core-traversal.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { indexSnapshot } from '../src/query/snapshot-index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const [outArg, rootArg, symbolArg, toArg] = process.argv.slice(2);
const outDir = outArg ?? process.env.SYNAPTIC_BENCH_OUT;
const sourceRoot = rootArg ?? process.env.SYNAPTIC_BENCH_ROOT ?? '/tmp/corpus/prisma';
if (!outDir) throw new Error('Cannot run the rename bench: pass a synaptic-out folder (a copy of prisma\'s) and its source root, or set SYNAPTIC_BENCH_OUT');
const symbol = symbolArg ?? 'ifDefined';
const to = toArg ?? 'ifPresent';
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);

const graphPath = join(outDir, 'graph.json');
const loaded = await loadGraph(graphPath);
const traversal = coreTraversal(await Core.load());
const engine = loaded.snapshot ? new QueryEngine(indexSnapshot(loaded.snapshot).doc, traversal, { edges: indexSnapshot(loaded.snapshot).edges }) : new QueryEngine(loaded.doc!, traversal);
engine.warm(); // what a serving process does in idle time
const ctx: GraphToolContext = { engine: async () => engine, sourceRoot: realpathSync(sourceRoot), defaults: NORMAL_DEFAULTS, graphPath };
const rename = createPlanRenameTool(ctx);
const predict = createPredictEditTool(ctx);

const res = engine.resolve(symbol);
if (res.status !== 'found') throw new Error(`Cannot run the rename bench: '${symbol}' does not resolve to one node (${res.status})`);
let references = 0;
for (let i = engine.ix.inOff[res.node]!; i < engine.ix.inOff[res.node + 1]!; i++) if (engine.ix.relName(engine.ix.inEdges[i]!) !== 'contains') references++;

interface Row { tool: string; 'wall min': number; 'wall median': number; 'cpu min': number; 'cpu median': number; first: number }

async function time(name: string, run: () => Promise<unknown>): Promise<Row> {
  const t0 = performance.now();
  await run();
  const first = performance.now() - t0;
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    await run();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const r1 = (x: number) => Math.round(x * 10) / 10;
  return { tool: name, 'wall min': r1(Math.min(...wall)), 'wall median': r1(med(wall)), 'cpu min': r1(Math.min(...cpu)), 'cpu median': r1(med(cpu)), first: r1(first) };
}

const load0 = loadavg()[0]!;
const planned = await rename.handler({ name: symbol, to, verbose: true });
const header = planned.content[0]!.text.split('\n')[0]!;
const rows = [
  await time(`plan_rename ${symbol} -> ${to} (limit 50)`, () => Promise.resolve(rename.handler({ name: symbol, to }))),
  await time(`plan_rename ${symbol} -> ${to} (verbose)`, () => Promise.resolve(rename.handler({ name: symbol, to, verbose: true }))),
  await time(`predict_edit ${symbol} delete`, () => Promise.resolve(predict.handler({ symbol, kind: 'delete' }))),
  await time(`predict_edit ${symbol} signature`, () => Promise.resolve(predict.handler({ symbol, kind: 'signature' }))),
];
const result = { graph: graphPath, sourceRoot, symbol, references, plan: header, rounds, load: [load0, loadavg()[0]!], at: new Date().toISOString(), rows };
console.log(`${symbol}: ${references} incoming references; ${header}`);
console.table(rows);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/rename.json'), JSON.stringify(result, null, 2) + '\n');
