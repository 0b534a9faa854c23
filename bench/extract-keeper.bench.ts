// A keeper's one-file updates in this process: the code path of `update --watch` (one KeptOutputs
// across runExtract calls, its idle-time warm-up drained between updates), without the socket and
// the one-shot client. Per update: the route and this process's CPU and wall ms; with
// SYNAPTIC_DEBUG=steps each step's too, and with EXTRACT_KEEPER_PROFILE=<file> an inspector CPU
// profile of every round after the first (cold) one. The edits are the update bench's: a blank line
// on top (lines moved), a function added (facts changed), each restored.
// Run: `EXTRACT_BENCH_REPO=/tmp/corpus/prisma EXTRACT_BENCH_OUT=<an extracted output folder> npx tsx bench/extract-keeper.bench.ts`
// Options: EXTRACT_UPDATE_FILE (repo-relative file to edit; default: the first TypeScript file with a
// top-level function, from the manifest), EXTRACT_UPDATE_RUNS (rounds after the cold one, default 3).
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { runExtract, warmKept } from '../src/extract/pipeline.node.ts';
import { KeptOutputs } from '../src/extract/out/kept.node.ts';

const root = process.env.EXTRACT_BENCH_REPO;
const outDir = process.env.EXTRACT_BENCH_OUT;
if (!root || !outDir) throw new Error('Cannot bench the keeper: set EXTRACT_BENCH_REPO and EXTRACT_BENCH_OUT (an output folder extracted from it)');
const rel = process.env.EXTRACT_UPDATE_FILE ?? pickFile(outDir);
const abs = join(root, rel);
const original = readFileSync(abs, 'utf8');
const callee = /^(?:export )?(?:async )?function (\w+)\(/m.exec(original)?.[1];
const kept = new KeptOutputs();
const runs = Number(process.env.EXTRACT_UPDATE_RUNS ?? 3);
const rows: Record<string, unknown>[] = [];

function pickFile(out: string): string {
  const manifest = JSON.parse(readFileSync(join(out, '.manifest.json'), 'utf8')) as { files: Record<string, { status: string; language: string }> };
  for (const [p, e] of Object.entries(manifest.files)) {
    if (e.status !== 'ok' || e.language !== 'typescript' || p.endsWith('.d.ts')) continue;
    if (/^(?:export )?function (\w+)\(/m.test(readFileSync(join(root!, p), 'utf8'))) return p;
  }
  throw new Error(`Cannot bench the keeper: no TypeScript file with a top-level function in ${out}`);
}

async function update(round: number, edit: string, text: string): Promise<void> {
  writeFileSync(abs, text);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const s = await runExtract({ root: root!, outDir: outDir!, incremental: true, kept });
  const used = process.cpuUsage(cpu);
  rows.push({ round, edit, route: s.linkMode, 'wall ms': Math.round(performance.now() - wall), 'cpu ms': Math.round((used.user + used.system) / 1000) });
  if (process.env.SYNAPTIC_DEBUG) console.error(`--- ${edit}: ${s.linkMode}`);
  const warm = warmKept(outDir!, kept);
  while (!warm.next().done) await new Promise((r) => setImmediate(r));
}

const profile = process.env.EXTRACT_KEEPER_PROFILE;
const session = new Session();
try {
  for (let round = 0; round <= runs; round++) {
    if (round === 1 && profile) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    await update(round, 'shift', `\n${original}`);
    await update(round, 'shift-restore', original);
    await update(round, 'facts', `${original}\nexport function synapticKeeperBench${round}(): void {\n  ${callee ? `${callee}();` : ''}\n}\n`);
    await update(round, 'facts-restore', original);
  }
} finally {
  writeFileSync(abs, original);
}
if (profile) writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
console.log(`file: ${rel} (round 0 is cold)`);
console.table(rows);
