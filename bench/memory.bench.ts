// Agent-memory benchmark: remember / recall / readmemory latencies and database size at N memories.
// Targets at 100k memories (issue 5): remember p50 <= 1 ms, recall p50 <= 3 ms and p99 <= 15 ms,
// readmemory p50 <= 0.5 ms server-side, database < 2x the raw text size.
// Latencies are the store calls the tools make (server-side, no JSON-RPC), in wall time and in this
// process's CPU time: on a shared machine the CPU columns show the code's cost, the wall ones the queueing.
// Memories are Zipf-distributed words over 20 projects (10% global); queries are 1-4 words from the same
// distribution, so they include very common terms.
// The same corpus and queries also run against PostgreSQL (team mode) on a throwaway cluster: runPgMemoryBench.
// Run: `node --import tsx bench/memory.bench.ts` (BENCH_QUICK=1 for a 5k smoke run; BENCH_BACKEND=sqlite
// or postgres for one backend).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MemoryStore } from '../src/memory/store.ts';
import { dbPath } from '../src/memory/paths.ts';
import { Rng } from './gen.ts';

export interface MemoryBenchOptions {
  /** Memories in the store before timing (default 100k, 5k under BENCH_QUICK=1). */
  n?: number;
  /** Timed calls per operation. */
  iterations?: number;
  seed?: number;
  quick?: boolean;
  /** Print a table (default true). */
  print?: boolean;
  /** Keep the populated store in this directory instead of a temp one (for profiling). */
  keepDir?: string;
}

export interface Latency {
  p50: number;
  p99: number;
  mean: number;
  /** CPU time (user + system) of the call: unlike wall time, not inflated by other processes on a shared machine. */
  cpuP50: number;
  cpuP99: number;
}

export interface MemoryBenchResult {
  n: number;
  remember: Latency;
  recall: Latency;
  recallEmpty: Latency;
  readmemory: Latency;
  dbBytes: number;
  rawBytes: number;
  sizeRatio: number;
  populateSeconds: number;
}

const SYLLABLES = 'ka lo mi ne ru sa ti vo ze pa do fi gu hi ja be co da el fo ga in jo ku lu ma no or pe qu ra se tu ul va we xi yo zu'.split(' ');
const DEV = 'module api test build cache config database deploy error handler index logger parser query router schema server session token type user worker'.split(' ');

/** A Zipf-distributed vocabulary: a few very common words, a long tail of rare ones. */
export class Vocabulary {
  readonly words: string[];
  private readonly cdf: Float64Array;
  constructor(rng: Rng, size: number) {
    const seen = new Set<string>(DEV);
    this.words = [...DEV];
    while (this.words.length < size) {
      let w = '';
      const parts = 2 + rng.below(3);
      for (let i = 0; i < parts; i++) w += SYLLABLES[rng.below(SYLLABLES.length)];
      if (!seen.has(w)) {
        seen.add(w);
        this.words.push(w);
      }
    }
    this.cdf = new Float64Array(size);
    let sum = 0;
    for (let i = 0; i < size; i++) this.cdf[i] = sum += 1 / Math.pow(i + 1, 1.07);
    for (let i = 0; i < size; i++) this.cdf[i]! /= sum;
  }
  pick(rng: Rng): string {
    const x = rng.next01();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo]!;
  }
}

function sentence(rng: Rng, vocab: Vocabulary, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(vocab.pick(rng));
  const s = out.join(' ');
  return s[0]!.toUpperCase() + s.slice(1) + '.';
}

export function memoryText(rng: Rng, vocab: Vocabulary): string {
  const sentences = 1 + rng.below(3);
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(sentence(rng, vocab, 6 + rng.below(14)));
  return parts.join(' ');
}

interface Sample {
  wall: number;
  cpu: number;
}

