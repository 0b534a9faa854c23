import { createServer, type Server } from 'node:http';
import { isIP } from 'node:net';
import { allowedHostsFor, checkReadyFile, isWildcard, writeReadyFile, type HttpAddress } from './address.node.ts';
import { NodeRequest, readBody, sendReply } from './node-request.node.ts';
import { MAX_IN_FLIGHT, PipeliningLimit } from './pipelining.node.ts';
import { HttpTransport, type HttpOptions } from './transport.ts';

export { allowedHostsFor, checkReadyFile, isWildcard, parseHttpAddress, type HttpAddress } from './address.node.ts';

/**
 * `serve --http` on Node's `http.Server`: it owns the port, parses every request and keeps the
 * connection rules (keep-alive with an idle close, pipelined replies in order, 400 for a malformed
 * head, 408 for a head or body that stalls, 431 for a head over 16 KB, and no more reading from a
 * connection whose replies go unread); this file adds the body limit (413), a limit on requests in
 * flight per connection, and feeds `HttpTransport.handleRaw`.
 */

export interface HttpTimeouts {
  /** A request head must arrive within this (ms; 408 after). */
  headersMs: number;
  /** A whole request, head and body, must arrive within this (ms; 408 after). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (ms). */
  keepAliveMs: number;
  /** How often the two request deadlines are checked (ms): a late 408 comes at most this late. */
  checkEveryMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { headersMs: 20_000, requestMs: 60_000, keepAliveMs: 5_000, checkEveryMs: 1_000 };
/** Node's default, fixed here so a `--max-http-header-size` in NODE_OPTIONS does not change it. */
const MAX_HEAD_BYTES = 16 * 1024;

export interface HttpListener {
  address: HttpAddress;
  /** `http://host:port/mcp` as a client would use it. */
  mcpUrl: string;
  transport: HttpTransport;
  server: Server;
  /** Times a connection's reading was paused for having too many requests in flight. */
  readonly pipeliningPauses: number;
  close(): Promise<void>;
}

/** Bind the MCP HTTP transport. Resolves once listening (and the ready file, if asked, is written). */
export async function listenHttp(
  address: HttpAddress,
  options: Omit<HttpOptions, 'allowedHosts'> & {
    readyFile?: string;
    onBound?: (mcpUrl: string) => void;
    timeouts?: Partial<HttpTimeouts>;
    /** Requests one connection may have in flight before its reading pauses (default 64). */
    maxInFlight?: number;
  },
): Promise<HttpListener> {
  if (options.readyFile) checkReadyFile(options.readyFile);
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const limit = new PipeliningLimit(options.maxInFlight ?? MAX_IN_FLIGHT);
  let transport: HttpTransport | undefined;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const server = createServer({ maxHeaderSize: MAX_HEAD_BYTES, noDelay: true, connectionsCheckingInterval: timeouts.checkEveryMs }, (req, res) => {
    const socket = req.socket;
    limit.admit(socket);
    // Only a client that leaves before the reply is complete (an SSE reader going away) aborts. The
    // controller is made on first use (SSE streams); one asked for after the client left starts aborted.
    let controller: AbortController | undefined;
    let left = false;
    res.on('close', () => {
      limit.release(socket);
      if (res.writableFinished) return;
      left = true;
      controller?.abort();
    });
    const signal = (): AbortSignal => {
      if (!controller) {
        controller = new AbortController();
        if (left) controller.abort();
      }
      return controller.signal;
    };
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    void (hasBody ? readBody(req, maxBody) : Promise.resolve(undefined))
      .then((read) => {
        // An over-limit body was not read to its end: close the connection after answering.
        if (read?.truncated) res.shouldKeepAlive = false;
        return transport!.handleRaw(new NodeRequest(req, read?.body, read?.truncated ? maxBody + 1 : undefined, signal));
      })
      .then((reply) => sendReply(reply, res))
      .catch((err: unknown) => {
        options.log?.(`[synaptic] HTTP error: ${String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end();
      });
  });
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`Cannot listen on ${address.host}:${address.port}: ${err.code === 'EADDRINUSE' ? 'the address is in use' : err.message}`)));
    server.listen(address.port, address.host.replace(/^\[|\]$/g, ''), () => resolve());
  });
  const bound = server.address() as { address: string; port: number };
  transport = new HttpTransport({ ...options, allowedHosts: isWildcard(address.host) ? undefined : allowedHostsFor(address.host, bound.port) });
  const hostPart = isIP(address.host) === 6 ? `[${address.host}]` : address.host;
  const mcpUrl = `http://${hostPart}:${bound.port}/mcp`;
  options.onBound?.(mcpUrl);
  if (options.readyFile) {
    try {
      writeReadyFile(options.readyFile, JSON.stringify({ address: `${hostPart}:${bound.port}`, mcp_url: mcpUrl }) + '\n');
    } catch (err) {
      server.close();
      transport.close();
      throw err;
    }
  }
  return {
    address: { host: address.host, port: bound.port },
    mcpUrl,
    transport,
    server,
    get pipeliningPauses() {
      return limit.pauses;
    },
    close: () =>
      new Promise<void>((resolve) => {
        transport!.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
