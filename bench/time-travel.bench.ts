// time_travel_diff HEAD~20..HEAD against the extractions it is measured by (issue 19), in one process,
// interleaved rounds on a copy of a real repository with history:
//   full    a full extract of the working tree (the cold baseline)
//   update  one incremental update after a one-file edit (the neighbour baseline)
//   cold    time_travel_diff with no revision cached (the served outputs exist, as under serve)
//   bare    time_travel_diff with no outputs at all (every revision a full extract)
//   near    time_travel_diff with a cached neighbour (HEAD~21 and HEAD cached, HEAD~20 not)
// Targets: near <= 3x update, cold <= 1.2x full. Prints min and median of each and the ratios.
// Run: `TIME_TRAVEL_REPO=/tmp/corpus/hono npx tsx bench/time-travel.bench.ts` (the repo is copied first;
// TIME_TRAVEL_ROUNDS, default 3; TIME_TRAVEL_CASES=update,near times only those, after one full extract).
// In one process, as under serve: a call keeps its worktree and graphs for the next (revision-memory.node.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Core } from '../src/core/index.ts';
import { runExtract } from '../src/extract/pipeline.node.ts';
import { revisionsDir } from '../src/extract/revision-cache.node.ts';
import { timeTravel } from '../src/extract/time-travel.node.ts';
import { openRepo, resolveCommit } from '../src/extract/worktree.node.ts';

const source = process.env.TIME_TRAVEL_REPO ?? '/tmp/corpus/hono';
const rounds = Number(process.env.TIME_TRAVEL_ROUNDS ?? 3);
const work = mkdtempSync(join(tmpdir(), 'synaptic-tt-bench-'));
const repoDir = join(work, 'repo');
cpSync(source, repoDir, { recursive: true, filter: (p) => !p.includes('synaptic-out') });
// The copy's files have new stats: refresh the index once, as a real checkout has it (git then compares stats, not contents).
execFileSync('git', ['-C', repoDir, 'update-index', '-q', '--refresh'], { stdio: 'ignore' });
const out = join(repoDir, 'synaptic-out');
const core = await Core.load();
const repo = openRepo(repoDir);
const sha = (rev: string) => resolveCommit(repo, rev);

