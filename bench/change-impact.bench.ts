// working_changes_impact, predict_impact and affected_tests, warm, git included (issue 19: a 5-file
// change on prisma <= 150 ms each).
//
//   node --import tsx bench/change-impact.bench.ts <repo>
//
// <repo> is a git checkout with synaptic-out/graph.json that the bench may change: run it on a copy
// (cp -r /tmp/corpus/prisma /tmp/x). It checks out a branch synaptic-bench-change, commits edits to
// three files and leaves two more edited (BENCH_CHANGE_FILES=a,b,c,d,e picks them; default: five
// source files of one folder that other files use). Each tool runs through the same handler
// `synaptic serve` calls, on one loaded graph (warm: indexes built, first calls done), interleaved
// with a bare `git status` as the floor this machine's load sets. Reports wall and CPU (this process
// plus its git children) min/median per tool. Then the same calls through the SDK client to a real
// `synaptic serve --no-freshen` stdio child (on a copied checkout every file's stat changed, so its
// source check would re-extract everything), CPU read from the server's /proc stat. BENCH_ROUNDS
// (default 15). Results: bench/results/change-impact.json.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { openCliGraph } from '../src/cli/graph-tools.ts';
import { createAffectedTestsTool } from '../src/mcp/tools/affected-tests.ts';
import { createPredictImpactTool } from '../src/mcp/tools/predict-impact.ts';
import { createWorkingChangesImpactTool } from '../src/mcp/tools/working-changes-impact.ts';
import type { ToolDefinition } from '../src/mcp/tool.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(process.argv[2] ?? '');
if (!process.argv[2]) throw new Error('usage: node --import tsx bench/change-impact.bench.ts <repo> (a disposable git checkout with synaptic-out/graph.json)');
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const BRANCH = 'synaptic-bench-change';

