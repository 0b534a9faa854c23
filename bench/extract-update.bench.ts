// One-file `synaptic update` benchmark, end to end through the CLI (process start to exit): an edit
// that only moves lines (a blank line on top: the positions path) and an edit that changes facts (a
// new function calling one of the file's functions: the incremental relink), each followed by the
// update that restores the file. Target (issue 3): <= 1 s on a ~640k-line TypeScript repository.
// Run: `EXTRACT_BENCH_REPO=/tmp/corpus/prisma npx tsx bench/extract-update.bench.ts`
// Options: EXTRACT_BENCH_CLI (path of the compiled main.js to run), EXTRACT_UPDATE_RUNS (default 3), EXTRACT_UPDATE_FILE (repo-relative file to edit),
// EXTRACT_UPDATE_VERIFY=1 (after a facts edit, compare the update's outputs byte for byte with a
// fresh full extract of the same tree), EXTRACT_UPDATE_WATCH=1 (the same edits against one running
// `update --watch`: save-to-outputs-written wall time), EXTRACT_UPDATE_WATCHER=1 (one-shot `update`
// runs handed to a running `update --watch --poll <1 h>`, which never updates on its own: the
// whole update is the one-shot command's; EXTRACT_UPDATE_WATCHER=events: the watcher also watches,
// as when a user saves and then runs `synaptic update`: time from the save to the command's exit).
// EXTRACT_UPDATE_WATCHER=both: after the one full extract, the rounds in fresh processes, then the
// same rounds handed to a keeper started on those outputs (one run: both against one full extract).
// By default every update runs in a fresh process. The full extract the bench starts with is timed
// too, and each update is given as a ratio to it (same run, same machine); a summary gives each
// kind of update's min and median wall, CPU and ratio.
// EXTRACT_UPDATE_PAUSE=<ms>: wait before each update (the first one included).
// Outputs go to a temp folder; the edited file is restored.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExtractSummary } from '../src/extract/pipeline.node.ts';
import { keeperSocketPath } from '../src/extract/keeper-socket.node.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface UpdateRun {
  edit: 'shift' | 'shift-restore' | 'facts' | 'facts-restore';
  /** Who updated: a fresh `synaptic update` process, or the keeper the one-shot command handed it to. */
  via: 'fresh' | 'keeper';
  /** The pid of the watcher or background updater that did the update (none: this command's process). */
  by?: number;
  linkMode: ExtractSummary['linkMode'];
  relinked: number;
  wallMs: number;
  /** CPU ms of the whole update process (startup included). */
  cpuMs: number;
  peakRssMb: number;
  phasesCpuMs: ExtractSummary['cpuMs'];
}

function cli(): string[] {
  if (process.env.EXTRACT_BENCH_CLI) return [process.env.EXTRACT_BENCH_CLI];
  for (const main of ['dist/cli/main.js', 'dist/src/cli/main.js']) if (existsSync(join(ROOT, main))) return [join(ROOT, main)];
  return ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];
}

