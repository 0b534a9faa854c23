import { closeSync, constants, linkSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, isIP } from 'node:net';
import { dirname, join } from 'node:path';
import { HttpTransport, type HttpOptions, type HttpReply, type HttpRequestLike } from './http.ts';
import { rawHeader, WireServer } from './http-wire.node.ts';

export { rawHeader };

/**
 * Binding the web-standard HTTP handler to a Node `http.Server`: address parsing, the Host
 * allowlist derived from the bound address, streaming responses (SSE) with backpressure, and the
 * `--ready-file` handshake written only after the listener is bound. By default a plain net server
 * owns the port and serves keep-alive `POST /mcp` calls itself (http-wire.node.ts), handing every
 * other connection to the `http.Server`; both feed `HttpTransport.handleRaw`.
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

/**
 * Read a request body into memory, stopping once it passes `limit` (the handler then answers 413 and
 * the connection is closed, so a huge upload is never buffered whole).
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve({ body: Buffer.concat(chunks), truncated: true });
      }
    };
    req.on('data', onData);
    req.once('end', () => resolve({ body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), truncated: false }));
    req.once('error', reject);
  });
}

/** A plain request path (no query, escapes or dot segments): its URL pathname is the path itself. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)*\/?$/;

/**
 * A Node request (body already read) as the transport reads it. The URL and the abort signal are
 * built only when asked for (a tool call needs neither; REST and SSE do). A class, so the lazy
 * getters live on the prototype instead of making every request object a slow dictionary.
 */
class NodeRequest implements HttpRequestLike {
  readonly method: string;
  readonly pathname: string | undefined;
  readonly bodyBytes: number | undefined;
  private parsed: URL | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly body: Buffer | undefined,
    truncatedAt: number | undefined,
    private readonly signalOf: () => AbortSignal,
  ) {
    this.method = req.method ?? 'GET';
    const path = req.url ?? '/';
    this.pathname = PLAIN_PATH.test(path) ? path : undefined;
    this.bodyBytes = truncatedAt ?? body?.length;
  }

  get url(): URL {
    if (!this.parsed) {
      let path = this.req.url ?? '/';
      if (!path.startsWith('/')) path = '/' + path.replace(/^[a-z]+:\/\/[^/]*/i, '');
      try {
        this.parsed = new URL(path, 'http://localhost');
      } catch {
        this.parsed = new URL('http://localhost/');
      }
    }
    return this.parsed;
  }

  get signal(): AbortSignal {
    return this.signalOf();
  }

  header(name: string): string | null {
    return rawHeader(this.req.rawHeaders, name);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body ? this.body.toString('utf8') : '');
  }
}

/**
 * Replies finished in one turn of the event loop are written together at its end (setImmediate):
 * each write to a loopback socket wakes its client, and on a machine with few cores a woken client
 * preempts the server; writing a turn's replies back to back costs one such switch per turn instead
 * of one per reply.
 */
let endQueue: Array<{ res: ServerResponse; body: string | Uint8Array | undefined }> = [];

function queueEnd(res: ServerResponse, body: string | Uint8Array | undefined): void {
  if (!endQueue.length) setImmediate(flushEnds);
  endQueue.push({ res, body });
}

function flushEnds(): void {
  const batch = endQueue;
  endQueue = [];
  for (const { res, body } of batch) {
    try {
      res.end(body);
    } catch {
      // the client went away; the others still get their replies
    }
  }
}

/** Write the transport's reply: string and byte bodies in one write (no Nagle stall), streams (SSE) with backpressure. */
async function sendReply(reply: HttpReply, res: ServerResponse): Promise<void> {
  const body = reply.body;
  if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
    const length = body === undefined ? undefined : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    let headers = reply.headers;
    if (length !== undefined) {
      headers = Object.assign({}, headers); // (a spread of the varying header shapes is V8's slow path)
      headers['content-length'] = String(length);
    }
    res.writeHead(reply.status, headers);
    queueEnd(res, body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const reader = body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const finish = () => {
            res.off('drain', finish);
            res.off('close', finish);
            resolve();
          };
          res.on('drain', finish);
          res.on('close', finish);
        });
      }
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
  /** Node's HTTP server: every request when the fast path is off, else the connections it hands over. */
  server: Server;
  /** The fast path (undefined when off): its counters tell what it served. */
  wire: WireServer | undefined;
  close(): Promise<void>;
}

/** Bind the MCP HTTP transport. Resolves once listening (and the ready file, if asked, is written). */
export async function listenHttp(
  address: HttpAddress,
  options: Omit<HttpOptions, 'allowedHosts'> & {
    readyFile?: string;
    onBound?: (mcpUrl: string) => void;
    /** Serve keep-alive `POST /mcp` calls on the fast path (http-wire.node.ts); false: every request through Node's HTTP server. Default true. */
    fastPath?: boolean;
  },
): Promise<HttpListener> {
  if (options.readyFile) checkReadyFile(options.readyFile);
  let transport: HttpTransport | undefined;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const server = createServer((req, res) => {
    // Only a client that leaves before the reply is complete (an SSE reader going away) aborts. The
    // controller is made on first use (SSE streams); one asked for after the client left starts aborted.
    let controller: AbortController | undefined;
    let left = false;
    res.on('close', () => {
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
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  // With the fast path a plain net server owns the port and passes Node's HTTP server the connections
  // it does not serve (that server never listens itself).
  const wire = options.fastPath === false ? undefined : new WireServer({ handle: (req) => transport!.handleRaw(req), httpServer: server, maxBodyBytes: maxBody, log: options.log });
  const bind = wire ? createNetServer({ allowHalfOpen: true, noDelay: true }, wire.accept) : server;
  await new Promise<void>((resolve, reject) => {
    bind.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(`Cannot listen on ${address.host}:${address.port}: ${err.code === 'EADDRINUSE' ? 'the address is in use' : err.message}`)));
    bind.listen(address.port, address.host.replace(/^\[|\]$/g, ''), () => resolve());
  });
  // Node starts its header and request timeouts for connections on 'listening'.
  if (wire) server.emit('listening');
  const bound = bind.address() as { address: string; port: number };
  const actual: HttpAddress = { host: address.host, port: bound.port };
  transport = new HttpTransport({ ...options, allowedHosts: isWildcard(address.host) ? undefined : allowedHostsFor(address.host, bound.port) });
  const hostPart = isIP(address.host) === 6 ? `[${address.host}]` : address.host;
  const mcpUrl = `http://${hostPart}:${bound.port}/mcp`;
  options.onBound?.(mcpUrl);
  if (options.readyFile) {
    try {
      writeReadyFile(options.readyFile, JSON.stringify({ address: `${hostPart}:${bound.port}`, mcp_url: mcpUrl }) + '\n');
    } catch (err) {
      wire?.close();
      server.close();
      if (bind !== server) bind.close();
      transport.close();
      throw err;
    }
  }
  return {
    address: actual,
    mcpUrl,
    transport,
    server,
    wire,
    close: () =>
      new Promise<void>((resolve) => {
        transport!.close();
        wire?.close();
        server.closeAllConnections?.();
        if (bind === server) server.close(() => resolve());
        else {
          server.close();
          bind.close(() => resolve());
        }
      }),
  };
}
