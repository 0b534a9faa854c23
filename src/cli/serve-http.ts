import { listenHttp, parseHttpAddress, checkReadyFile, isWildcard } from '../mcp/http-listen.node.ts';
import type { SynapticServer } from '../mcp/synaptic-server.ts';
import { UsageError } from './command.ts';

export interface HttpServeArgs {
  http: string;
  apiKey?: string;
  readyFile?: string;
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
 * every hot reload go to subscribers; the startup line goes to stderr.
 */
export async function serveHttp(server: SynapticServer, args: HttpServeArgs, log: (line: string) => void): Promise<void> {
  const address = parseHttpAddress(args.http);
  const apiKey = (args.apiKey ?? process.env.SYNAPTIC_API_KEY ?? '').trim() || undefined;
  if (isWildcard(address.host) && !apiKey) {
    log(`[synaptic] warning: serving on all interfaces (${address.host}) with no API key: anyone who can reach this port can read the graph; pass --api-key or set SYNAPTIC_API_KEY`);
  }
  const onBound = (url: string) => log(`[synaptic] MCP server on ${url}`);
  const listener = await listenHttp(address, { core: server.core, hub: server.hub, apiKey, log, readyFile: args.readyFile, onBound });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await listener.close();
}
