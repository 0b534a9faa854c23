// Kernel benchmarks: the WASM core (src/core) against the plain-JS Int32Array CSR baseline
// (bench/baseline-csr.ts) at every R-MAT scale, and against graphology at one smaller scale
// (graphology needs minutes per kernel at scale 20). Also Louvain/Leiden on a planted-partition
// graph and bytes per edge. Each scenario checks that both sides computed the same answer.
import { Core, type CoreGraph } from '../src/core/index.ts';
import * as plain from './baseline-csr.ts';
import * as gl from './baseline-graphology.ts';
import { rmat, plantedByDegree, Rng, type EdgeList } from './gen.ts';
import { measure, ms, type Runs } from './measure.ts';

export interface KernelRow {
  kernel: string;
  graph: string;
  n: number;
  m: number;
  ours: number;
  baselineName: string;
  baseline: number;
  /** baseline / ours (> 1: we are faster); for memory rows, baseline bytes / ours bytes. */
  ratio: number;
  unit: 'ms' | 'B/edge';
  target: string;
  met: boolean | null;
  /** Same answer on both sides (checked outside the timed runs); quality notes for communities. */
  check: string;
}

export interface KernelConfig {
  quick: boolean;
  scales: number[];
  edgeFactor: number;
  /** The scale at which graphology also runs. */
  graphologyScale: number;
  planted: { n: number; k: number; degIn: number; degOut: number };
  verbose: boolean;
  /** Runs per scale: light kernels and heavy ones (communities, graphology builds). */
  runs: (scale: number, heavy: boolean) => Runs;
  log: (msg: string) => void;
}

const RELATIONS = 8;

function relations(m: number, seed: number): Uint8Array {
  const rng = new Rng(seed);
  const rel = new Uint8Array(m);
  for (let i = 0; i < m; i++) rel[i] = rng.nextU32() % RELATIONS;
  return rel;
}

function topOutDegree(g: plain.BaselineCsr): number {
  let best = 0;
  for (let v = 1; v < g.n; v++) if (g.outOff[v + 1]! - g.outOff[v]! > g.outOff[best + 1]! - g.outOff[best]!) best = v;
  return best;
}

function seedsWithInEdges(g: plain.BaselineCsr, count: number, seed: number): number[] {
  const rng = new Rng(seed);
  const seeds: number[] = [];
  for (let tries = 0; seeds.length < count && tries < 100 * count; tries++) {
    const v = rng.below(g.n);
    if (g.inOff[v + 1]! > g.inOff[v]! && !seeds.includes(v)) seeds.push(v);
  }
  return seeds;
}

