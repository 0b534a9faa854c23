// Load on `synaptic serve --http` over loopback: N concurrent clients issue a fixed number of mixed
// tool calls (find_callers, affected, query_graph, get_source) while a stalled SSE listener and a
// byte-by-byte body sit on other connections. Reports calls/s, latency percentiles and errors.
// HTTP_BENCH_GRAPH=<graph.json> picks the graph (>= 50k nodes for the target); without it the
// fixture repo is extracted. BENCH_QUICK=1: fewer calls and clients. No timing asserts.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist/src/cli/main.js');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

export interface HttpBenchResult {
  graph: string;
  nodes: number;
  clients: number;
  calls: number;
  seconds: number;
  callsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  toolErrors: number;
  byTool: Record<string, { p50: number; p99: number; count: number }>;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
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
  const doc = JSON.parse(readFileSync(graph, 'utf8')) as { nodes: { id: string; label: string; kind: string }[] };
  const symbols = doc.nodes.filter((n) => n.kind === 'function' || n.kind === 'method').map((n) => n.id);
  const words = [...new Set(doc.nodes.flatMap((n) => n.label.split(/[^A-Za-z]+|(?=[A-Z])/).filter((w) => w.length > 3)))].slice(0, 2000);
  const ready = join(work ?? mkdtempSync(join(tmpdir(), 'synaptic-http-bench-')), 'ready.json');
  const server = spawn(process.execPath, [CLI, 'serve', '--graph', graph, '--http', '127.0.0.1:0', '--ready-file', ready], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(dirname(ready), 'data') },
  });
  try {
    const deadline = Date.now() + 120_000;
    while (!existsSync(ready)) {
      if (server.exitCode !== null || Date.now() > deadline) throw new Error('Cannot run the HTTP bench: the server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = new URL((JSON.parse(readFileSync(ready, 'utf8')) as { mcp_url: string }).mcp_url);
    const clients = opts.quick ? 16 : 64;
    const total = opts.quick ? 2000 : 20000;
    const pool = new Pool(url.origin, { connections: clients, pipelining: 1 });

    // Misbehaving clients that must not hold anyone up: an SSE listener never read, a trickled body.
    const stalled = await pool.request({ path: '/mcp', method: 'POST', headers: headers('subscriptions/listen'), body: JSON.stringify({ jsonrpc: '2.0', id: 'stall', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['synaptic://*'] }, _meta: META } }) });
    const trickle = connect(Number(url.port), '127.0.0.1');
    trickle.on('error', () => {});
    trickle.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{`);
    const trickleTimer = setInterval(() => trickle.write(' '), 50);

    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
    const makeCall = (i: number): { tool: string; args: Record<string, unknown> } => {
      switch (i % 4) {
        case 0: return { tool: 'find_callers', args: { label: symbols[rnd(symbols.length)] } };
        case 1: return { tool: 'affected', args: { label: symbols[rnd(symbols.length)], depth: 3 } };
        case 2: return { tool: 'query_graph', args: { question: `${words[rnd(words.length)]} ${words[rnd(words.length)]}` } };
        default: return { tool: 'get_source', args: { label: symbols[rnd(symbols.length)] } };
      }
    };
    const latencies: number[] = [];
    const byTool = new Map<string, number[]>();
    let errors = 0;
    let toolErrors = 0;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: clients }, async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const { tool, args } = makeCall(i);
        const started = performance.now();
        try {
          const res = await pool.request({ path: '/mcp', method: 'POST', headers: headers('tools/call', tool), body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: tool, arguments: args, _meta: META } }) });
          const body = (await res.body.json()) as { result?: { isError?: boolean } };
          if (res.statusCode !== 200 || !body.result) errors++;
          else if (body.result.isError) toolErrors++;
        } catch {
          errors++;
        }
        const ms = performance.now() - started;
        latencies.push(ms);
        let list = byTool.get(tool);
        if (!list) byTool.set(tool, (list = []));
        list.push(ms);
      }
    }));
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(trickleTimer);
    trickle.destroy();
    stalled.body.destroy();
    await pool.close();
    latencies.sort((a, b) => a - b);
    const result: HttpBenchResult = {
      graph,
      nodes: doc.nodes.length,
      clients,
      calls: latencies.length,
      seconds,
      callsPerSecond: latencies.length / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? 0,
      errors,
      toolErrors,
      byTool: Object.fromEntries([...byTool].map(([tool, l]) => {
        l.sort((a, b) => a - b);
        return [tool, { p50: percentile(l, 50), p99: percentile(l, 99), count: l.length }];
      })),
    };
    log(`http: ${result.calls} calls from ${clients} clients on ${result.nodes} nodes in ${seconds.toFixed(1)} s = ${result.callsPerSecond.toFixed(0)}/s, p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ${errors} errors`);
    return result;
  } finally {
    server.kill();
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
  console.table([{ ...result, byTool: undefined }]);
  console.table(result.byTool);
}
