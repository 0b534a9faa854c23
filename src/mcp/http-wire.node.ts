import { STATUS_CODES, type Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpReply, HttpRequestLike } from './http.ts';

/**
 * The HTTP/1.1 fast path of `serve --http`: the common request shape, a keep-alive `POST /mcp` with
 * a Content-Length body within the limit, read straight from the socket's bytes and answered with one
 * write per socket per event-loop turn, skipping Node's HTTP parser and its IncomingMessage and
 * ServerResponse objects (about a fifth of a graph-tool call's server CPU under load).
 *
 * The request goes to the same handler as Node's path (`HttpTransport.handleRaw`, where routing, the
 * Host allowlist and the API key are checked), and the reply carries the headers Node would write, in
 * Node's order. Any other request on a connection (another method or path, Transfer-Encoding, Expect,
 * Upgrade, `Connection: close`, HTTP/1.0, a missing Host, a body over the limit, an over-long or
 * malformed head, subscriptions/listen, which streams) hands the connection to Node's `http.Server`
 * once the replies before it are written: its unread bytes are put back (`socket.unshift`) and the
 * server gets a `connection` event. The connection stays with Node from then on.
 */

/** Headers whose repeats Node drops (the first value wins), as `IncomingMessage.headers` does. */
const FIRST_VALUE_WINS = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after',
  'server', 'user-agent',
]);

/**
 * One request header (lower-case name) read from a flat `[name, value, ...]` list (Node's
 * `rawHeaders`, or the fast path's), with the value `req.headers[name]` would give (joined like
 * `header()` joins an array): the first value of a drop-duplicates header, cookies joined by '; ',
 * others by ', '. Node builds the whole `req.headers` object on its first use, which costs more than
 * the few lookups a call makes.
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

export interface WireOptions {
  /** The handler every request goes to (Node's path calls the same one). */
  handle: (req: HttpRequestLike) => Promise<HttpReply>;
  /** Receives the connections the fast path does not serve; its timeouts and limits apply to heads and bodies here too. */
  httpServer: HttpServer;
  /** Largest body answered here; a larger Content-Length goes to Node's path (which answers 413). */
  maxBodyBytes: number;
  log?: (line: string) => void;
}

/** Node's default `maxHeaderSize`: a longer head goes to Node, which answers 431. */
const MAX_HEAD_BYTES = 16 * 1024;
/** Requests answered out of order wait in a connection's queue; past this many, its reading pauses. */
const MAX_QUEUED = 64;
const CRLF2 = Buffer.from('\r\n\r\n');
const REQUEST_LINE = 'POST /mcp HTTP/1.1';
/** What a head may not hold: bytes other than visible ASCII, space, tab and CRLF (a lone CR or LF included); Node's parser takes those. */
const HEAD_REFUSED = /[^\t\r\n\x20-\x7e]|\r(?!\n)|(?<!\r)\n/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const DIGITS = /^[0-9]+$/;
/** The reply scratch buffer: room for a head, then a body of up to (SCRATCH_BYTES - HEAD_ROOM) / 3 characters. */
const SCRATCH_BYTES = 256 * 1024;
const HEAD_ROOM = 2048;
/** What Node writes to a connection whose request did not complete in time (and nothing was written before). */
const TIMEOUT_408 = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/** A parsed head the fast path serves. */
interface Head {
  /** Flat [lower-case name, value, ...]. */
  raw: string[];
  contentLength: number;
}

