// Load on `synaptic serve --http` over loopback: 64 keep-alive clients issue 20,000 mixed tool calls
// (find_callers, affected, query_graph, get_source) with varied arguments, while a stalled SSE
// listener and a byte-by-byte body sit on other connections. Two measurements, as load tests do:
//   closed loop (saturation): each client sends its next call as soon as the previous answer is in;
//     gives the throughput ceiling (calls/s) and the latency at saturation (mean = clients / rate).
//   open loop (target rate, HTTP_BENCH_RATE, default 1000 calls/s, the rate issue 15 targets): calls
//     are scheduled at fixed times spread over the clients; latency runs from the scheduled send
//     time, so a server that falls behind is charged for the queue it builds (no coordinated omission).
// Every answer is parsed and checked (status 200, same JSON-RPC id, a result): errors and dropped
// responses are counted. Server and client CPU per call come from /proc and process.cpuUsage().
// HTTP_BENCH_GRAPH=<graph.json> picks the graph (>= 50k nodes for the issue's target); without it the
// fixture repo is extracted. BENCH_QUICK=1: fewer calls and clients. HTTP_BENCH_NODE_ARGS adds node
// flags to the server (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof); HTTP_BENCH_DEBUG=1 logs the slowest
// calls of each run, the 100 ms windows holding the calls over p99, the load client's own GC pauses and
// the run's start in epoch ms (to line up with server-side logs); HTTP_BENCH_WARMUP sets the uncounted
// warm-up calls (default 2000); the server's resident memory (now and peak) is logged after the runs;
// HTTP_BENCH_SERVER_STDOUT=<file> keeps the server's stdout (e.g. --trace-gc lines);
// HTTP_BENCH_SERVE_ARGS adds `serve` options (e.g. `--threads 0` for the single-threaded server).
// Each run also reports how long the server's main thread was runnable but waiting for a CPU (Linux
// schedstat): a noisy machine shows there, not in the server's CPU per call.
// No timing asserts.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** HTTP_BENCH_CLI=<main.js> serves from another build (A/B runs against an older checkout). */
const CLI = process.env.HTTP_BENCH_CLI ?? join(ROOT, 'dist/cli/main.js');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const TOOLS = ['find_callers', 'affected', 'query_graph', 'get_source'] as const;

export interface LoadRun {
  calls: number;
  seconds: number;
  callsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  toolErrors: number;
  /** Calls sent without an answer (closed connection, missing or mismatched id). */
  dropped: number;
  /** Server CPU (user + system) per call, ms; undefined where /proc is unavailable. */
  serverCpuMsPerCall?: number;
  /** Share of the server's CPU spent in the kernel (socket writes and reads, stats, file reads). */
  serverSystemShare?: number;
  /** Time the server's main thread was runnable but not running during the run, ms (Linux). */
  serverWaitMs?: number;
  clientCpuMsPerCall: number;
  byTool: Record<string, { p50: number; p99: number; count: number }>;
}

/** The closed-loop (saturation) run's fields sit at the top level, so the bench table shows them. */
export interface HttpBenchResult extends LoadRun {
  graph: string;
  nodes: number;
  clients: number;
  /** Open loop at targetRate; latency from the scheduled send time. */
  openLoop: LoadRun & { targetRate: number };
  warmupCalls: number;
  load: { start: number; end: number };
  /** Server resident memory at the end and its peak (VmRSS / VmHWM, MB; undefined without /proc). */
  serverRssMb?: { end: number; peak: number };
}

function percentile(sorted: Float64Array | number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
}

/** CPU ms (user + system) of a process so far, from /proc (Linux). */
function processCpuMs(pid: number | undefined): { total: number; system: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3, utime field 14, stime field 15 (1-based, clock ticks of 10 ms).
    return { total: (Number(fields[11]) + Number(fields[12])) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return undefined;
  }
}

/**
 * Time the process's main thread spent running and runnable-but-waiting for a CPU so far, ms (Linux
 * schedstat). The wait is the machine's share of a run's latency: other processes, or the load
 * client woken on the server's core.
 */
function mainThreadSched(pid: number | undefined): { run: number; wait: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return run === undefined || wait === undefined || !Number.isFinite(run + wait) ? undefined : { run: run / 1e6, wait: wait / 1e6 };
  } catch {
    return undefined;
  }
}

