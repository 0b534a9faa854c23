// Federation at scale (issue #22): a generated store of N members, each a real member's outputs
// (graph.json, graph.cbor, graph.shard hard-linked, so N members cost no extraction and no disk)
// under a new tag, served by `synaptic serve --store` through the SDK client over stdio.
//
//   node --import tsx bench/federation-scale.bench.ts [--members 10,50,100] [--base dir,dir,...] [--lru 8]
//
// --base: folders holding an extracted repository's synaptic-out/ (default: SYNAPTIC_BENCH_BASES,
// else /tmp/lead/{prisma,trpc,zod,hono} where present), taken round-robin. Per N, on a fresh server:
// RSS after start; cold find_callers (a shard miss: the member's load plus the call) on members
// never loaded; warm find_callers p50 on a resident member; graph_stats over all members (first
// call, then again); RSS after every member went through the LRU (VmHWM: the peak).
// Targets (#22): 50 members / ~1.5M nodes: RSS <= 1.5 GB with the default LRU; warm find_callers
// p50 <= 3 ms; cold <= 200 ms; graph_stats over all <= 500 ms; RSS grows with the LRU, not N.
// Results: bench/results/federation-scale.json.
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { decodeSnapshot } from '../src/graph/snapshot.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = process.env.SYNAPTIC_BENCH_CLI ?? join(ROOT, 'dist/cli/main.js');
const OUTPUT_FILES = ['graph.json', 'graph.cbor', 'graph.shard'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Base { dir: string; name: string; nodes: number; links: number; files: number; probes: string[] }

/** A base member: its counts and a few probe ids (functions with the most incoming calls). */
function readBase(dir: string): Base {
  const out = join(dir, 'synaptic-out');
  const snap = decodeSnapshot(readFileSync(join(out, 'graph.cbor')));
  const S = snap.strings;
  const calls = new Map<number, number>();
  const callsRel = snap.relations.indexOf('calls');
  for (let i = 0; i < snap.linkCount; i++) if (snap.link.relation[i] === callsRel && snap.link.dst[i]! < snap.nodeCount) calls.set(snap.link.dst[i]!, (calls.get(snap.link.dst[i]!) ?? 0) + 1);
  const probes = [...calls].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([v]) => S[snap.node.id[v]!]!);
  const files = new Set<number>();
  for (let i = 0; i < snap.nodeCount; i++) files.add(snap.node.sourceFile[i]!);
  return { dir, name: basename(dir), nodes: snap.nodeCount, links: snap.linkCount, files: files.size, probes };
}

/** A store of `n` members under `root` (hard links to the bases' outputs), with its global-manifest.json. */
function generate(root: string, bases: Base[], n: number): { tags: string[]; base: Base[]; nodes: number } {
  rmSync(root, { recursive: true, force: true });
  const members = [];
  const tags: string[] = [];
  const of: Base[] = [];
  let nodes = 0;
  for (let i = 0; i < n; i++) {
    const b = bases[i % bases.length]!;
    const tag = `m${String(i).padStart(3, '0')}-${b.name}`;
    const src = join(root, tag);
    const out = join(src, 'synaptic-out');
    mkdirSync(out, { recursive: true });
    for (const f of OUTPUT_FILES) if (existsSync(join(b.dir, 'synaptic-out', f))) linkSync(join(b.dir, 'synaptic-out', f), join(out, f));
    members.push({ tag, source_root: src, path: tag, out_dir: out, status: 'ok', files: b.files, nodes: b.nodes, links: b.links, shard: join(out, 'graph.shard'), shard_generation: 1 });
    tags.push(tag);
    of.push(b);
    nodes += b.nodes;
  }
  mkdirSync(join(root, 'synaptic-out'));
  const now = new Date().toISOString();
  writeFileSync(join(root, 'synaptic-out', 'global-manifest.json'), JSON.stringify({ format: 1, generation: 1, extractor_version: 'bench', workspace_root: root, written_at: now, members }));
  writeFileSync(join(root, 'synaptic-out', 'workspace-state.json'), JSON.stringify({ format: 1, extractor_version: 'bench', repos: Object.fromEntries(tags.map((t) => [t, { source_hash: 'sha256:bench', extracted_at: now }])) }));
  return { tags, base: of, nodes };
}

