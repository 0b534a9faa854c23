// structural_search's SYNQL engine on a real graph, warm, in process: the planned evaluator
// (src/query/synql/) next to the naive one (test/reference/synql-naive.ts: every node, every link)
// in the same run, with the ratio.
//
//   node --import tsx bench/synql.bench.ts [graph.json]   (default: SYNAPTIC_BENCH_GRAPH)
//
// Targets (issue 20), on prisma (~24k nodes, ~98k edges): single-node patterns with WHERE <= 5 ms
// p50, one-hop relation patterns <= 20 ms, *1..3 from a selective anchor <= 50 ms.
// BENCH_SYNQL_RUNS (default 40) planned runs per query after 5 warm-up runs; BENCH_NAIVE_RUNS
// (default 2) naive runs. Results: bench/results/synql.json.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RE2JS } from 're2js';
import { Core } from '../src/core/index.ts';
import { coreTraversal } from '../src/query/core-traversal.ts';
import { QueryEngine } from '../src/query/engine.ts';
import { parseSynql } from '../src/query/synql/parser.ts';
import { runSynql } from '../src/query/synql/run.ts';
import { NaiveSynql, type NaiveDoc } from '../test/reference/synql-naive.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const graphPath = process.argv[2] ?? process.env.SYNAPTIC_BENCH_GRAPH;
if (!graphPath) throw new Error('Cannot run the SYNQL bench: pass a graph.json (e.g. a copy of prisma/synaptic-out/graph.json) or set SYNAPTIC_BENCH_GRAPH');
const RUNS = Number(process.env.BENCH_SYNQL_RUNS ?? 40);
const NAIVE_RUNS = Number(process.env.BENCH_NAIVE_RUNS ?? 2);

/** [class, target ms, query]; anchors are names on prisma (any graph works; absent names give empty answers). */
const CASES: Array<[string, number, string]> = [
  ['single-node WHERE', 5, 'MATCH (c:class) WHERE c.loc > 500 RETURN c ORDER BY c.loc DESC'],
  ['single-node WHERE', 5, "MATCH (f:function) WHERE f.name =~ '^create' AND f.params >= 2 RETURN f"],
  ['single-node WHERE', 5, "MATCH (f:function|method) WHERE f.fan_in >= 15 AND f.visibility = 'public' RETURN f.name, f.fan_in ORDER BY f.fan_in DESC"],
  ['one-hop', 20, 'MATCH (c:class)-[:method]->(m:method) RETURN c, count(m) AS methods ORDER BY methods DESC'],
  ['one-hop', 20, "MATCH (f:function)-[:calls]->(g {name: 'blindCast'}) RETURN f"],
  ['one-hop', 20, "MATCH (f:file)-[:imports_from]->(g) WHERE f.file STARTS WITH 'packages/2-sql/' RETURN g.name, count(*) AS n ORDER BY n DESC"],
  ['*1..3 anchored', 50, "MATCH (f {name: 'controlAdapterFor'})<-[:calls*1..3]-(g) RETURN g"],
  ['*1..3 anchored', 50, "MATCH (f:function {name: 'buildSqlContractFromDefinition'})-[:calls|references*1..3]->(g) RETURN g.kind, count(*) AS n ORDER BY n DESC"],
];

const text = readFileSync(graphPath, 'utf8');
const engine = new QueryEngine(JSON.parse(text), coreTraversal(await Core.load()));
engine.warm();
const naive = new NaiveSynql(JSON.parse(text) as NaiveDoc, (p, s) => RE2JS.compile(p).test(s));
console.error(`[synql bench] ${graphPath}: ${engine.ix.n} nodes, ${engine.ix.m} edges, load ${loadavg()[0]!.toFixed(1)}`);

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const rows: Array<Record<string, unknown>> = [];
for (const [kind, target, q] of CASES) {
  let total = 0;
  for (let i = 0; i < 5; i++) total = (await runSynql(engine, q)).table.total; // warm: lazy indexes, memoized fan-in, JIT
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await runSynql(engine, q);
    times.push(performance.now() - t0);
  }
  const parsed = parseSynql(q);
  const naiveTimes: number[] = [];
  let naiveTotal = -1;
  for (let i = 0; i < NAIVE_RUNS; i++) {
    const t0 = performance.now();
    naiveTotal = naive.run(parsed, parsed.limit ?? 25).total;
    naiveTimes.push(performance.now() - t0);
  }
  if (naiveTotal !== total) throw new Error(`SYNQL bench: planned and naive disagree on ${q}: ${total} vs ${naiveTotal} rows`);
  const p50 = quantile(times, 0.5);
  const row = { kind, query: q, rows: total, p50_ms: +p50.toFixed(3), min_ms: +Math.min(...times).toFixed(3), p90_ms: +quantile(times, 0.9).toFixed(3), target_ms: target, naive_median_ms: +quantile(naiveTimes, 0.5).toFixed(1), ratio: +(quantile(naiveTimes, 0.5) / p50).toFixed(0), pass: p50 <= target };
  rows.push(row);
  console.log(`${kind.padEnd(18)} p50 ${row.p50_ms.toFixed(2).padStart(7)} ms  min ${row.min_ms.toFixed(2).padStart(6)}  p90 ${row.p90_ms.toFixed(2).padStart(7)}  target ${String(target).padStart(2)}  naive ${String(row.naive_median_ms).padStart(8)} ms  x${row.ratio}  rows ${total}  ${row.pass ? 'ok' : 'OVER'}  ${q}`);
}
const out = join(ROOT, 'bench/results/synql.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(`${out}.tmp`, JSON.stringify({ graph: graphPath, nodes: engine.ix.n, edges: engine.ix.m, load: loadavg()[0], at: new Date().toISOString(), rows }, null, 2));
renameSync(`${out}.tmp`, out);