function run(args: string[]): { summary: ExtractSummary; wallMs: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, [...cli(), ...args, '--json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`Cannot run synaptic ${args[0]}: exit ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return { summary: JSON.parse(r.stdout) as ExtractSummary, wallMs };
}

/** A mid-sized TypeScript file with a top-level function to call. */
function pickFile(repo: string, out: string): string {
  const manifest = JSON.parse(readFileSync(join(out, '.manifest.json'), 'utf8')) as { files: Record<string, { size: number; status: string; language: string }> };
  const ts = Object.entries(manifest.files).filter(([p, e]) => e.status === 'ok' && e.language === 'typescript' && !p.endsWith('.d.ts'));
  const mid = ts.filter(([, e]) => e.size > 4000 && e.size < 40000);
  const candidates = (mid.length ? mid : ts).sort((a, b) => a[1].size - b[1].size || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
  const start = Math.floor(candidates.length / 2);
  for (let k = 0; k < candidates.length; k++) {
    const p = candidates[(start + k) % candidates.length]!;
    if (/^(?:export )?function (\w+)\(\)/m.test(readFileSync(join(repo, p), 'utf8'))) return p;
  }
  throw new Error(`Cannot bench update: no TypeScript file with a parameterless top-level function in ${repo}`);
}

/** The full extract a bench starts with: wall and process CPU ms. */
export interface FullRun {
  wallMs: number;
  cpuMs: number;
}

/** Extract `repo` into `out` (timed), then pick the file to edit (or take `file`) and read it. */
function prepareEdits(repo: string, out: string, file?: string): { rel: string; abs: string; original: string; callee: string | undefined; full: FullRun } {
  const { summary, wallMs } = run(['extract', repo, '--out', out]);
  const rel = file ?? pickFile(repo, out);
  const abs = join(repo, rel);
  const original = readFileSync(abs, 'utf8');
  return { rel, abs, original, callee: /^(?:export )?(?:async )?function (\w+)\(/m.exec(original)?.[1], full: { wallMs: Math.round(wallMs), cpuMs: summary.processCpuMs } };
}

function same(a: string, b: string): boolean {
  return readFileSync(a).equals(readFileSync(b));
}

export async function runUpdateBench(
  repo: string, runs = 3, file?: string, verify = false, viaWatcher: false | 'request' | 'events' | 'both' = false,
): Promise<{ file: string; full: FullRun; runs: UpdateRun[]; verified: boolean | null }> {
  const work = mkdtempSync(join(tmpdir(), 'synaptic-update-bench-'));
  const out = join(work, 'out');
  let restore: (() => void) | null = null;
  let watcher: ReturnType<typeof spawn> | null = null;
  try {
    const { rel, abs, original, callee, full } = prepareEdits(repo, out, file);
    restore = () => writeFileSync(abs, original);
    const results: UpdateRun[] = [];
    const pause = Number(process.env.EXTRACT_UPDATE_PAUSE ?? 0);
    let keeper = false;
    const measure = (edit: UpdateRun['edit'], text: string): void => {
      if (pause > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
      const saved = performance.now();
      writeFileSync(abs, text);
      const { summary: s } = run(['update', repo, '--out', out]);
      const wallMs = performance.now() - saved;
      if (keeper && !('watcherPid' in s)) throw new Error('Cannot bench updates handed to the watcher: the update ran in its own process');
      results.push({
        // Handed to the watcher: the summary's CPU is the watcher's for this update (its process total spans all of them).
        edit, via: keeper ? 'keeper' : 'fresh', linkMode: s.linkMode, relinked: s.relinked, wallMs: Math.round(wallMs), cpuMs: keeper ? s.cpuMs.total : s.processCpuMs, peakRssMb: s.peakRssMb, phasesCpuMs: s.cpuMs,
        ...(s.watcherPid !== undefined ? { by: s.watcherPid } : {}),
      });
    };
    let verified: boolean | null = null;
    const rounds = (): void => {
      let checked = !verify;
      for (let i = 0; i < runs; i++) {
        measure('shift', `\n${original}`);
        measure('shift-restore', original);
        const edited = `${original}\nexport function synapticBench${keeper ? 'Kept' : 'Added'}${i}(): void {\n  ${callee ? `${callee}();` : ''}\n}\n`;
        measure('facts', edited);
        if (!checked) {
          // (fresh updates and a keeper's are each compared once with a full extract of the same tree)
          checked = true;
          const full = join(work, 'full');
          run(['extract', repo, '--out', full]);
          const equal = ['graph.json', 'graph.cbor', 'GRAPH_REPORT.md'].every((f) => same(join(out, f), join(full, f)));
          verified = (verified ?? true) && equal;
          rmSync(full, { recursive: true, force: true });
        }
        measure('facts-restore', original);
      }
    };
    if (viaWatcher === 'both') rounds();
    if (viaWatcher) {
      keeper = true;
      const poll = viaWatcher === 'events' ? [] : ['--poll', '3600000'];
      watcher = spawn(process.execPath, [...cli(), 'update', repo, '--out', out, '--watch', ...poll], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
      const socket = keeperSocketPath(resolve(out));
      for (let t = 0; !existsSync(socket); t++) {
        if (t > 600) throw new Error('Cannot bench updates handed to the watcher: it did not start within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      // Warm-up, one round as the watch bench does: the watcher's first updates read the previous
      // outputs (facts cache, link cache) from disk and run cold code.
      measure('shift', `\n${original}`);
      measure('shift-restore', original);
      measure('facts', `${original}\nexport function synapticBenchWarmup(): void {\n  ${callee ? `${callee}();` : ''}\n}\n`);
      measure('facts-restore', original);
      results.splice(results.length - 4, 4);
    }
    rounds();
    restore();
    restore = null;
    return { file: rel, full, runs: results, verified };
  } finally {
    restore?.();
    if (watcher) {
      const exited = new Promise((r) => watcher!.once('exit', r));
      watcher.kill('SIGINT');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The same edits against one `synaptic update --watch` process: wall time from writing the file to
 * the update's summary line (the outputs are rewritten by then), i.e. what an editor-save costs when
 * the watcher runs. The watcher's first (catch-up) run is not counted.
 */
export async function runWatchBench(repo: string, runs = 3, file?: string): Promise<{ file: string; runs: UpdateRun[] }> {
  const work = mkdtempSync(join(tmpdir(), 'synaptic-watch-bench-'));
  const out = join(work, 'out');
  let restore: (() => void) | null = null;
  const child = spawn(process.execPath, [...cli(), 'update', repo, '--out', out, '--watch', '--json'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const { rel, abs, original, callee } = prepareEdits(repo, out, file);
    restore = () => writeFileSync(abs, original);
    let buffer = '';
    const waiting: ((line: string) => void)[] = [];
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        waiting.shift()?.(line);
      }
    });
    const nextSummary = (): Promise<ExtractSummary> => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Cannot bench --watch: no update within 60 s')), 60_000);
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as ExtractSummary);
      });
    });
    // Settle: the watcher's catch-up run sees the fresh extract's outputs (nothing to do, no line),
    // so a first edit-and-restore pair warms it up.
    await new Promise((r) => setTimeout(r, 1500));
    const results: UpdateRun[] = [];
    const measure = async (edit: UpdateRun['edit'], text: string): Promise<void> => {
      const started = performance.now();
      const pending = nextSummary();
      writeFileSync(abs, text);
      const s = await pending;
      results.push({ edit, via: 'keeper', linkMode: s.linkMode, relinked: s.relinked, wallMs: Math.round(performance.now() - started), cpuMs: s.cpuMs.total, peakRssMb: s.peakRssMb, phasesCpuMs: s.cpuMs });
    };
    for (let i = 0; i <= runs; i++) {
      const edited = `${original}\nexport function synapticWatchAdded${i}(): void {\n  ${callee ? `${callee}();` : ''}\n}\n`;
      await measure('shift', `\n${original}`);
      await measure('shift-restore', original);
      await measure('facts', edited);
      await measure('facts-restore', original);
    }
    restore();
    restore = null;
    return { file: rel, runs: results.slice(4) };
  } finally {
    child.kill('SIGINT');
    restore?.();
    await new Promise((r) => setTimeout(r, 200));
    rmSync(work, { recursive: true, force: true });
  }
}

/** Per kind of update (fresh or keeper; lines moved or facts changed): min and median wall and CPU, and their ratio to the full extract. */
export function summarize(runs: UpdateRun[], full: FullRun): Record<string, string | number>[] {
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) >> 1]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
  };
  const groups = new Map<string, UpdateRun[]>();
  for (const x of runs) {
    const key = `${x.via} ${x.edit.startsWith('shift') ? 'lines moved' : 'facts changed'}`;
    groups.set(key, [...(groups.get(key) ?? []), x]);
  }
  return [...groups].map(([update, xs]) => {
    const wall = xs.map((x) => x.wallMs);
    const cpu = xs.map((x) => x.cpuMs);
    return {
      update, n: xs.length, 'wall min ms': Math.min(...wall), 'wall median ms': median(wall), 'cpu min ms': Math.min(...cpu), 'cpu median ms': median(cpu),
      'median wall / full': (median(wall) / full.wallMs).toFixed(3), 'median cpu / full': (median(cpu) / full.cpuMs).toFixed(3),
    };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.env.EXTRACT_UPDATE_WATCH === '1') {
  const repo = process.env.EXTRACT_BENCH_REPO;
  if (!repo) throw new Error('EXTRACT_UPDATE_WATCH=1 needs EXTRACT_BENCH_REPO');
  runWatchBench(repo, Number(process.env.EXTRACT_UPDATE_RUNS ?? 3), process.env.EXTRACT_UPDATE_FILE).then((r) => {
    console.table(r.runs.map((x) => ({ edit: x.edit, mode: x.linkMode, relinked: x.relinked, 'save->written ms': x.wallMs, 'update cpu ms': x.cpuMs, 'rss MB': x.peakRssMb })));
    console.log(JSON.stringify({ watch: true, ...r }));
  }, (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let repo = process.env.EXTRACT_BENCH_REPO;
  let scratch: string | null = null;
  if (!repo) {
    scratch = mkdtempSync(join(tmpdir(), 'synaptic-update-fixture-'));
    repo = join(scratch, 'repo');
    cpSync(join(ROOT, 'test/fixtures/repo'), repo, { recursive: true, filter: (src) => !src.includes('synaptic-out') });
  }
  const runs = Number(process.env.EXTRACT_UPDATE_RUNS ?? 3);
  const watcher = process.env.EXTRACT_UPDATE_WATCHER;
  runUpdateBench(repo, runs, process.env.EXTRACT_UPDATE_FILE, process.env.EXTRACT_UPDATE_VERIFY === '1',
    watcher === 'events' ? 'events' : watcher === 'both' ? 'both' : watcher === '1' ? 'request' : false).then(
    (r) => {
      console.log(`full extract: ${r.full.wallMs} ms wall, ${r.full.cpuMs} ms CPU`);
      console.table(r.runs.map((x) => ({
        via: x.via, edit: x.edit, mode: x.linkMode, relinked: x.relinked, 'wall ms': x.wallMs, 'cpu ms': x.cpuMs,
        'wall / full': (x.wallMs / r.full.wallMs).toFixed(3), 'cpu / full': (x.cpuMs / r.full.cpuMs).toFixed(3), 'rss MB': x.peakRssMb, by: x.by ?? '',
      })));
      console.table(summarize(r.runs, r.full));
      console.log(JSON.stringify({ file: r.file, verified: r.verified, full: r.full, runs: r.runs }));
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  ).finally(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
}
