// `npm run bench`: the kernel and boundary suites, printed as ratio tables and written as JSON to
// bench/results/<name>.json. BENCH_QUICK=1: tiny graphs and few runs (CI proves the benches run;
// no timing asserts). BENCH_SCALES=16,18 picks R-MAT scales; BENCH_NAME names the result file;
// BENCH_VERBOSE=1 also prints tinybench's own tables.
import { mkdirSync, writeFileSync, renameSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { kernelsSuite, type KernelConfig, type KernelRow } from './kernels.bench.ts';
import { boundarySuite, type BoundaryRow } from './boundary.bench.ts';
import { runExtractBench } from './extract.bench.ts';
import { runMemoryBench } from './memory.bench.ts';
import { runHttpBench } from './http.bench.ts';
import { runExplorerBench } from './explorer.bench.ts';
import { runMeshReliabilityBench } from './mesh-reliability.bench.ts';

const quick = process.env.BENCH_QUICK === '1';
const verbose = process.env.BENCH_VERBOSE === '1';
const scales = process.env.BENCH_SCALES
  ? process.env.BENCH_SCALES.split(',').map((s) => Number(s.trim()))
  : quick ? [10, 12] : [16, 18, 20];
if (scales.some((s) => !Number.isInteger(s) || s < 1 || s > 24)) {
  throw new Error(`Cannot run benchmarks: BENCH_SCALES must be integers in 1..24, got ${process.env.BENCH_SCALES}`);
}
const name = process.env.BENCH_NAME ?? (quick ? 'quick' : 'full');
if (!/^[\w.-]+$/.test(name)) throw new Error(`Cannot run benchmarks: BENCH_NAME must be a plain file name, got ${name}`);
const started = Date.now();
const loadAtStart = loadavg()[0]!;
const log = (msg: string): void => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)}s] ${msg}`);

const cfg: KernelConfig = {
  quick,
  scales,
  edgeFactor: 8,
  graphologyScale: quick ? 10 : Number(process.env.BENCH_GRAPHOLOGY_SCALE ?? 16),
  planted: quick ? { n: 1024, k: 8, degIn: 12, degOut: 4 } : { n: 1 << 16, k: 64, degIn: 12, degOut: 4 },
  verbose,
  runs: (scale, heavy) => {
    if (quick) return { iterations: 2, warmup: heavy ? 0 : 1 };
    if (scale <= 16) return heavy ? { iterations: 3, warmup: 1 } : { iterations: 7, warmup: 2 };
    if (scale <= 18) return heavy ? { iterations: 2, warmup: 0 } : { iterations: 5, warmup: 1 };
    return heavy ? { iterations: 1, warmup: 0 } : { iterations: 3, warmup: 1 };
  },
  log,
};

log(`mode ${quick ? 'quick' : 'full'}; R-MAT scales ${scales.join(', ')}; graphology at scale ${cfg.graphologyScale}`);
log('boundary suite');
const boundary = await boundarySuite({ quick, verbose });
log('kernel suite');
const kernels = await kernelsSuite(cfg);

const f = (v: number, unit = 'ms'): string => (unit === 'B/edge' ? v.toFixed(1) : v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(3));
console.log('\nPer-call overhead (ns per call, batched)');
console.table(boundary.map((b: BoundaryRow) => ({
  call: b.call, 'ours ns': b.oursNs.toFixed(1), baseline: b.baselineName, 'baseline ns': b.baselineNs.toFixed(1), 'ours/baseline': b.overhead.toFixed(2), note: b.note,
})));
const table = (rows: KernelRow[]): Record<string, string>[] => rows.map((r) => ({
  kernel: r.kernel,
  graph: r.graph,
  [`ours`]: `${f(r.ours, r.unit)} ${r.unit}`,
  baseline: r.baselineName,
  [`baseline val`]: `${f(r.baseline, r.unit)} ${r.unit}`,
  ratio: `${r.ratio.toFixed(2)}x`,
  target: r.target,
  'met?': r.met === null ? '-' : r.met ? 'yes' : 'NO',
  check: r.check,
}));
console.log('\nOurs vs plain-JS Int32Array CSR (ratio = plain-js / ours; > 1 = core faster)');
console.table(table(kernels.filter((r) => r.baselineName === 'plain-js')));
console.log(`\nOurs vs graphology, at scale ${cfg.graphologyScale} only (graphology needs minutes per kernel at scale 20)`);
console.table(table(kernels.filter((r) => r.baselineName === 'graphology')));
console.log('\nLeiden vs our Louvain (ratio = Louvain time / Leiden time; target: Leiden within 1.5x, Q at least Louvain\'s)');
console.table(table(kernels.filter((r) => r.baselineName === 'ours-louvain')));
console.log(`\nload average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end (${cpus().length} cores)`);
if (quick) console.log('\nBENCH_QUICK: tiny graphs, few runs; targets are for scale 20 and are not asserted.');

// The product-level suites (extraction, memory, HTTP load, the browser explorer). Each is measured
// in its own terms; a suite that fails is reported and fails the run, the others still run.
// BENCH_SUITES=extract,memory,http,explorer,mesh picks some; BENCH_SUITES=none skips them.
const productSuites: Record<string, () => Promise<unknown>> = {
  extract: () => runExtractBench({ print: false }),
  memory: async () => runMemoryBench({ quick, print: false }),
  http: () => runHttpBench({ quick, graph: process.env.HTTP_BENCH_GRAPH, log }),
  explorer: () => runExplorerBench({ quick, graph: process.env.EXPLORER_BENCH_GRAPH, log }),
  mesh: async () => {
    // The table shows the counts that must be 0 and the wake p99; the JSON keeps every row.
    const r = await runMeshReliabilityBench({ quick, print: false, log });
    const flat = r.rows.flatMap((x) => [[`${x.backend} lost`, x.lost], [`${x.backend} wrong project`, x.wrongProject], [`${x.backend} claimed twice`, x.claimedTwice], [`${x.backend} wake p99 ms`, x.wakeP99Ms]]);
    return { ...Object.fromEntries(flat), ...Object.fromEntries(Object.entries(r.skipped).map(([b, why]) => [`${b} skipped`, why])), rows: r.rows };
  },
};
const wanted = (process.env.BENCH_SUITES ?? Object.keys(productSuites).join(',')).split(',').map((x) => x.trim()).filter((x) => x && x !== 'none');
const products: Record<string, unknown> = {};
for (const suite of wanted) {
  const run = productSuites[suite];
  if (!run) throw new Error(`Cannot run benchmarks: unknown suite '${suite}' in BENCH_SUITES (known: ${Object.keys(productSuites).join(', ')})`);
  log(`${suite} suite`);
  try {
    products[suite] = await run();
  } catch (err) {
    products[suite] = { error: err instanceof Error ? err.message : String(err) };
    log(`${suite} suite failed: ${(products[suite] as { error: string }).error}`);
    process.exitCode = 1;
  }
  console.log(`\n${suite}`);
  console.table(Object.fromEntries(Object.entries(products[suite] as Record<string, unknown>).filter(([, v]) => typeof v !== 'object' || v === null)));
}

const result = {
  name,
  date: new Date().toISOString(),
  quick,
  node: process.version,
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', memGiB: Math.round(totalmem() / 2 ** 30) },
  /** 1-minute load average at start and end: a shared machine makes absolute times noisy, ratios less so. */
  load: { start: loadAtStart, end: loadavg()[0]! },
  config: { scales, edgeFactor: cfg.edgeFactor, graphologyScale: cfg.graphologyScale, planted: cfg.planted, statistic: 'median of timed runs (tinybench)' },
  seconds: Math.round((Date.now() - started) / 1000),
  boundary,
  kernels,
  products,
};
const dir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}${name}.json`;
writeFileSync(`${file}.tmp`, JSON.stringify(result, null, 2) + '\n');
renameSync(`${file}.tmp`, file);
log(`wrote ${file} (${result.seconds} s)`);

// Not a timing assert: a benchmark whose two sides computed different answers measures nothing.
const wrong = kernels.filter((r) => r.check.includes('DIFFERENT'));
if (wrong.length > 0) {
  log(`Cannot trust these ratios: ${wrong.length} scenario(s) gave different answers: ${wrong.map((r) => `${r.kernel} ${r.graph}`).join(', ')}`);
  process.exitCode = 1;
}