function sameInts(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function maxAbsDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

const fmtQ = (q: number): string => q.toFixed(4);

function row(r: Omit<KernelRow, 'ratio' | 'met' | 'unit'> & { unit?: 'ms' | 'B/edge'; minRatio?: number; extraOk?: boolean }): KernelRow {
  const ratio = r.baseline / r.ours;
  const met = r.minRatio === undefined ? null : ratio >= r.minRatio && (r.extraOk ?? true);
  const { minRatio: _m, extraOk: _e, ...rest } = r;
  const out: KernelRow = { ...rest, unit: r.unit ?? 'ms', ratio, met };
  onRow?.(out);
  return out;
}

/** Called with every row as soon as it is measured (progress on long runs). */
let onRow: ((r: KernelRow) => void) | undefined;

export async function kernelsSuite(cfg: KernelConfig): Promise<KernelRow[]> {
  const core = await Core.load();
  onRow = (r) => cfg.log(`    ${r.kernel} ${r.graph}: ours ${r.ours.toPrecision(4)} ${r.unit}, ${r.baselineName} ${r.baseline.toPrecision(4)} ${r.unit}, ratio ${r.ratio.toFixed(2)}x ${r.check}`);
  const rows: KernelRow[] = [];
  for (const scale of cfg.scales) {
    const t0 = performance.now();
    const e = rmat({ scale, edgeFactor: cfg.edgeFactor, seed: scale });
    cfg.log(`rmat-${scale}: n=${e.n} m=${e.src.length} generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    rows.push(...(await graphSuite(core, cfg, `rmat-${scale}`, scale, e, scale === cfg.graphologyScale)));
  }
  const p = cfg.planted;
  const pg = plantedByDegree({ n: p.n, k: p.k, degIn: p.degIn, degOut: p.degOut, seed: 1 });
  const pname = `planted-${p.n}/k${p.k}`;
  cfg.log(`${pname}: n=${pg.n} m=${pg.src.length}`);
  rows.push(...(await communitySuite(core, cfg, pname, Math.round(Math.log2(p.n)), pg, true, pg.membership)));
  return rows;
}

async function graphSuite(core: Core, cfg: KernelConfig, name: string, scale: number, e: EdgeList, withGraphology: boolean): Promise<KernelRow[]> {
  const rows: KernelRow[] = [];
  const { n, src, dst } = e;
  const m = src.length;
  const rel = relations(m, scale);
  const light = cfg.runs(scale, false);
  const heavy = cfg.runs(scale, true);
  const base = { graph: name, n, m };
  cfg.log(`  ${name}: build`);

  // --- CSR build, copy-in included (both directions, relation bytes) ---
  const buildTasks: { name: string; fn: () => unknown; runs?: Runs }[] = [
    { name: 'ours', fn: () => core.graph({ n, src, dst, rel }).free() },
    { name: 'plain-js', fn: () => plain.buildCsr(n, src, dst, rel) },
  ];
  if (withGraphology) buildTasks.push({ name: 'graphology', fn: () => gl.buildDirected(n, src, dst), runs: heavy });
  const tb = await measure({ name: `build ${name}`, tasks: buildTasks, runs: light }, cfg.verbose);
  rows.push(row({ ...base, kernel: 'CSR build (copy-in)', ours: ms(tb, 'ours'), baselineName: 'plain-js', baseline: ms(tb, 'plain-js'), target: '>= 1.5x', minRatio: 1.5, check: 'out+in CSR, rel bytes' }));
  if (withGraphology) rows.push(row({ ...base, kernel: 'graph build', ours: ms(tb, 'ours'), baselineName: 'graphology', baseline: ms(tb, 'graphology'), target: 'report', check: 'graphology: no rel attribute' }));

  const g: CoreGraph = core.graph({ n, src, dst, rel });
  const c = plain.buildCsr(n, src, dst, rel);
  const gd = withGraphology ? gl.buildDirected(n, src, dst) : null;
  try {
    // --- memory ---
    const ourBytes = g.bytes() / m;
    const plainBytes = (c.outOff.byteLength + c.outDst.byteLength + c.outRel.byteLength + c.inOff.byteLength + c.inSrc.byteLength + c.inRel.byteLength) / m;
    rows.push(row({ ...base, kernel: 'memory (both dirs + rel)', unit: 'B/edge', ours: ourBytes, baselineName: 'plain-js', baseline: plainBytes, target: '<= 16 B/edge', check: 'exact array bytes', minRatio: 0, extraOk: ourBytes <= 16 }));
    if (withGraphology) {
      const gb = graphologyBytesPerEdge(n, src, dst);
      if (gb !== null) rows.push(row({ ...base, kernel: 'memory (both dirs)', unit: 'B/edge', ours: ourBytes, baselineName: 'graphology', baseline: gb, target: '<= 16 B/edge', check: 'heap delta (gc)', minRatio: 0, extraOk: ourBytes <= 16 }));
    }

    // --- BFS (top-down plain JS; ours may be direction-optimizing) ---
    cfg.log(`  ${name}: bfs, reverse reach, components`);
    const source = topOutDegree(c);
    const bfsSame = sameInts(g.bfs(source), plain.bfs(c, source));
    const bfsTasks: { name: string; fn: () => unknown; runs?: Runs }[] = [
      { name: 'ours', fn: () => g.bfs(source) },
      { name: 'plain-js', fn: () => plain.bfs(c, source) },
    ];
    if (gd) bfsTasks.push({ name: 'graphology', fn: () => gl.bfs(gd, n, source), runs: heavy });
    const tbfs = await measure({ name: `bfs ${name}`, tasks: bfsTasks, runs: light }, cfg.verbose);
    rows.push(row({ ...base, kernel: 'BFS', ours: ms(tbfs, 'ours'), baselineName: 'plain-js', baseline: ms(tbfs, 'plain-js'), target: '>= 3x', minRatio: 3, check: bfsSame ? 'same dist' : 'DIFFERENT dist' }));
    if (gd) {
      const glSame = sameInts(gl.bfs(gd, n, source), plain.bfs(c, source));
      rows.push(row({ ...base, kernel: 'BFS', ours: ms(tbfs, 'ours'), baselineName: 'graphology', baseline: ms(tbfs, 'graphology'), target: 'report', check: glSame ? 'same dist' : 'DIFFERENT dist' }));
    }

    // --- reverse k-hop ---
    const seeds = seedsWithInEdges(c, 8, scale);
    const k = 3;
    const a = g.reverseReach(seeds, { k });
    const b = plain.reverseReach(c, seeds, k);
    const reachSame = sameInts(Array.from(a.nodes).sort((x, y) => x - y), Array.from(b.nodes).sort((x, y) => x - y));
    const treach = await measure({ name: `reverse reach ${name}`, tasks: [
      { name: 'ours', fn: () => g.reverseReach(seeds, { k }) },
      { name: 'plain-js', fn: () => plain.reverseReach(c, seeds, k) },
    ], runs: light }, cfg.verbose);
    rows.push(row({ ...base, kernel: `reverse ${k}-hop (8 seeds)`, ours: ms(treach, 'ours'), baselineName: 'plain-js', baseline: ms(treach, 'plain-js'), target: '>= 2x', minRatio: 2, check: `${reachSame ? 'same' : 'DIFFERENT'} set of ${a.nodes.length}` }));

    // --- weak components ---
    const wa = g.components('weak');
    const wb = plain.weakComponents(c);
    const tw = await measure({ name: `weak components ${name}`, tasks: [
      { name: 'ours', fn: () => g.components('weak') },
      { name: 'plain-js', fn: () => plain.weakComponents(c) },
    ], runs: light }, cfg.verbose);
    rows.push(row({ ...base, kernel: 'weak components', ours: ms(tw, 'ours'), baselineName: 'plain-js', baseline: ms(tw, 'plain-js'), target: '>= 2x', minRatio: 2, check: wa.count === wb.count && sameInts(wa.label, wb.label) ? `same ${wa.count} labels` : 'DIFFERENT labels' }));

    // --- PageRank, 20 iterations ---
    cfg.log(`  ${name}: pagerank`);
    const prDiff = maxAbsDiff(g.pagerank({ iterations: 20, tolerance: 0 }), plain.pagerank(c, { iterations: 20 }));
    const prTasks: { name: string; fn: () => unknown; runs?: Runs }[] = [
      { name: 'ours', fn: () => g.pagerank({ iterations: 20, tolerance: 0 }) },
      { name: 'plain-js', fn: () => plain.pagerank(c, { iterations: 20 }) },
    ];
    if (gd) prTasks.push({ name: 'graphology', fn: () => gl.pagerankIterations(gd, 20), runs: heavy });
    const tpr = await measure({ name: `pagerank ${name}`, tasks: prTasks, runs: light }, cfg.verbose);
    rows.push(row({ ...base, kernel: 'PageRank (20 it)', ours: ms(tpr, 'ours'), baselineName: 'plain-js', baseline: ms(tpr, 'plain-js'), target: '>= 2x', minRatio: 2, check: `max diff ${prDiff.toExponential(1)}` }));
    if (gd) rows.push(row({ ...base, kernel: 'PageRank (20 it)', ours: ms(tpr, 'ours'), baselineName: 'graphology', baseline: ms(tpr, 'graphology'), target: 'report', check: '' }));
  } finally {
    g.free();
  }
  rows.push(...(await communitySuite(core, cfg, name, scale, e, withGraphology, null, heavy)));
  return rows;
}

/** Louvain (ours vs plain JS vs graphology) and Leiden (vs our Louvain), with modularity. */
async function communitySuite(core: Core, cfg: KernelConfig, name: string, scale: number, e: EdgeList, withGraphology: boolean, planted: Uint32Array | null, runs?: Runs): Promise<KernelRow[]> {
  const rows: KernelRow[] = [];
  const { n, src, dst } = e;
  const m = src.length;
  const heavy = runs ?? cfg.runs(scale, true);
  const base = { graph: name, n, m };
  cfg.log(`  ${name}: louvain, leiden${withGraphology ? ', graphology louvain' : ''}`);
  const g = core.graph({ n, src, dst });
  const c = plain.buildCsr(n, src, dst);
  const gu = withGraphology ? gl.buildUndirectedSimple(n, src, dst) : null;
  try {
    const qOurs = g.louvain({ seed: 1 }).modularity;
    const qLeiden = g.leiden({ seed: 1 }).modularity;
    const qPlain = plain.louvain(c).modularity;
    let qGraphology = NaN;
    if (gu) qGraphology = g.modularity(gl.louvain(gu, n, 1).membership);
    const qPlanted = planted ? g.modularity(planted) : NaN;
    const tasks: { name: string; fn: () => unknown; runs?: Runs }[] = [
      { name: 'ours-louvain', fn: () => g.louvain({ seed: 1 }) },
      { name: 'ours-leiden', fn: () => g.leiden({ seed: 1 }) },
      { name: 'plain-js', fn: () => plain.louvain(c) },
    ];
    if (gu) tasks.push({ name: 'graphology', fn: () => gl.louvain(gu, n, 1) });
    const t = await measure({ name: `communities ${name}`, tasks, runs: heavy }, cfg.verbose);
    const planNote = planted ? `, planted ${fmtQ(qPlanted)}` : '';
    rows.push(row({ ...base, kernel: 'Louvain', ours: ms(t, 'ours-louvain'), baselineName: 'plain-js', baseline: ms(t, 'plain-js'), target: 'report', check: `Q ${fmtQ(qOurs)} vs ${fmtQ(qPlain)}${planNote}` }));
    if (gu) {
      rows.push(row({ ...base, kernel: 'Louvain', ours: ms(t, 'ours-louvain'), baselineName: 'graphology', baseline: ms(t, 'graphology'), target: '>= 10x, Q >=', minRatio: 10, extraOk: qOurs >= qGraphology - 1e-9, check: `Q ${fmtQ(qOurs)} vs ${fmtQ(qGraphology)}${planNote}` }));
    }
    // Leiden against our own Louvain: within 1.5x of its time, modularity at least as high.
    rows.push(row({ ...base, kernel: 'Leiden vs our Louvain', ours: ms(t, 'ours-leiden'), baselineName: 'ours-louvain', baseline: ms(t, 'ours-louvain'), target: '>= 0.67x, Q >=', minRatio: 1 / 1.5, extraOk: qLeiden >= qOurs - 1e-9, check: `Q ${fmtQ(qLeiden)} vs ${fmtQ(qOurs)}` }));
  } finally {
    g.free();
  }
  return rows;
}

/** graphology's heap bytes per edge for the directed multigraph, or null without --expose-gc. */
function graphologyBytesPerEdge(n: number, src: Uint32Array, dst: Uint32Array): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  gc();
  const before = process.memoryUsage();
  const g = gl.buildDirected(n, src, dst);
  gc();
  gc();
  const after = process.memoryUsage();
  const bytes = after.heapUsed - before.heapUsed + (after.external - before.external);
  if (g.size !== src.length) throw new Error('Cannot measure graphology memory: edge count differs');
  return bytes / src.length;
}
