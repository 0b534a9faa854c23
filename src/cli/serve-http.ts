import { availableParallelism } from 'node:os';
import { listenHttp, parseHttpAddress, checkReadyFile, isWildcard } from '../mcp/http/listen.node.ts';
import { ToolPool, type ToolWorkerInit } from '../mcp/http/tool-pool.node.ts';
import type { SynapticServer } from '../mcp/synaptic-server.ts';
import { UsageError } from './command.ts';

export interface HttpServeArgs {
  http: string;
  apiKey?: string;
  readyFile?: string;
  /** Graph-tool worker threads (0: every call on the main thread). */
  threads?: number;
  /** With threads > 0: how a worker builds the same graph tools. */
  workerInit?: ToolWorkerInit;
  /** Most legacy (initialize) sessions kept at once (default 1000). */
  maxSessions?: number;
}

/**
 * The default `--threads`: none on one or two cores (measured on two cores: a worker raised the
 * closed-loop throughput by a quarter but made the open-loop tail worse, three busy threads sharing
 * two cores), else one per core beyond the first (the main thread keeps HTTP), at most two (each
 * holds its own copy of the graph; pass --threads for more).
 */
export function defaultThreads(): number {
  const cores = availableParallelism();
  return cores <= 2 ? 0 : Math.min(2, cores - 1);
}

/** Validate the HTTP flags before the graph loads, so a bad flag fails fast with exit code 2. */
export function checkHttpArgs(args: HttpServeArgs): void {
  try {
    parseHttpAddress(args.http);
    if (args.readyFile) checkReadyFile(args.readyFile);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * Serve an assembled Synaptic server over Streamable HTTP until SIGINT/SIGTERM: resource updates on
 * every hot reload go to subscribers; the startup line goes to stderr. With threads, the graph-tool
 * workers are started (and ready) before the port is bound, and every hot reload reaches them.
 */
export async function serveHttp(server: SynapticServer, args: HttpServeArgs, log: (line: string) => void): Promise<void> {
  const address = parseHttpAddress(args.http);
  const apiKey = (args.apiKey ?? process.env.SYNAPTIC_API_KEY ?? '').trim() || undefined;
  if (isWildcard(address.host) && !apiKey) {
    log(`[synaptic] warning: serving on all interfaces (${address.host}) with no API key: anyone who can reach this port can read the graph; pass --api-key or set SYNAPTIC_API_KEY`);
  }
  // Build the lazy indexes (ranking postings, name maps, label order, node references, the graph copy)
  // before the port is bound, as the workers do: built by the timer after the load instead, they
  // hold every call in flight for most of a second on a 50k-node graph, just as clients arrive.
  server.live.engine.warm(true);
  let pool: ToolPool | undefined;
  if (args.threads && args.workerInit) {
    const started = performance.now();
    const p = new ToolPool({ size: args.threads, init: args.workerInit, log, beforeCall: () => server.engine() });
    server.live.onReload(() => p.reload());
    await p.start();
    pool = p;
    if (p.readyCount) log(`[synaptic] ${p.readyCount} graph-tool worker thread${p.readyCount > 1 ? 's' : ''} ready in ${Math.round(performance.now() - started)} ms`);
    else log('[synaptic] warning: no graph-tool worker thread started; answering every call on the main thread');
  }
  const onBound = (url: string) => log(`[synaptic] MCP server on ${url}`);
  const listener = await listenHttp(address, { core: server.core, hub: server.hub, apiKey, log, readyFile: args.readyFile, onBound, offload: pool?.offload, maxSessions: args.maxSessions });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await listener.close();
  await pool?.close();
}