/** How each side was built in the last timed run of each kind (how, from, files parsed, ms). */
const builds: Record<string, string> = {};
async function timed(fn: () => Promise<unknown>, kind?: string): Promise<number> {
  const t = performance.now();
  const r = await fn();
  const ms = performance.now() - t;
  if (kind && r && typeof r === 'object' && 'rev1' in r) {
    const tt = r as Awaited<ReturnType<typeof timeTravel>>;
    const b = (n?: { how: string; kept?: true; from?: string; parsed?: number; ms: number; steps?: Record<string, number> }) =>
      n ? `${n.how}${n.kept ? ' (kept)' : ''}${n.from ? ` from ${n.from.slice(0, 10)}` : ''}${n.parsed !== undefined ? `, ${n.parsed} parsed` : ''}, ${n.ms} ms${n.steps ? ` (${Object.entries(n.steps).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}` : '-';
    builds[kind] = `rev1 ${b(tt.rev1.build)}; rev2 ${b(tt.rev2.build)}; call ${Object.entries(tt.steps ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')}; total ${ms.toFixed(0)} ms`;
  }
  return ms;
}

const cases = new Set((process.env.TIME_TRAVEL_CASES ?? 'full,update,cold,bare,near').split(','));
const times: Record<string, number[]> = Object.fromEntries(['full', 'update', 'cold', 'bare', 'near'].filter((k) => cases.has(k)).map((k) => [k, []]));
const only = (kind: string, fn: () => Promise<void>) => (cases.has(kind) ? fn() : Promise.resolve());
// The file the one-file update edits: TIME_TRAVEL_EDIT, else the first .ts source file under a src/ folder.
const edited = process.env.TIME_TRAVEL_EDIT ?? execFileSync('git', ['-C', repoDir, 'ls-files', '*.ts'], { encoding: 'utf8' }).split('\n').find((f) => /(^|\/)src\//.test(f) && !/test|spec/.test(f));
if (!edited) throw new Error('no .ts file under a src/ folder to edit: set TIME_TRAVEL_EDIT');
const original = readFileSync(join(repoDir, edited), 'utf8');
try {
  // Without full/cold: the outputs and HEAD~20, HEAD cached once, untimed; each round then builds
  // HEAD~21 from HEAD~20 (untimed) and HEAD~20 from HEAD~21 (timed).
  if (!cases.has('full')) await runExtract({ root: repoDir, outDir: out, incremental: false });
  if (!cases.has('cold')) await timeTravel({ dir: repoDir, outDir: out, rev1: 'HEAD~20', rev2: 'HEAD', core });
  for (let r = 0; r < rounds; r++) {
    await only('bare', async () => {
      rmSync(out, { recursive: true, force: true });
      times.bare!.push(await timed(() => timeTravel({ dir: repoDir, outDir: out, rev1: 'HEAD~20', rev2: 'HEAD', core }), 'bare'));
    });
    await only('full', async () => {
      rmSync(out, { recursive: true, force: true });
      times.full!.push(await timed(() => runExtract({ root: repoDir, outDir: out, incremental: false })));
    });
    writeFileSync(join(repoDir, edited), `${original}\nexport function benchEdit${r}(): number {\n  return ${r};\n}\n`);
    const update = await timed(() => runExtract({ root: repoDir, outDir: out, incremental: true }));
    times.update?.push(update);
    writeFileSync(join(repoDir, edited), original);
    await runExtract({ root: repoDir, outDir: out, incremental: true });
    await only('cold', async () => {
      rmSync(revisionsDir(out), { recursive: true, force: true });
      times.cold!.push(await timed(() => timeTravel({ dir: repoDir, outDir: out, rev1: 'HEAD~20', rev2: 'HEAD', core }), 'cold'));
    });
    // A cached neighbour: HEAD~21 and HEAD built, HEAD~20 not.
    if (!cases.has('cold')) rmSync(join(revisionsDir(out), sha('HEAD~21')), { recursive: true, force: true });
    await timeTravel({ dir: repoDir, outDir: out, rev1: 'HEAD~21', rev2: 'HEAD', core });
    rmSync(join(revisionsDir(out), sha('HEAD~20')), { recursive: true, force: true });
    const near = await timed(() => timeTravel({ dir: repoDir, outDir: out, rev1: 'HEAD~20', rev2: 'HEAD', core }), 'near');
    times.near?.push(near);
  }
} finally {
  writeFileSync(join(repoDir, edited), original);
}
const min = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [k, xs] of Object.entries(times)) if (xs.length) console.log(`${k.padEnd(7)} min ${min(xs).toFixed(0).padStart(6)} ms  median ${median(xs).toFixed(0).padStart(6)} ms  (${xs.map((x) => x.toFixed(0)).join(', ')})`);
for (const [k, line] of Object.entries(builds)) console.log(`${k.padEnd(7)} ${line}`);
const ratio = (a: string, b: string, what: string) => {
  if (times[a]?.length && times[b]?.length) console.log(`${`${a} / ${b}:`.padEnd(15)}min ${(min(times[a]!) / min(times[b]!)).toFixed(2)}x, median ${(median(times[a]!) / median(times[b]!)).toFixed(2)}x (${what})`);
};
ratio('near', 'update', 'target <= 3');
ratio('cold', 'full', 'target <= 1.2');
ratio('bare', 'full', 'no outputs at all');
// Per round, near over the update of the same round (the machine's load drifts between rounds).
if (times.near?.length && times.update?.length) console.log(`near / update per round: ${times.near.map((x, i) => (x / times.update![i]!).toFixed(2)).join(', ')}`);
rmSync(work, { recursive: true, force: true });