/** Parse a request head (without its final CRLFCRLF); undefined when the request is not the fast path's. */
export function parseFastHead(head: string, maxBody: number): Head | undefined {
  if (HEAD_REFUSED.test(head)) return undefined;
  const lines = head.split('\r\n');
  if (lines[0] !== REQUEST_LINE) return undefined;
  const raw: string[] = [];
  let contentLength = -1;
  let hosts = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon).toLowerCase();
    if (!TOKEN.test(name)) return undefined;
    // The usual 'name: value' without other surrounding space skips the trimming regex.
    const last = line.charCodeAt(line.length - 1);
    const value =
      line.charCodeAt(colon + 1) === 32 && line.length > colon + 2 && line.charCodeAt(colon + 2) !== 32 && line.charCodeAt(colon + 2) !== 9 && last !== 32 && last !== 9
        ? line.slice(colon + 2)
        : line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    switch (name) {
      case 'content-length':
        if (contentLength >= 0 || !DIGITS.test(value)) return undefined;
        contentLength = Number(value);
        break;
      case 'host':
        hosts++;
        break;
      case 'connection':
        if (value.toLowerCase() !== 'keep-alive') return undefined;
        break;
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined;
      case 'mcp-method':
        // its reply is a stream (SSE) that lives as long as the client wants: Node's path serves it
        if (value === 'subscriptions/listen') return undefined;
        break;
    }
    raw.push(name, value);
  }
  if (contentLength < 0 || contentLength > maxBody || hosts !== 1) return undefined;
  return { raw, contentLength };
}

const MCP_URL = 'http://localhost/mcp';

/** A fast-path request as the transport reads it (the URL and the abort signal are made on demand). */
class WireRequest implements HttpRequestLike {
  readonly method = 'POST';
  readonly pathname = '/mcp';
  readonly bodyBytes: number;
  private parsed: URL | undefined;
  controller: AbortController | undefined;

  constructor(
    private readonly raw: string[],
    private readonly body: string,
    bytes: number,
    private readonly conn: WireConnection,
  ) {
    this.bodyBytes = bytes;
  }

  get url(): URL {
    return (this.parsed ??= new URL(MCP_URL));
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.conn.closed) this.controller.abort();
      else this.conn.signals.add(this.controller);
    }
    return this.controller.signal;
  }

  header(name: string): string | null {
    return rawHeader(this.raw, name);
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }
}

interface Slot {
  reply: HttpReply | undefined;
  req: WireRequest;
}

/** The Date header's value, as Node caches it: recomputed when the second changes. */
let dateSecond = -1;
let dateText = '';
function httpDate(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(second * 1000).toUTCString();
  }
  return dateText;
}

/** One connection while the fast path serves it. */
class WireConnection {
  /** Unconsumed bytes (the start of the next request). */
  private buf: Buffer | undefined;
  /** Pieces of a body after `buf`, until the body is complete. */
  private more: Buffer[] = [];
  private moreBytes = 0;
  /** Where to resume looking for the head's end in `buf`. */
  private scanFrom = 0;
  private head: Head | undefined;
  private bodyStart = 0;
  /** Requests in arrival order, answered in that order. */
  private readonly queue: Slot[] = [];
  /** When the current incomplete request started (0: none). */
  partialSince: number;
  lastActive: number;
  closed = false;
  /** Stopped serving (closed, or handed to Node's server). */
  private detached = false;
  /** Waiting in the server's list of connections to flush. */
  queued = false;
  private ended = false;
  private handingOff = false;
  private streaming = false;
  private pausedForQueue = false;
  readonly signals = new Set<AbortController>();
  private readonly onData = (chunk: Buffer) => this.data(chunk);
  private readonly onEnd = () => this.end();
  private readonly onClose = () => this.close();
  private readonly onError = () => this.socket.destroy();
  private readonly onDrain = () => this.resumeIfRoom();