function latency(samples: Sample[]): Latency {
  const pick = (values: number[]) => {
    const s = [...values].sort((a, b) => a - b);
    return (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  };
  const wall = pick(samples.map((x) => x.wall));
  const cpu = pick(samples.map((x) => x.cpu));
  return { p50: wall(0.5), p99: wall(0.99), mean: samples.reduce((a, b) => a + b.wall, 0) / samples.length, cpuP50: cpu(0.5), cpuP99: cpu(0.99) };
}

function time(fn: () => unknown): Sample {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const used = process.cpuUsage(c);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** Builds a store of `n` memories in a temp directory and times the three tools' store calls. */
export function runMemoryBench(opts: MemoryBenchOptions = {}): MemoryBenchResult {
  const quick = opts.quick ?? process.env.BENCH_QUICK === '1';
  const n = opts.n ?? (quick ? 5000 : 100_000);
  const iterations = opts.iterations ?? (quick ? 300 : 2000);
  const rng = new Rng(opts.seed ?? 42);
  const vocab = new Vocabulary(rng, 20_000);
  const projects = Array.from({ length: 20 }, (_, i) => `/bench/project-${i}`);
  const dir = opts.keepDir ?? mkdtempSync(join(tmpdir(), 'synaptic-memory-bench-'));
  const start = Date.now() / 1000;
  let tick = 0;
  // Memories are spread over the last ~200 days, so recency weighting has real work to do.
  const store = MemoryStore.open({ dir, clock: () => Math.floor(start - 200 * 86400 + (tick * 200 * 86400) / n) });
  try {
    let rawBytes = 0;
    const t0 = Date.now();
    const batch = store.db.transaction((count: number) => {
      for (let i = 0; i < count; i++) {
        const content = memoryText(rng, vocab);
        rawBytes += Buffer.byteLength(content);
        store.remember({ content, source: 'bench', scope: rng.below(10) === 0 ? 'global' : 'project', project: projects[rng.below(projects.length)]! });
        tick++;
      }
    });
    for (let done = 0; done < n; done += 5000) batch(Math.min(5000, n - done));
    const populateSeconds = (Date.now() - t0) / 1000;
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const dbBytes = statSync(dbPath(dir)).size;

    const rememberSamples: Sample[] = [];
    for (let i = 0; i < iterations; i++) {
      const content = memoryText(rng, vocab);
      const project = projects[rng.below(projects.length)]!;
      rememberSamples.push(time(() => store.remember({ content, source: 'bench', scope: 'project', project })));
      tick++;
    }
    const recallSamples: Sample[] = [];
    const emptySamples: Sample[] = [];
    for (let i = 0; i < iterations; i++) {
      const words = 1 + rng.below(4);
      const query = Array.from({ length: words }, () => vocab.pick(rng)).join(' ');
      const project = projects[rng.below(projects.length)]!;
      recallSamples.push(time(() => store.recall({ query, project, limit: 8, budget: 'lean' })));
      if (i % 4 === 0) emptySamples.push(time(() => store.recall({ query: '', project, limit: 8 })));
    }
    const readSamples: Sample[] = [];
    const maxId = n + iterations;
    for (let i = 0; i < iterations; i++) {
      const id = 1 + rng.below(maxId);
      const project = projects[rng.below(projects.length)]!;
      readSamples.push(time(() => store.read({ id, project, offset: 0, budget: 'lean' })));
    }
    const result: MemoryBenchResult = {
      n,
      remember: latency(rememberSamples),
      recall: latency(recallSamples),
      recallEmpty: latency(emptySamples),
      readmemory: latency(readSamples),
      dbBytes,
      rawBytes,
      sizeRatio: dbBytes / rawBytes,
      populateSeconds,
    };
    if (opts.print ?? true) {
      const row = (name: string, l: Latency, target: string) => ({
        operation: name,
        'p50 ms': +l.p50.toFixed(3),
        'p99 ms': +l.p99.toFixed(3),
        'mean ms': +l.mean.toFixed(3),
        'cpu p50 ms': +l.cpuP50.toFixed(3),
        'cpu p99 ms': +l.cpuP99.toFixed(3),
        target,
      });
      console.log(`memory bench: ${n} memories (populated in ${populateSeconds.toFixed(1)} s), ${iterations} calls per operation`);
      console.table([
        row('remember', result.remember, 'p50 <= 1'),
        row('recall (query)', result.recall, 'p50 <= 3, p99 <= 15'),
        row('recall (empty)', result.recallEmpty, '-'),
        row('readmemory', result.readmemory, 'p50 <= 0.5'),
      ]);
      console.log(`database ${(dbBytes / 1e6).toFixed(1)} MB for ${(rawBytes / 1e6).toFixed(1)} MB of text: ${result.sizeRatio.toFixed(2)}x (target < 2x)`);
    }
    return result;
  } finally {
    store.close();
    if (!opts.keepDir) rmSync(dir, { recursive: true, force: true });
  }
}

export interface PgMemoryBenchResult {
  n: number;
  recall: Latency;
  recallEmpty: Latency;
  remember: Latency;
  readmemory: Latency;
  populateSeconds: number;
  /** PostgreSQL backends' CPU time per recall with a query (mean), from /proc: the server's share of the cost. */
  serverRecallMs: number;
}

/** CPU time (user + system, ms) used so far by this pool's server processes (Linux /proc; 0 elsewhere). */
async function serverCpuMs(pool: import('pg').Pool): Promise<number> {
  const { rows } = await pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = 'synaptic'");
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // not Linux, or the backend exited
    }
  }
  return total;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<Sample> {
  const c = process.cpuUsage();
  const t = process.hrtime.bigint();
  await fn();
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  const used = process.cpuUsage(c);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/**
 * The same corpus and queries against PostgreSQL (team mode): a throwaway cluster (test/helpers/pg-cluster.ts),
 * `n` memories bulk-loaded with the rows remember writes (same tsvector input), ANALYZE, then the
 * backend's remember/recall/readmemory over loopback TCP, warm. Null when PostgreSQL is not installed.
 * CPU columns are this process's (the client); the server's work shows in wall time only.
 */
export async function runPgMemoryBench(opts: MemoryBenchOptions = {}): Promise<PgMemoryBenchResult | null> {
  const { pgUnavailable, startPgCluster } = await import('../test/helpers/pg-cluster.ts');
  const why = pgUnavailable();
  if (why) {
    console.log(`memory bench (postgres): skipped: ${why}`);
    return null;
  }
  const { PgMemoryStore, searchWords } = await import('../src/memory/pg/store.ts');
  const { digestOf } = await import('../src/memory/shape.ts');
  const quick = opts.quick ?? process.env.BENCH_QUICK === '1';
  const n = opts.n ?? (quick ? 5000 : 100_000);
  const iterations = opts.iterations ?? (quick ? 300 : 2000);
  const rng = new Rng(opts.seed ?? 42);
  const vocab = new Vocabulary(rng, 20_000);
  const projects = Array.from({ length: 20 }, (_, i) => `/bench/project-${i}`);
  const cluster = await startPgCluster();
  const start = Date.now() / 1000;
  let tick = 0;
  const clock = () => Math.floor(start - 200 * 86400 + (tick * 200 * 86400) / n);
  try {
    const url = cluster.createDatabase('bench');
    const store = await PgMemoryStore.open({ url, clock });
    try {
      const t0 = Date.now();
      await store.pool.query("INSERT INTO projects (team, key) SELECT 'default', unnest($1::text[])", [projects]);
      const ids = new Map((await store.pool.query<{ id: number; key: string }>('SELECT id, key FROM projects')).rows.map((r) => [r.key, r.id]));
      for (let done = 0; done < n; done += 5000) {
        const cols: [string[], number[], boolean[], number[], number[], string[]] = [[], [], [], [], [], []];
        for (let i = 0; i < Math.min(5000, n - done); i++) {
          const content = memoryText(rng, vocab);
          const global = rng.below(10) === 0;
          cols[0].push(content);
          cols[1].push(ids.get(projects[rng.below(projects.length)]!)!);
          cols[2].push(global);
          cols[3].push(clock());
          cols[4].push(digestOf(content));
          cols[5].push(searchWords(`${content}\nbench`));
          tick++;
        }
        await store.pool.query(
          `INSERT INTO memories (team, body, source, project_id, scope_key, created, changed, digest, state, search)
           SELECT 'default', b, 'bench', p, CASE WHEN g THEN 0 ELSE p END, c, c, d, 0, to_tsvector('synaptic_memory', w)
           FROM unnest($1::text[], $2::bigint[], $3::bool[], $4::bigint[], $5::bigint[], $6::text[]) AS t(b, p, g, c, d, w)`,
          cols,
        );
      }
      await store.pool.query('VACUUM ANALYZE'); // memories and its postings (memory_terms), as autovacuum leaves a settled database
      const populateSeconds = (Date.now() - t0) / 1000;
      const remember: Sample[] = [];
      for (let i = 0; i < iterations; i++) {
        const content = memoryText(rng, vocab);
        const project = projects[rng.below(projects.length)]!;
        remember.push(await timeAsync(() => store.remember({ content, source: 'bench', scope: 'project', project })));
        tick++;
      }
      const recall: Sample[] = [];
      const empty: Sample[] = [];
      const serverBefore = await serverCpuMs(store.pool);
      for (let i = 0; i < iterations; i++) {
        const words = 1 + rng.below(4);
        const query = Array.from({ length: words }, () => vocab.pick(rng)).join(' ');
        const project = projects[rng.below(projects.length)]!;
        recall.push(await timeAsync(() => store.recall({ query, project, limit: 8, budget: 'lean' })));
      }
      const serverRecallMs = ((await serverCpuMs(store.pool)) - serverBefore) / iterations;
      for (let i = 0; i < iterations; i += 4) {
        const project = projects[rng.below(projects.length)]!;
        empty.push(await timeAsync(() => store.recall({ query: '', project, limit: 8 })));
      }
      const read: Sample[] = [];
      for (let i = 0; i < iterations; i++) {
        const id = 1 + rng.below(n + iterations);
        const project = projects[rng.below(projects.length)]!;
        read.push(await timeAsync(() => store.read({ id, project, offset: 0, budget: 'lean' })));
      }
      const result: PgMemoryBenchResult = { n, recall: latency(recall), recallEmpty: latency(empty), remember: latency(remember), readmemory: latency(read), populateSeconds, serverRecallMs };
      if (opts.print ?? true) {
        const row = (name: string, l: Latency, target: string) => ({ operation: name, 'p50 ms': +l.p50.toFixed(3), 'p99 ms': +l.p99.toFixed(3), 'mean ms': +l.mean.toFixed(3), 'client cpu p50 ms': +l.cpuP50.toFixed(3), target });
        console.log(`memory bench (postgres ${url.replace(/\/bench$/, '')}): ${n} memories (bulk-loaded in ${populateSeconds.toFixed(1)} s), ${iterations} calls per operation`);
        console.log(`server CPU per recall (query), mean over ${iterations}: ${serverRecallMs.toFixed(3)} ms (the backends' utime+stime; the wall columns add the loopback trips and, on a loaded machine, scheduling waits)`);
        console.table([
          row('remember', result.remember, '-'),
          row('recall (query)', result.recall, 'p50 <= 5'),
          row('recall (empty)', result.recallEmpty, '-'),
          row('readmemory', result.readmemory, '-'),
        ]);
      }
      return result;
    } finally {
      await store.close();
    }
  } finally {
    cluster.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.env.BENCH_BACKEND !== 'postgres') runMemoryBench();
  if (process.env.BENCH_BACKEND !== 'sqlite') await runPgMemoryBench();
}