function git(...args: string[]): string {
  const r = spawnSync('git', ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** CPU ms of a process plus its waited-for children (the git runs), from /proc/<pid>/stat (10 ms ticks). */
function cpuMs(pid: number | 'self' = 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime are fields 14-17; USER_HZ is 100 on Linux.
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  if (pid !== 'self') return (Number(fields[11]) + Number(fields[12])) * 10 + children;
  const self = process.cpuUsage(); // finer than the ticks
  return (self.user + self.system) / 1000 + children;
}

/** Five source files of the folder whose files other files use most, unless BENCH_CHANGE_FILES names them. */
function pickFiles(graphPath: string): string[] {
  if (process.env.BENCH_CHANGE_FILES) return process.env.BENCH_CHANGE_FILES.split(',');
  const doc = JSON.parse(readFileSync(graphPath, 'utf8')) as { nodes: Array<{ id: string; source_file?: string; file_type?: string; kind?: string }>; links: Array<{ source: string; target: string }> };
  const fileOf = new Map(doc.nodes.map((n) => [n.id, n.source_file ?? '']));
  const used = new Map<string, number>();
  for (const l of doc.links) {
    const a = fileOf.get(l.source);
    const b = fileOf.get(l.target);
    if (a && b && a !== b) used.set(b, (used.get(b) ?? 0) + 1);
  }
  const code = [...new Set(doc.nodes.filter((n) => n.file_type === 'code' && n.source_file && /\.ts$/.test(n.source_file) && !/test|spec|fixture|example/i.test(n.source_file)).map((n) => n.source_file!))];
  const byFolder = new Map<string, string[]>();
  for (const f of code) byFolder.set(dirname(f), [...(byFolder.get(dirname(f)) ?? []), f]);
  const score = (files: string[]) => files.reduce((n, f) => n + (used.get(f) ?? 0), 0);
  const folder = [...byFolder.values()].filter((fs) => fs.length >= 5).sort((a, b) => score(b) - score(a) || (a[0]! < b[0]! ? -1 : 1))[0];
  if (!folder) throw new Error('no folder with 5 source files in the graph; set BENCH_CHANGE_FILES');
  return folder.sort((a, b) => (used.get(b) ?? 0) - (used.get(a) ?? 0) || (a < b ? -1 : 1)).slice(0, 5);
}

function makeChange(files: string[]): void {
  const branches = git('branch', '--list', BRANCH).trim();
  if (!branches) {
    git('checkout', '-q', '-b', BRANCH);
    for (const f of files.slice(0, 3)) appendFileSync(join(repo, f), '\nexport const synapticBenchAdded = 1;\n');
    git('commit', '-q', '-m', 'bench: three edited files', '--', ...files.slice(0, 3));
  } else if (git('rev-parse', '--abbrev-ref', 'HEAD').trim() !== BRANCH) git('checkout', '-q', BRANCH);
  for (const f of files.slice(3)) if (!git('diff', '--name-only', '--', f).trim()) appendFileSync(join(repo, f), '\n// synaptic bench: uncommitted edit\n');
  // A copied checkout has stale stat data: refresh the index once so git compares stats, not contents.
  git('update-index', '-q', '--refresh');
}

const graphPath = join(repo, 'synaptic-out/graph.json');
const files = pickFiles(graphPath);
makeChange(files);
const graph = await openCliGraph({ graph: graphPath, 'source-root': repo });
const tools: Array<[ToolDefinition, Record<string, unknown>]> = [
  [createWorkingChangesImpactTool(graph.ctx) as unknown as ToolDefinition, {}],
  [createPredictImpactTool(graph.ctx) as unknown as ToolDefinition, {}],
  [createAffectedTestsTool(graph.ctx) as unknown as ToolDefinition, {}],
];
const floor = (): void => void spawnSync('git', ['-C', repo, '--no-optional-locks', 'status', '--porcelain=v2', '-z'], { stdio: 'ignore' });

const samples = new Map<string, { wall: number[]; cpu: number[] }>();
const record = (name: string, wall: number, cpu: number) => {
  const s = samples.get(name) ?? { wall: [], cpu: [] };
  s.wall.push(wall);
  s.cpu.push(cpu);
  samples.set(name, s);
};
const time = (name: string, fn: () => unknown) => {
  const w0 = performance.now();
  const c0 = cpuMs();
  fn();
  record(name, performance.now() - w0, cpuMs() - c0);
};
// Warm-up: the lazy indexes, the core's copy of the graph, the JIT.
let first = '';
for (const [tool, args] of tools) first += `${((await tool.handler(args as never)).content[0]!.text.split('\n')[0])}\n`;
samples.clear();
const load = loadavg()[0]!;
for (let r = 0; r < rounds; r++) {
  time('git status alone (floor)', floor);
  for (const [tool, args] of tools) {
    const w0 = performance.now();
    const c0 = cpuMs();
    const result = await tool.handler(args as never);
    if (result.isError) throw new Error(`${tool.name}: ${result.content[0]!.text}`);
    record(tool.name, performance.now() - w0, cpuMs() - c0);
  }
}
graph.close();

// The same calls as a client sees them: SDK client, stdio, a real server (freshness check on).
// From src/ through tsx (the same code as the bundle; warm calls do not see the loader), so the
// bench does not depend on a dist/ build of the moment. SYNAPTIC_BENCH_CLI: a built main.js instead.
const cli = process.env.SYNAPTIC_BENCH_CLI ? [process.env.SYNAPTIC_BENCH_CLI] : ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];
const transport = new StdioClientTransport({ command: process.execPath, args: [...cli, 'serve', '--graph', graphPath, '--no-freshen'], cwd: ROOT, stderr: 'ignore' });
const client = new Client({ name: 'change-impact-bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(transport);
const pid = transport.pid!;
for (let i = 0; i < 2; i++) for (const [tool, args] of tools) await client.callTool({ name: tool.name, arguments: args });
for (let r = 0; r < rounds; r++) {
  for (const [tool, args] of tools) {
    const w0 = performance.now();
    const c0 = cpuMs(pid);
    const result = (await client.callTool({ name: tool.name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
    if (result.isError) throw new Error(`${tool.name} over stdio: ${result.content[0]!.text}`);
    record(`${tool.name} (stdio server)`, performance.now() - w0, cpuMs(pid) - c0);
  }
}
await client.close();

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: +s[0]!.toFixed(1), median: +s[Math.floor(s.length / 2)]!.toFixed(1) };
};
const rows = [...samples].map(([name, s]) => ({ tool: name, 'wall min': stat(s.wall).min, 'wall median': stat(s.wall).median, 'cpu min': stat(s.cpu).min, 'cpu median': stat(s.cpu).median }));
console.log(`repo ${repo}, ${rounds} rounds, load ${load.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}; changed: ${files.join(', ')}`);
console.log(first.trimEnd());
console.table(rows);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
const out = join(ROOT, 'bench/results/change-impact.json');
writeFileSync(`${out}.tmp`, JSON.stringify({ repo, files, rounds, load: [load, loadavg()[0]], at: new Date().toISOString(), rows }, null, 2));
renameSync(`${out}.tmp`, out);