  constructor(
    readonly socket: Socket,
    private readonly wire: WireServer,
    now: number,
  ) {
    this.partialSince = now;
    this.lastActive = now;
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onClose);
    socket.on('error', this.onError);
    socket.on('drain', this.onDrain);
  }

  private data(chunk: Buffer): void {
    if (this.closed || this.handingOff) {
      if (this.handingOff) this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
      return;
    }
    const now = Date.now();
    this.lastActive = now;
    if (!this.buf) {
      this.buf = chunk;
      this.partialSince = now;
    } else if (this.head) {
      // A body arriving in pieces is joined once, when complete (not once per piece: quadratic for 4 MB).
      this.more.push(chunk);
      this.moreBytes += chunk.length;
      if (this.buf.length + this.moreBytes < this.bodyStart + this.head.contentLength) return;
      this.more.unshift(this.buf);
      this.buf = Buffer.concat(this.more);
      this.more = [];
      this.moreBytes = 0;
    } else {
      this.buf = Buffer.concat([this.buf, chunk]);
    }
    this.parse();
  }

  /** Take every complete request out of `buf`; stop at a partial one or at one for Node's path. */
  private parse(): void {
    while (this.buf && !this.handingOff) {
      const buf = this.buf;
      if (!this.head) {
        const end = buf.indexOf(CRLF2, this.scanFrom);
        if (end < 0) {
          if (buf.length > MAX_HEAD_BYTES) return this.handOff();
          this.scanFrom = Math.max(0, buf.length - 3);
          return;
        }
        if (end > MAX_HEAD_BYTES) return this.handOff();
        const head = parseFastHead(buf.toString('latin1', 0, end), this.wire.options.maxBodyBytes);
        if (!head) return this.handOff();
        this.head = head;
        this.bodyStart = end + 4;
      }
      const need = this.bodyStart + this.head.contentLength;
      if (buf.length < need) return;
      const req = new WireRequest(this.head.raw, buf.toString('utf8', this.bodyStart, need), this.head.contentLength, this);
      this.head = undefined;
      this.scanFrom = 0;
      if (buf.length === need) this.buf = undefined;
      else {
        this.buf = buf.subarray(need);
        this.partialSince = this.lastActive;
      }
      this.dispatch(req);
    }
  }

  private dispatch(req: WireRequest): void {
    this.wire.stats.requests++;
    const slot: Slot = { reply: undefined, req };
    this.queue.push(slot);
    if (this.queue.length >= MAX_QUEUED && !this.pausedForQueue) {
      this.pausedForQueue = true;
      this.socket.pause();
    }
    void this.wire.options.handle(req).then(
      (reply) => {
        slot.reply = reply;
        this.wire.ready(this);
      },
      (err: unknown) => {
        // handleRaw never throws; answer as Node's path does if it ever did
        this.wire.options.log?.(`[synaptic] HTTP error: ${String(err)}`);
        slot.reply = { status: 500, headers: { 'content-type': 'application/json' } };
        this.wire.ready(this);
      },
    );
  }

  /** Write the replies that are ready, in request order (called at the end of an event-loop turn). */
  flush(now: number): void {
    if (this.detached) return;
    let out = '';
    let closeAfter = false;
    const queue = this.queue;
    const keepAlive = this.wire.keepAliveHeader;
    let n = 0;
    while (n < queue.length && !this.streaming && !closeAfter) {
      const slot = queue[n]!;
      const reply = slot.reply;
      if (!reply) break;
      n++;
      if (slot.req.controller) this.signals.delete(slot.req.controller);
      const body = reply.body;
      if (reply.headers.connection === 'close') closeAfter = true;
      if (body === undefined) {
        out += replyHead(reply, now, keepAlive, -1) + '0\r\n\r\n';
      } else if (typeof body === 'string') {
        // The usual case, one reply ready: encoded once into the scratch buffer with its head before it.
        if (!out && (n === queue.length || !queue[n]!.reply) && this.wire.writeEncoded(this.socket, reply, body, now, keepAlive)) continue;
        out += replyHead(reply, now, keepAlive, Buffer.byteLength(body)) + body;
      } else if (body instanceof Uint8Array) {
        this.socket.write(out + replyHead(reply, now, keepAlive, body.byteLength));
        out = '';
        this.socket.write(body);
      } else {
        this.socket.write(out + replyHead(reply, now, keepAlive, -1));
        out = '';
        this.pump(body);
      }
    }
    if (out) this.socket.write(out);
    if (n) {
      queue.splice(0, n);
      this.lastActive = now;
    }
    if (closeAfter) {
      this.stop();
      this.socket.end();
      return;
    }
    this.resumeIfRoom();
    if (!queue.length && !this.streaming) {
      if (this.handingOff) this.completeHandOff();
      else if (this.ended) this.socket.end();
    }
  }

  /** A stream reply (not expected here: streaming requests go to Node's path) in chunked encoding, with backpressure. */
  private pump(body: ReadableStream<Uint8Array>): void {
    this.streaming = true;
    const reader = body.getReader();
    const socket = this.socket;
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done || this.closed) break;
          if (!value.byteLength) continue;
          socket.write(`${value.byteLength.toString(16)}\r\n`);
          socket.write(value);
          if (!socket.write('\r\n')) await new Promise<void>((resolve) => { socket.once('drain', resolve); socket.once('close', resolve); });
        }
      } catch {
        // the stream failed: end it
      } finally {
        if (this.closed) void reader.cancel().catch(() => {});
        else socket.write('0\r\n\r\n');
        this.streaming = false;
        this.wire.ready(this);
      }
    })();
  }

  private resumeIfRoom(): void {
    if (this.pausedForQueue && this.queue.length < MAX_QUEUED / 2 && !this.closed && !this.handingOff) {
      this.pausedForQueue = false;
      this.socket.resume();
    }
  }

  /** Stop reading requests here; hand the connection to Node's server once the earlier replies are out. */
  private handOff(): void {
    this.handingOff = true;
    this.socket.pause();
    if (!this.queue.length && !this.streaming) this.completeHandOff();
  }

  private completeHandOff(): void {
    const socket = this.socket;
    if (this.ended) {
      // the client already half-closed: Node's parser could not see the bytes; close as Node would after its reply
      this.stop();
      socket.end();
      return;
    }
    this.stop(true);
    if (this.buf) socket.unshift(this.buf);
    this.buf = undefined;
    this.wire.stats.handedOff++;
    this.wire.options.httpServer.emit('connection', socket);
    socket.resume();
  }

  /**
   * Detach from the socket and forget the connection: it was closed, is being closed, or goes to
   * Node's server (`toNode`), which then listens for its errors; otherwise a late error (a reset
   * while the last reply is written) still has a listener.
   */
  private stop(toNode = false): void {
    if (this.detached) return;
    this.detached = true;
    const socket = this.socket;
    socket.off('data', this.onData);
    socket.off('end', this.onEnd);
    socket.off('close', this.onClose);
    socket.off('drain', this.onDrain);
    if (toNode) socket.off('error', this.onError);
    this.wire.forget(this);
  }

  private end(): void {
    this.ended = true;
    if (this.handingOff) return;
    if (!this.queue.length && !this.streaming) this.socket.end();
  }

  private close(): void {
    this.closed = true;
    this.queue.length = 0;
    for (const c of this.signals) c.abort();
    this.signals.clear();
    this.stop();
  }

  /** Timeouts, checked about once a second: an incomplete request past its limit (408), an idle keep-alive connection. */
  check(now: number, headersTimeout: number, requestTimeout: number, keepAliveTimeout: number): void {
    if (this.queue.length || this.streaming || this.handingOff) return;
    if (this.buf || this.partialSince) {
      const limit = this.head ? requestTimeout : headersTimeout;
      if (limit > 0 && now - this.partialSince >= limit) {
        if (this.socket.bytesWritten === 0) this.socket.write(TIMEOUT_408);
        this.socket.destroy();
      }
      return;
    }
    if (keepAliveTimeout > 0 && now - this.lastActive >= keepAliveTimeout) this.socket.destroy();
  }

  /** After a reply, no request is in progress until the next byte arrives. */
  settle(): void {
    if (!this.buf && !this.head) this.partialSince = 0;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/**
 * The head of a reply as Node's path writes it (`writeHead` with the transport's headers plus
 * content-length for a string or byte body, then `end`): status line, those headers, Date, Connection
 * and Keep-Alive unless the reply set Connection, and Transfer-Encoding: chunked when the length is
 * not known (no body, or a stream).
 */
function replyHead(reply: HttpReply, now: number, keepAlive: string, length: number): string {
  let head = `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'unknown'}\r\n`;
  const headers = reply.headers;
  for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
  if (length >= 0) head += `content-length: ${length}\r\n`;
  head += `Date: ${httpDate(now)}\r\n`;
  if (headers.connection === undefined) head += keepAlive;
  return length >= 0 ? head + '\r\n' : head + 'Transfer-Encoding: chunked\r\n\r\n';
}

/**
 * Accepts connections for the fast path (`accept` is the net server's connection listener). Replies
 * finished in one turn of the event loop are written at its end (setImmediate), as Node's path does:
 * each write to a loopback socket wakes its client, which on a machine with few cores preempts the server.
 */
export class WireServer {
  private readonly conns = new Set<WireConnection>();
  private dirty: WireConnection[] = [];
  private readonly timer: ReturnType<typeof setInterval>;
  private scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  private keepAliveMs = -1;
  private keepAliveText = '';
  /** Requests answered here and connections handed to Node's server, since the start. */
  readonly stats = { requests: 0, handedOff: 0 };

  constructor(readonly options: WireOptions) {
    this.timer = setInterval(() => this.check(), 1000).unref();
  }

  /** The Connection and Keep-Alive lines Node adds to a keep-alive reply (its keepAliveTimeout may change). */
  get keepAliveHeader(): string {
    const ms = this.options.httpServer.keepAliveTimeout;
    if (ms !== this.keepAliveMs) {
      this.keepAliveMs = ms;
      this.keepAliveText = ms > 0 ? `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(ms / 1000)}\r\n` : 'Connection: keep-alive\r\n';
    }
    return this.keepAliveText;
  }

  accept = (socket: Socket): void => {
    this.conns.add(new WireConnection(socket, this, Date.now()));
  };

  ready(conn: WireConnection): void {
    if (conn.queued) return;
    conn.queued = true;
    if (!this.dirty.length) setImmediate(this.flush);
    this.dirty.push(conn);
  }

  private readonly flush = (): void => {
    const batch = this.dirty;
    this.dirty = [];
    const now = Date.now();
    for (const conn of batch) {
      conn.queued = false;
      try {
        conn.flush(now);
        conn.settle();
      } catch (err) {
        this.options.log?.(`[synaptic] HTTP write error: ${String(err)}`);
        conn.destroy();
      }
    }
  };

  /**
   * Write one reply with a string body from the scratch buffer: the body is encoded once (its byte
   * count is the Content-Length), the head is written in front of it, and the socket gets one buffer;
   * no length pass over the body and no joined string to flatten. A write the kernel did not take at
   * once keeps a reference to the buffer, so a new scratch buffer is made then. False when the reply
   * does not fit (the caller writes it as a string).
   */
  writeEncoded(socket: Socket, reply: HttpReply, body: string, now: number, keepAlive: string): boolean {
    if (body.length * 3 > SCRATCH_BYTES - HEAD_ROOM) return false;
    const scratch = this.scratch;
    const length = scratch.write(body, HEAD_ROOM, 'utf8');
    const head = replyHead(reply, now, keepAlive, length);
    if (head.length > HEAD_ROOM) return false;
    const start = HEAD_ROOM - head.length;
    scratch.write(head, start, 'latin1');
    socket.write(scratch.subarray(start, HEAD_ROOM + length));
    if (socket.writableLength !== 0) this.scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
    return true;
  }

  forget(conn: WireConnection): void {
    this.conns.delete(conn);
  }

  private check(): void {
    const s = this.options.httpServer;
    const now = Date.now();
    for (const conn of this.conns) conn.check(now, s.headersTimeout, s.requestTimeout, s.keepAliveTimeout);
  }

  /** Close every connection the fast path holds (server shutdown). */
  close(): void {
    clearInterval(this.timer);
    for (const conn of [...this.conns]) conn.destroy();
    this.conns.clear();
  }
}