/** Resident memory of a process now and at its peak, MB (Linux /proc). */
function processRssMb(pid: number | undefined): { end: number; peak: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { end: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

interface Prepared {
  tool: number;
  /** Flat [name, value, ...] list: undici sends it without re-validating an object per call. */
  headers: string[];
  body: Buffer;
}

export async function runHttpBench(opts: { quick: boolean; graph?: string; log?: (m: string) => void }): Promise<HttpBenchResult> {
  const log = opts.log ?? ((m: string) => console.error(m));
  let work: string | undefined;
  let graph = opts.graph;
  if (!graph) {
    work = mkdtempSync(join(tmpdir(), 'synaptic-http-bench-'));
    cpSync(join(ROOT, 'test/fixtures/repo'), join(work, 'repo'), { recursive: true });
    execFileSync(process.execPath, [CLI, 'extract', join(work, 'repo')], { stdio: 'ignore' });
    graph = join(work, 'repo/synaptic-out/graph.json');
  }
  // Only the names are kept: the parsed document would make every GC of the load client slow.
  const { symbols, words, nodes } = (() => {
    const doc = JSON.parse(readFileSync(graph, 'utf8')) as { nodes: { id: string; label: string; kind: string }[] };
    const sym = doc.nodes.filter((n) => n.kind === 'function' || n.kind === 'method').map((n) => n.id);
    const w = [...new Set(doc.nodes.flatMap((n) => n.label.split(/[^A-Za-z]+|(?=[A-Z])/).filter((x) => x.length > 3)))].slice(0, 2000);
    return { symbols: sym, words: w, nodes: doc.nodes.length };
  })();
  const ready = join(work ?? mkdtempSync(join(tmpdir(), 'synaptic-http-bench-')), 'ready.json');
  const nodeArgs = (process.env.HTTP_BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const stdoutFile = process.env.HTTP_BENCH_SERVER_STDOUT;
  const serveArgs = (process.env.HTTP_BENCH_SERVE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--graph', graph, '--http', '127.0.0.1:0', '--ready-file', ready, ...serveArgs], {
    stdio: ['ignore', stdoutFile ? openSync(stdoutFile, 'w') : 'ignore', 'inherit'],
    env: { ...process.env, SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(dirname(ready), 'data') },
  });
  const loadStart = loadavg()[0]!;
  try {
    const deadline = Date.now() + 120_000;
    while (!existsSync(ready)) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error('Cannot run the HTTP bench: the server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = new URL((JSON.parse(readFileSync(ready, 'utf8')) as { mcp_url: string }).mcp_url);
    const clients = opts.quick ? 16 : 64;
    const total = opts.quick ? 2000 : 20000;
    const warmup = opts.quick ? 200 : Number(process.env.HTTP_BENCH_WARMUP ?? 2000);
    const rate = Number(process.env.HTTP_BENCH_RATE ?? 1000);
    const pool = new Pool(url.origin, { connections: clients, pipelining: 1 });

    // Misbehaving clients that must not hold anyone up: an SSE listener never read, a trickled body.
    // (on its own connection: all of the pool's connections carry the load)
    const side = new Pool(url.origin, { connections: 1 });
    const stalled = await side.request({ path: '/mcp', method: 'POST', headers: headers('subscriptions/listen'), body: JSON.stringify({ jsonrpc: '2.0', id: 'stall', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['synaptic://*'] }, _meta: META } }) });
    const trickle = connect(Number(url.port), '127.0.0.1');
    trickle.on('error', () => {});
    trickle.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`);
    const trickleTimer = setInterval(() => trickle.write(' '), 50);

    // Requests are built before the clock starts: varied arguments (random symbols, word pairs).
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    const prepare = (count: number, idBase: number): Prepared[] =>
      Array.from({ length: count }, (_, i) => {
        const tool = i % 4;
        const args =
          tool === 0 ? { label: symbols[rnd(symbols.length)] }
          : tool === 1 ? { label: symbols[rnd(symbols.length)], depth: 3 }
          : tool === 2 ? { question: `${words[rnd(words.length)]} ${words[rnd(words.length)]}` }
          : { label: symbols[rnd(symbols.length)] };
        const name = TOOLS[tool]!;
        return { tool, headers: Object.entries(headers('tools/call', name)).flat(), body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: idBase + i, method: 'tools/call', params: { name, arguments: args, _meta: META } })) };
      });

    /**
     * One call through the pool's raw dispatch (no per-call body stream: the client must stay cheap,
     * it shares the cores with the server). Resolves to 0 ok, 1 tool error (isError), 2 error
     * (status, id or shape), 3 dropped (no complete answer). Every answer is parsed.
     */
    const send = (p: Prepared, id: number): Promise<number> =>
      new Promise((done) => {
        let status = 0;
        const chunks: Buffer[] = [];
        pool.dispatch({ path: '/mcp', method: 'POST', headers: p.headers, body: p.body }, {
          onRequestStart() {},
          onResponseStart(_c, statusCode) {
            status = statusCode;
          },
          onResponseData(_c, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            let body: { id?: unknown; result?: { isError?: boolean } };
            try {
              body = JSON.parse((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')) as typeof body;
            } catch {
              return done(3);
            }
            if (status !== 200 || body.id !== id || !body.result) return done(2);
            done(body.result.isError ? 1 : 0);
          },
          onResponseError() {
            done(3);
          },
        });
      });

    const measure = async (calls: Prepared[], idBase: number, schedule?: (i: number) => number): Promise<LoadRun> => {
      const latencies = new Float64Array(calls.length);
      const outcome = new Uint8Array(calls.length);
      const starts = new Float64Array(calls.length);
      const cpu0 = process.cpuUsage();
      const server0 = processCpuMs(server.pid);
      const sched0 = mainThreadSched(server.pid);
      const t0 = performance.now();
      // HTTP_BENCH_DEBUG: the load client's own GC pauses (they delay every call in flight too).
      const clientGc: string[] = [];
      const gcObserver = process.env.HTTP_BENCH_DEBUG
        ? new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (e.duration >= 2) clientGc.push(`${(e.startTime - t0).toFixed(0)}ms:${e.duration.toFixed(1)}`);
          })
        : undefined;
      gcObserver?.observe({ entryTypes: ['gc'] });
      if (!schedule) {
        let next = 0;
        await Promise.all(Array.from({ length: clients }, async () => {
          for (;;) {
            const i = next++;
            if (i >= calls.length) return;
            const started = performance.now();
            starts[i] = started;
            outcome[i] = await send(calls[i]!, idBase + i);
            latencies[i] = performance.now() - started;
          }
        }));
      } else {
        // Open loop: a pacer releases each call at its scheduled time; the pool's 64 connections
        // carry them (a call waits in the pool's queue when all are busy, and that wait counts).
        const pending: Promise<void>[] = [];
        let i = 0;
        while (i < calls.length) {
          const now = performance.now() - t0;
          while (i < calls.length && schedule(i) <= now) {
            const k = i++;
            const due = t0 + schedule(k);
            starts[k] = due;
            pending.push(send(calls[k]!, idBase + k).then((o) => {
              outcome[k] = o;
              latencies[k] = performance.now() - due;
            }));
          }
          if (i < calls.length) await new Promise((r) => setTimeout(r, Math.max(0, schedule(i) - (performance.now() - t0))));
        }
        await Promise.all(pending);
      }
      const seconds = (performance.now() - t0) / 1000;
      gcObserver?.disconnect();
      const cpu = process.cpuUsage(cpu0);
      const server1 = processCpuMs(server.pid);
      const sched1 = mainThreadSched(server.pid);
      const byTool: LoadRun['byTool'] = {};
      for (let t = 0; t < TOOLS.length; t++) {
        const l = calls.flatMap((c, k) => (c.tool === t ? [latencies[k]!] : [])).sort((a, b) => a - b);
        byTool[TOOLS[t]!] = { p50: percentile(l, 50), p99: percentile(l, 99), count: l.length };
      }
      const sorted = latencies.slice().sort();
      if (process.env.HTTP_BENCH_DEBUG) {
        const idx = Array.from(latencies.keys()).sort((a, b) => latencies[b]! - latencies[a]!).slice(0, 8);
        log(`run start ${(performance.timeOrigin + t0).toFixed(0)} (epoch ms)`);
        log(`slowest: ${idx.map((k) => `#${k} ${TOOLS[calls[k]!.tool]} ${latencies[k]!.toFixed(0)} ms at ${(starts[k]! - t0).toFixed(0)} ms`).join('; ')}`);
        // Where the tail sits in time: the 100 ms windows (by send time) holding the calls over the run's p99.
        const cut = percentile(latencies.slice().sort(), 99);
        const windows = new Map<number, number>();
        for (let k = 0; k < calls.length; k++) if (latencies[k]! >= cut) windows.set(Math.floor((starts[k]! - t0) / 100), (windows.get(Math.floor((starts[k]! - t0) / 100)) ?? 0) + 1);
        log(`client GC pauses >= 2 ms (at: duration): ${clientGc.join(' ') || 'none'}`);
        log(`calls >= p99 (${cut.toFixed(1)} ms) by 100 ms window: ${[...windows].sort((x, y) => y[1] - x[1]).slice(0, 12).map(([w, c]) => `${w * 100}ms:${c}`).join(' ')} (${windows.size} windows)`);
      }
      let errors = 0;
      let toolErrors = 0;
      let dropped = 0;
      for (const o of outcome) {
        if (o === 1) toolErrors++;
        else if (o === 2) errors++;
        else if (o === 3) dropped++;
      }
      return {
        calls: calls.length,
        seconds,
        callsPerSecond: calls.length / seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
        errors,
        toolErrors,
        dropped,
        serverCpuMsPerCall: server0 && server1 ? (server1.total - server0.total) / calls.length : undefined,
        serverSystemShare: server0 && server1 && server1.total > server0.total ? (server1.system - server0.system) / (server1.total - server0.total) : undefined,
        serverWaitMs: sched0 && sched1 ? sched1.wait - sched0.wait : undefined,
        clientCpuMsPerCall: (cpu.user + cpu.system) / 1000 / calls.length,
        byTool,
      };
    };

    // Every request set is built before the warm-up (same order, so the same arguments as ever): the
    // client's allocation and GC for 40,000 prepared requests then fall in the uncounted warm-up
    // instead of the first 100-300 ms of the closed loop.
    const warmCalls = prepare(warmup, 1_000_000);
    const closedCalls = prepare(total, 0);
    const openCalls = prepare(total, 2_000_000);
    const warm = await measure(warmCalls, 1_000_000);
    const closed = await measure(closedCalls, 0);
    const open = await measure(openCalls, 2_000_000, (i) => (i * 1000) / rate);
    const rss = processRssMb(server.pid);
    clearInterval(trickleTimer);
    trickle.destroy();
    stalled.body.destroy();
    await pool.close();
    await side.destroy();
    const result: HttpBenchResult = {
      graph,
      nodes,
      clients,
      ...closed,
      openLoop: { ...open, targetRate: rate },
      warmupCalls: warm.calls,
      load: { start: loadStart, end: loadavg()[0]! },
      serverRssMb: rss,
    };
    const fmt = (r: LoadRun) =>
      `${r.callsPerSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms, ${r.errors} errors, ${r.dropped} dropped, CPU/call server ${r.serverCpuMsPerCall?.toFixed(2) ?? '?'} ms (${r.serverSystemShare === undefined ? '?' : Math.round(r.serverSystemShare * 100)}% kernel) client ${r.clientCpuMsPerCall.toFixed(2)} ms; server main thread waited for a CPU ${r.serverWaitMs === undefined ? '?' : `${Math.round(r.serverWaitMs)} ms (${((100 * r.serverWaitMs) / (r.seconds * 1000)).toFixed(1)}% of the run)`}`;
    log(`http: ${nodes} nodes, ${clients} clients, ${total} calls (after ${warm.calls} warm-up); load average ${loadStart.toFixed(1)} -> ${result.load.end.toFixed(1)}; server RSS ${rss ? `${rss.end.toFixed(0)} MB (peak ${rss.peak.toFixed(0)} MB)` : '?'}`);
    log(`http closed loop: ${fmt(closed)}`);
    log(`http open loop at ${rate}/s: ${fmt(open)}`);
    return result;
  } finally {
    server.kill();
    // Let it exit on its own (a --cpu-prof profile is written then); force it after 10 s.
    await new Promise<void>((r) => {
      if (server.exitCode !== null || server.signalCode !== null) return r();
      const force = setTimeout(() => server.kill('SIGKILL'), 10_000);
      server.once('exit', () => {
        clearTimeout(force);
        r();
      });
    });
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

function headers(method: string, name?: string): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method };
  if (name) h['mcp-name'] = name;
  return h;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await runHttpBench({ quick: process.env.BENCH_QUICK === '1', graph: process.env.HTTP_BENCH_GRAPH });
  const row = (r: LoadRun) => ({ 'calls/s': Math.round(r.callsPerSecond), p50: +r.p50.toFixed(1), p99: +r.p99.toFixed(1), max: +r.max.toFixed(0), errors: r.errors, toolErrors: r.toolErrors, dropped: r.dropped, 'server cpu ms/call': r.serverCpuMsPerCall?.toFixed(2), 'client cpu ms/call': r.clientCpuMsPerCall.toFixed(2) });
  console.table({ closed: row(result), [`open@${result.openLoop.targetRate}`]: row(result.openLoop) });
  console.table(Object.fromEntries(Object.entries(result.byTool).map(([t, v]) => [t, { 'closed p50': +v.p50.toFixed(1), 'closed p99': +v.p99.toFixed(1), 'open p50': +result.openLoop.byTool[t]!.p50.toFixed(1), 'open p99': +result.openLoop.byTool[t]!.p99.toFixed(1), count: v.count }])));
  if (process.env.HTTP_BENCH_JSON) console.log(JSON.stringify(result));
}
