// Extraction benchmark, end to end through the CLI: lines per CPU-second and peak RSS of
// `synaptic extract`, the time of a one-file `synaptic update`, and how much faster graph.cbor loads
// than graph.json. Targets (issue 3): >= 20k lines/CPU-s, peak RSS <= 800 MB at 640k lines,
// one-file update <= 1 s, graph.cbor >= 5x faster to load than JSON.parse(graph.json). The update here
// runs in a fresh process; see bench/extract-update.bench.ts for updates by the background updater.
// Run: `EXTRACT_BENCH_REPO=/tmp/corpus/prisma npx tsx bench/extract.bench.ts` (a real repository kept
// outside this repo; without one it benches the fixture repo: CI quick mode).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeGraph, decodeSnapshot } from '../src/graph/snapshot.ts';
import { readHeadCommit, type ExtractSummary } from '../src/extract/pipeline.node.ts';

export interface ExtractBenchOptions {
  /** Repository to extract (default: EXTRACT_BENCH_REPO, else the fixture repo). */
  repo?: string;
  /** Worker threads for the extract (default: the CLI's choice). */
  workers?: number;
  /** Print a table (default true). */
  print?: boolean;
}

export interface ExtractBenchResult {
  repo: string;
  commit: string | null;
  /** `dist` (compiled CLI) or `tsx` (sources). */
  cli: 'dist' | 'tsx';
  files: number;
  lines: number;
  nodes: number;
  links: number;
  /** CPU seconds of the whole extract process (all threads, startup included). */
  cpuSeconds: number;
  wallSeconds: number;
  linesPerCpuSecond: number;
  peakRssMb: number;
  /** Per-phase CPU milliseconds of the full extract. */
  phasesCpuMs: ExtractSummary['cpuMs'];
  /** One-file `synaptic update`: wall ms of the whole command (process start to exit). */
  updateWallMs: number;
  /** ... and of the pipeline inside it (excluding Node startup). */
  updatePipelineMs: number;
  updateCpuMs: number;
  updateParsed: number;
  graphJsonBytes: number;
  graphCborBytes: number;
  /** Best-of-n CPU ms: JSON.parse(graph.json), decodeSnapshot(graph.cbor), decodeGraph(graph.cbor). */
  jsonParseMs: number;
  cborColumnsMs: number;
  cborDocumentMs: number;
  /** JSON.parse(graph.json) time / decodeSnapshot(graph.cbor) time. */
  cborVsJson: number;
  /** JSON.parse time / decodeGraph (full GraphDocument objects) time. */
  cborDocumentVsJson: number;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/repo');

function cliCommand(): { argv: string[]; kind: 'dist' | 'tsx' } {
  const dist = join(ROOT, 'dist/cli/main.js');
  if (existsSync(dist)) return { argv: [dist], kind: 'dist' };
  return { argv: ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')], kind: 'tsx' };
}

interface RunResult {
  summary: ExtractSummary & { processCpuMs?: number };
  wallMs: number;
}

function runCli(args: string[]): RunResult {
  const cli = cliCommand();
  const started = performance.now();
  const r = spawnSync(process.execPath, [...cli.argv, ...args, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`Cannot run synaptic ${args[0]}: exit ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return { summary: JSON.parse(r.stdout) as RunResult['summary'], wallMs };
}

/** Best-of-n CPU milliseconds of `fn` (CPU, not wall time: the machine may be shared). */
function timeIt(fn: () => unknown, n: number): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const t = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / 1000);
  }
  return best;
}

/** A source file of middling size to edit for the one-file update. */
function pickFileToEdit(repo: string, manifestPath: string): string {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Record<string, { size: number; status: string; language: string }> };
  const candidates = Object.entries(manifest.files)
    .filter(([p, e]) => e.status === 'ok' && (e.language === 'typescript' || e.language === 'tsx' || e.language === 'javascript') && !p.endsWith('.d.ts'))
    .sort((a, b) => a[1].size - b[1].size || (a[0] < b[0] ? -1 : 1));
  const pick = candidates[Math.floor(candidates.length / 2)] ?? Object.entries(manifest.files)[0];
  if (!pick) throw new Error(`Cannot bench update: no extracted file in ${repo}`);
  return join(repo, pick[0]);
}

/** Run the extraction benchmark. */
export async function runExtractBench(options: ExtractBenchOptions = {}): Promise<ExtractBenchResult> {
  const given = options.repo ?? process.env.EXTRACT_BENCH_REPO;
  const work = mkdtempSync(join(tmpdir(), 'synaptic-extract-bench-'));
  try {
    let repo = given;
    if (!repo) {
      repo = join(work, 'repo');
      cpSync(FIXTURE, repo, { recursive: true, filter: (src) => !src.includes('synaptic-out') });
    }
    if (!existsSync(repo) || !statSync(repo).isDirectory()) throw new Error(`Cannot bench extraction: '${repo}' is not a directory`);
    const out = join(work, 'out');
    const workerArgs = options.workers !== undefined ? ['--workers', String(options.workers)] : [];
    const full = runCli(['extract', repo, '--out', out, ...workerArgs]);
    const s = full.summary;
    const cpuMs = s.processCpuMs ?? s.cpuMs.total;

    // One-file update: append a comment to a mid-sized file, update, then restore it (and update again).
    const file = pickFileToEdit(repo, join(out, '.manifest.json'));
    const original = readFileSync(file);
    let upd: RunResult;
    try {
      writeFileSync(file, Buffer.concat([original, Buffer.from('\n// synaptic bench edit\n')]));
      upd = runCli(['update', repo, '--out', out, ...workerArgs]);
    } finally {
      writeFileSync(file, original);
    }
    runCli(['update', repo, '--out', out, ...workerArgs]);

    // Load: graph.json vs graph.cbor.
    const jsonText = readFileSync(join(out, 'graph.json'), 'utf8');
    const cbor = readFileSync(join(out, 'graph.cbor'));
    const reps = jsonText.length > 20e6 ? 3 : 7;
    const jsonParseMs = timeIt(() => JSON.parse(jsonText), reps);
    const cborColumnsMs = timeIt(() => decodeSnapshot(cbor), reps);
    const cborDocumentMs = timeIt(() => decodeGraph(cbor), reps);

    const result: ExtractBenchResult = {
      repo: given ? basename(repo) : 'fixture',
      commit: given ? readHeadCommit(repo) : null,
      cli: cliCommand().kind,
      files: s.files,
      lines: s.lines,
      nodes: s.nodes,
      links: s.links,
      cpuSeconds: cpuMs / 1000,
      wallSeconds: full.wallMs / 1000,
      linesPerCpuSecond: Math.round(s.lines / (cpuMs / 1000)),
      peakRssMb: s.peakRssMb,
      phasesCpuMs: s.cpuMs,
      updateWallMs: Math.round(upd.wallMs),
      updatePipelineMs: upd.summary.timingsMs.total,
      updateCpuMs: upd.summary.processCpuMs ?? upd.summary.cpuMs.total,
      updateParsed: upd.summary.parsed,
      graphJsonBytes: Buffer.byteLength(jsonText),
      graphCborBytes: cbor.length,
      jsonParseMs: round(jsonParseMs),
      cborColumnsMs: round(cborColumnsMs),
      cborDocumentMs: round(cborDocumentMs),
      cborVsJson: round(jsonParseMs / cborColumnsMs),
      cborDocumentVsJson: round(jsonParseMs / cborDocumentMs),
    };
    if (options.print !== false) {
      console.table({
        [`extract ${result.repo}`]: {
          files: result.files, lines: result.lines, 'cpu s': round(result.cpuSeconds), 'lines/cpu-s': result.linesPerCpuSecond,
          'wall s': round(result.wallSeconds), 'peak RSS MB': result.peakRssMb,
        },
        'update (1 file, fresh process)': { files: result.updateParsed, 'wall s': round(result.updateWallMs / 1000), 'cpu s': round(result.updateCpuMs / 1000) },
        'load graph.json vs graph.cbor': {
          'json ms': result.jsonParseMs, 'cbor columns ms': result.cborColumnsMs, 'cbor doc ms': result.cborDocumentMs,
          'ratio (columns)': result.cborVsJson, 'ratio (doc)': result.cborDocumentVsJson,
        },
      });
    }
    return result;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const workers = process.env.EXTRACT_BENCH_WORKERS;
  runExtractBench(workers ? { workers: Number(workers) } : {}).then(
    (r) => console.log(JSON.stringify(r)),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
