import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpReply, HttpRequestLike } from './reply.ts';

/**
 * The transport on Node's `http.Server`: an `IncomingMessage` (body read, within the limit) as the
 * request the transport reads, and the transport's reply written to the `ServerResponse` (string
 * and byte bodies in one write, streams with backpressure).
 */

/** Headers whose repeats Node drops (the first value wins), as `IncomingMessage.headers` does. */
const FIRST_VALUE_WINS = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

/**
 * One request header (lower-case name) read from Node's flat `rawHeaders` list, with the value
 * `req.headers[name]` would give (joined like `header()` joins an array): the first value of a
 * drop-duplicates header, cookies joined by '; ', others by ', '. Node builds the whole
 * `req.headers` object on its first use, which costs more than the few lookups a call makes.
 */
export function rawHeader(raw: readonly string[], name: string): string | null {
  let out: string | null = null;
  const first = FIRST_VALUE_WINS.has(name);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length !== name.length || (key !== name && key.toLowerCase() !== name)) continue;
    const value = raw[i + 1]!;
    if (out === null) {
      out = value;
      if (first) break;
    } else out += (name === 'cookie' ? '; ' : ', ') + value;
  }
  return out;
}

/**
 * Read a request body into memory, stopping once it passes `limit` (the handler then answers 413 and
 * the connection is closed, so a huge upload is never buffered whole).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; truncated: boolean }> {
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
export class NodeRequest implements HttpRequestLike {
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
export async function sendReply(reply: HttpReply, res: ServerResponse): Promise<void> {
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
