import { closeSync, constants, linkSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { HttpTransport, type HttpOptions } from './http.ts';

/**
 * Binding the web-standard HTTP handler to a Node `http.Server`: address parsing, the Host
 * allowlist derived from the bound address, streaming responses (SSE) with backpressure, and the
 * `--ready-file` handshake written only after the listener is bound.
 */

export interface HttpAddress {
  host: string;
  port: number;
}

/** Parse `host:port`, `[v6]:port` or `:port` (all interfaces is explicit: 0.0.0.0 or [::]). */
export function parseHttpAddress(text: string): HttpAddress {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  if (!m) throw new TypeError(`Cannot parse --http '${text}': expected host:port, e.g. 127.0.0.1:8765 or [::1]:8765`);
  const host = m[1] ?? (m[2] || '127.0.0.1');
  const port = Number(m[3]);
  if (port > 65535) throw new TypeError(`Cannot parse --http '${text}': port ${port} is above 65535`);
  if (host !== 'localhost' && !isIP(host)) throw new TypeError(`Cannot parse --http '${text}': '${host}' is not an IP address or localhost`);
  return { host, port };
}

export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** Host header values accepted on a specific or loopback bind. */
export function allowedHostsFor(host: string, port: number): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  names.add(isIP(host) === 6 ? `[${host.toLowerCase()}]` : host.toLowerCase());
  const out = new Set<string>();
  for (const n of names) {
    out.add(n);
    out.add(`${n}:${port}`);
  }
  return out;
}

/** Check a ready-file path before binding: its parent must exist and the file must not. */
export function checkReadyFile(path: string): void {
  let parent;
  try {
    parent = statSync(dirname(path));
  } catch {
    throw new Error(`Cannot use --ready-file ${path}: its parent directory does not exist`);
  }
  if (!parent.isDirectory()) throw new Error(`Cannot use --ready-file ${path}: ${dirname(path)} is not a directory`);
  try {
    statSync(path);
  } catch {
    return;
  }
  throw new Error(`Cannot use --ready-file ${path}: the file already exists (it is never overwritten)`);
}

/** Atomically publish the ready file (mode 0600): write a temp file, then hard-link it into place (fails if present). */
function writeReadyFile(path: string, content: string): void {
  const tmp = join(dirname(path), `.${process.pid}.${Date.now()}.ready.tmp`);
  const fd = openSync(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (err) {
    throw new Error(`Cannot write --ready-file ${path}: ${(err as NodeJS.ErrnoException).code === 'EEXIST' ? 'the file already exists' : (err as Error).message}`);
  } finally {
    unlinkSync(tmp);
  }
}

async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  let path = req.url ?? '/';
  if (!path.startsWith('/')) path = '/' + path.replace(/^[a-z]+:\/\/[^/]*/i, '');
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(`http://localhost${path}`, {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // @ts-expect-error -- Node's fetch needs duplex for a streamed request body
    duplex: 'half',
    signal,
  });
}

async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  if (headers['content-type']?.startsWith('text/event-stream')) res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => {
        const finish = () => {
          res.off('drain', finish);
          res.off('close', finish);
          resolve();
        };
        res.on('drain', finish);
        res.on('close', finish);
      });
      if (res.destroyed) break;
    }
  } catch {
    // the client went away
  } finally {
    res.end();
  }
}

export interface HttpListener {
  address: HttpAddress;
  /** `http://host:port/mcp` as a client would use it. */
  mcpUrl: string;
  transport: HttpTransport;
  server: Server;
  close(): Promise<void>;
}

/** Bind the MCP HTTP transport. Resolves once listening (and the ready file, if asked, is written). */
export async function listenHttp(
  address: HttpAddress,
  options: Omit<HttpOptions, 'allowedHosts'> & { readyFile?: string; onBound?: (mcpUrl: string) => void },
): Promise<HttpListener> {
  if (options.readyFile) checkReadyFile(options.readyFile);
  let transport: HttpTransport | undefined;
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    void toWebRequest(req, controller.signal)
      .then((request) => transport!.handle(request))
      .then((response) => sendWebResponse(response, res))
      .catch((err: unknown) => {
        options.log?.(`[synaptic] HTTP error: ${String(err)}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end();
      });
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`Cannot listen on ${address.host}:${address.port}: ${err.code === 'EADDRINUSE' ? 'the address is in use' : err.message}`)));
    server.listen(address.port, address.host.replace(/^\[|\]$/g, ''), () => resolve());
  });
  const bound = server.address() as { address: string; port: number };
  const actual: HttpAddress = { host: address.host, port: bound.port };
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
    address: actual,
    mcpUrl,
    transport,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        transport!.close();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