function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), hwm: mb('VmHWM') };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};
const r1 = (x: number): number => Math.round(x * 10) / 10;

async function timed(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  const t = performance.now();
  const r = await client.callTool({ name, arguments: args });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${JSON.stringify(r.content).slice(0, 300)}`);
  return ms;
}

async function run(n: number, bases: Base[], lru: number) {
  const root = join(tmpdir(), `synaptic-fedscale-${n}`);
  const { tags, base, nodes } = generate(root, bases, n);
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--store', join(root, 'synaptic-out')],
    env: { ...process.env, SYNAPTIC_SHARD_LRU: String(lru) } as Record<string, string>,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'federation-scale-bench', version: '1' });
  await client.connect(transport);
  await timed(client, 'list_repos', {});
  const startMs = performance.now() - started;
  const pid = transport.pid!;
  const rssStart = rssOf(pid).rss;
  const probe = (i: number, k = 0) => ({ label: `${tags[i]}/${base[i]!.probes[k % base[i]!.probes.length]}` });
  // Cold: members never loaded, one call each (the first one also pays the server's lazy code).
  const cold: number[] = [];
  for (let i = 0; i < Math.min(n, 12); i++) cold.push(await timed(client, 'find_callers', probe(i)));
  // Warm: the last member loaded, every probe in turn.
  const warmAt = Math.min(n, 12) - 1;
  const warm: number[] = [];
  for (let k = 0; k < 40; k++) warm.push(await timed(client, 'find_callers', probe(warmAt, k)));
  const statsFirst = await timed(client, 'graph_stats', {});
  const statsAgain = await timed(client, 'graph_stats', {});
  const rssAfterStats = rssOf(pid);
  // Every member once more, through the LRU (cold again for all but the last `lru`).
  const sweep: number[] = [];
  for (let i = 0; i < n; i++) sweep.push(await timed(client, 'find_callers', probe(i, 1)));
  const rssEnd = rssOf(pid);
  await client.close();
  rmSync(root, { recursive: true, force: true });
  return {
    members: n, nodes, lru, start_ms: Math.round(startMs), rss_start_mb: rssStart,
    cold_find_callers_ms: { first: r1(cold[0]!), p50: r1(pct(cold.slice(1), 50)), max: r1(Math.max(...cold.slice(1))) },
    warm_find_callers_ms: { p50: r1(pct(warm, 50)), p90: r1(pct(warm, 90)) },
    graph_stats_ms: { first: Math.round(statsFirst), again: r1(statsAgain) },
    sweep_find_callers_ms: { p50: r1(pct(sweep, 50)), p90: r1(pct(sweep, 90)), max: r1(Math.max(...sweep)) },
    rss_after_stats_mb: rssAfterStats.rss, rss_end_mb: rssEnd.rss, rss_peak_mb: rssEnd.hwm,
  };
}

const baseDirs = (arg('--base') ?? process.env.SYNAPTIC_BENCH_BASES ?? ['prisma', 'trpc', 'zod', 'hono'].map((r) => `/tmp/lead/${r}`).join(','))
  .split(',').filter((d) => existsSync(join(d, 'synaptic-out', 'graph.cbor')));
if (!baseDirs.length) {
  console.error('federation-scale: no base member with synaptic-out/graph.cbor (pass --base dir,dir or SYNAPTIC_BENCH_BASES)');
  process.exit(2);
}
const bases = baseDirs.map(readBase);
const sizes = (arg('--members') ?? '10,50,100').split(',').map(Number);
const lru = Number(arg('--lru') ?? 8);
console.error(`bases: ${bases.map((b) => `${b.name} (${b.nodes} nodes)`).join(', ')}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const results = [];
for (const n of sizes) {
  const r = await run(n, bases, lru);
  console.log(JSON.stringify(r));
  results.push(r);
}
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/federation-scale.json'), JSON.stringify({ at: new Date().toISOString(), load: loadavg(), bases: bases.map(({ probes: _, ...b }) => b), results }, null, 2) + '\n');
