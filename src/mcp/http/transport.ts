import { createHash, timingSafeEqual } from 'node:crypto';
import {
  failure,
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MODERN_VERSIONS,
  PARSE_ERROR,
  requestEnvelope,
  RESOURCE_NOT_FOUND,
  UNSUPPORTED_PROTOCOL_VERSION,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from '../protocol.ts';
import type { McpCore } from '../server.ts';
import type { SubscriptionHub } from '../subscriptions.ts';
import { jsonReply as json, sseComment, sseEvent, SSE_HEADERS, type HttpReply, type HttpRequestLike } from './reply.ts';
import { restRoute } from './rest.ts';
import { LegacySessions, type LegacySession } from './sessions.ts';

export type { HttpReply, HttpRequestLike } from './reply.ts';

/**
 * Streamable HTTP for MCP as a web-standard `Request -> Response` handler: `POST /mcp` for both
 * protocol eras (stateless 2026-07-28 with routing headers; legacy sessions minted at `initialize`),
 * the legacy `GET /mcp` SSE stream and `DELETE /mcp`, modern `subscriptions/listen` SSE, and the
 * read-only REST routes under `/api/`. Every route passes the Host allowlist and the API key first.
 */

export interface HttpOptions {
  core: McpCore;
  hub: SubscriptionHub;
  /** Required key (X-API-Key or Authorization: Bearer); blank or absent disables auth. */
  apiKey?: string;
  /** Accepted Host header values (lower case); undefined accepts any (wildcard bind). */
  allowedHosts?: ReadonlySet<string>;
  log?: (line: string) => void;
  /** Largest request body accepted (default 4 MiB); more is answered 413. */
  maxBodyBytes?: number;
  /** Legacy sessions idle longer than this are dropped (default one hour). */
  sessionIdleMs?: number;
  /** Most legacy sessions kept at once; past it, a new one evicts the one idle longest (default 1000). */
  maxSessions?: number;
  /** SSE heartbeat interval on legacy GET streams (default 15 s). */
  heartbeatMs?: number;
  /**
   * Hands a `POST /mcp` (Host and API key already checked, body within the limit) to another
   * handler, e.g. a tool worker thread (`serve --http --threads N`); returning undefined keeps the
   * request on this thread.
   */
  offload?: (req: HttpRequestLike) => Promise<HttpReply> | undefined;
}

const MAX_BODY = 4 * 1024 * 1024;

const EMPTY_202: HttpReply = { status: 202, headers: {} };

/** HTTP status of a modern response: the error code decides. */
function modernStatus(response: JsonRpcResponse): number {
  if (!('error' in response)) return 200;
  switch (response.error.code) {
    case METHOD_NOT_FOUND:
    case RESOURCE_NOT_FOUND:
      return 404;
    case PARSE_ERROR:
    case INVALID_REQUEST:
    case INVALID_PARAMS:
    case HEADER_MISMATCH:
    case UNSUPPORTED_PROTOCOL_VERSION:
      return 400;
    case INTERNAL_ERROR:
      return 500;
    default:
      return 200;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Thrown by a body reader past the size limit; answered 413. */
class BodyTooLarge extends Error {}

export class HttpTransport {
  private readonly sessions: LegacySessions;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly keyDigest: Buffer | undefined;
  private readonly openStreams = new Set<() => void>();

  constructor(private readonly options: HttpOptions) {
    const key = options.apiKey?.trim();
    this.keyDigest = key ? digest(key) : undefined;
    this.sessions = new LegacySessions({ core: options.core, hub: options.hub, max: options.maxSessions, idleMs: options.sessionIdleMs, log: options.log });
    this.heartbeat = setInterval(() => this.sessions.broadcast(sseComment('ping')), options.heartbeatMs ?? 15_000).unref();
  }

  /** The web-standard entry point. Never throws. */
  handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const declared = Number(req.headers.get('content-length') ?? NaN);
    const limit = this.options.maxBodyBytes ?? MAX_BODY;
    const reply = await this.handleRaw({
      method: req.method,
      url,
      header: (name) => req.headers.get(name),
      bodyBytes: Number.isFinite(declared) ? declared : undefined,
      signal: req.signal,
      text: async () => {
        if (!req.body) return '';
        const reader = req.body.getReader();
        const chunks: Uint8Array[] = [];
        let size = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > limit) {
            await reader.cancel().catch(() => {});
            throw new BodyTooLarge();
          }
          chunks.push(value);
        }
        return Buffer.concat(chunks).toString('utf8');
      },
    });
    return new Response((reply.body ?? null) as BodyInit | null, { status: reply.status, headers: reply.headers });
  };

  /** The transport-level entry point (adapters call this). Never throws. */
  handleRaw = async (req: HttpRequestLike): Promise<HttpReply> => {
    try {
      const pathname = req.pathname ?? req.url.pathname;
      const isMcp = pathname === '/mcp' || pathname === '/mcp/';
      const isApi = pathname.startsWith('/api/');
      if (!isMcp && !isApi) return json(404, { error: `Not found: ${pathname} (the MCP endpoint is /mcp, REST is /api/*)` });
      if (!this.hostAllowed(req)) return json(403, { error: 'Forbidden: the Host header is not allowed for this server (DNS-rebinding protection)' });
      if (!this.authorized(req)) {
        return json(401, { error: 'Unauthorized: send the API key as X-API-Key or Authorization: Bearer <key>' }, { 'www-authenticate': 'Bearer' });
      }
      if (isApi) return await restRoute(this.options.core, req.method, req.url);
      if (req.method === 'POST') {
        if (this.options.offload && (req.bodyBytes ?? 0) <= (this.options.maxBodyBytes ?? MAX_BODY)) {
          const offloaded = this.options.offload(req);
          if (offloaded) return await offloaded;
        }
        return await this.post(req);
      }
      if (req.method === 'GET') return this.get(req);
      if (req.method === 'DELETE') return this.delete(req);
      return json(405, { error: `Method ${req.method} not allowed on /mcp` }, { allow: 'GET, POST, DELETE' });
    } catch (err) {
      if (err instanceof BodyTooLarge) return this.tooLarge();
      this.options.log?.(`[synaptic] HTTP handler error: ${err instanceof Error ? err.stack : String(err)}`);
      return json(500, failure(null, INTERNAL_ERROR, 'Internal error'));
    }
  };

  private tooLarge(): HttpReply {
    const limit = this.options.maxBodyBytes ?? MAX_BODY;
    return json(413, failure(null, INVALID_REQUEST, `Request body too large: the limit is ${limit} bytes`), { connection: 'close' });
  }

  /** Stop timers and end open streams (server shutdown). */
  close(): void {
    clearInterval(this.heartbeat);
    for (const end of this.openStreams) end();
    this.sessions.close();
  }

  private hostAllowed(req: HttpRequestLike): boolean {
    const allowed = this.options.allowedHosts;
    if (!allowed) return true;
    return allowed.has((req.header('host') ?? '').toLowerCase());
  }

  private authorized(req: HttpRequestLike): boolean {
    if (!this.keyDigest) return true;
    let given = req.header('x-api-key');
    if (given === null) {
      const m = /^bearer\s+(.+)$/i.exec(req.header('authorization') ?? '');
      given = m ? m[1]!.trim() : null;
    }
    if (given === null) return false;
    return timingSafeEqual(digest(given), this.keyDigest);
  }

  private async post(req: HttpRequestLike): Promise<HttpReply> {
    if ((req.bodyBytes ?? 0) > (this.options.maxBodyBytes ?? MAX_BODY)) return this.tooLarge();
    const text = await req.text();
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (err) {
      return json(400, failure(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`));
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      return json(400, failure(null, INVALID_REQUEST, 'Invalid Request: expected one JSON-RPC object (batches are not supported)'));
    }
    const m = message as Record<string, unknown>;
    const headerVersion = req.header('mcp-protocol-version');
    const envelope = requestEnvelope(m.params);
    const modern = envelope !== undefined || (headerVersion !== null && (MODERN_VERSIONS as readonly string[]).includes(headerVersion));
    return modern ? this.postModern(req, m, envelope?.version) : this.postLegacy(req, m);
  }

  /** Routing headers must agree with the body on a modern request. */
  private headerMismatch(req: HttpRequestLike, m: Record<string, unknown>, bodyVersion: string | undefined): string | undefined {
    const params = (m.params ?? {}) as Record<string, unknown>;
    const version = req.header('mcp-protocol-version');
    if (bodyVersion === undefined) return `MCP-Protocol-Version is ${version} but the body has no _meta["io.modelcontextprotocol/protocolVersion"]`;
    if (version !== bodyVersion) return `MCP-Protocol-Version header (${version ?? 'missing'}) does not match the body's protocol version (${bodyVersion})`;
    const method = req.header('mcp-method');
    if (method !== m.method) return `Mcp-Method header (${method ?? 'missing'}) does not match the body's method (${String(m.method)})`;
    const nameField = m.method === 'resources/read' ? 'uri' : m.method === 'tools/call' || m.method === 'prompts/get' ? 'name' : undefined;
    if (nameField) {
      const name = req.header('mcp-name');
      if (name !== params[nameField]) return `Mcp-Name header (${name ?? 'missing'}) does not match params.${nameField} (${String(params[nameField])})`;
    }
    return undefined;
  }

  private async postModern(req: HttpRequestLike, m: Record<string, unknown>, bodyVersion: string | undefined): Promise<HttpReply> {
    const id = (typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null) as JsonRpcId | null;
    const isRequest = 'id' in m && m.id !== undefined;
    const mismatch = this.headerMismatch(req, m, bodyVersion);
    if (mismatch) return json(400, failure(id, HEADER_MISMATCH, `Header mismatch: ${mismatch}`));
    if (!isRequest) {
      await this.options.core.handle(m, {});
      return EMPTY_202;
    }
    if (m.method === 'subscriptions/listen' && id !== null) {
      // Validate the envelope (version, capabilities) through the core with a cheap request first.
      const check = await this.options.core.handle({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: (m.params as Record<string, unknown>)?._meta } }, {});
      if (check && 'error' in check) return json(modernStatus(check), check);
      return this.listen(req, id, (m.params ?? {}) as Record<string, unknown>);
    }
    const response = await this.options.core.handle(m, {});
    if (!response) return EMPTY_202;
    return json(modernStatus(response), response);
  }

  /** A modern listen request: the POST response stays open as SSE (ack first) until the client cancels. */
  private listen(req: HttpRequestLike, id: JsonRpcId, params: Record<string, unknown>): HttpReply {
    let stop = () => {};
    let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
    let ack: JsonRpcMessage;
    const send = (message: JsonRpcMessage) => controllerRef?.enqueue(sseEvent(message));
    try {
      ({ ack, stop } = this.options.hub.listen(id, params, send));
    } catch (err) {
      return json(400, failure(id, INVALID_PARAMS, `Invalid params: ${(err as Error).message}`));
    }
    const end = () => {
      stop();
      this.openStreams.delete(end);
      try {
        controllerRef?.close();
      } catch {
        // already closed
      }
      controllerRef = undefined;
    };
    this.openStreams.add(end);
    req.signal.addEventListener('abort', end, { once: true });
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        controllerRef = controller;
        controller.enqueue(sseEvent(ack));
      },
      cancel: end,
    });
    return { status: 200, headers: SSE_HEADERS, body: stream };
  }

  private async postLegacy(req: HttpRequestLike, m: Record<string, unknown>): Promise<HttpReply> {
    const id = (typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null) as JsonRpcId | null;
    const isRequest = 'id' in m && m.id !== undefined;
    if (m.method === 'initialize') {
      const legacy = this.sessions.create();
      const response = await this.options.core.handle(m, legacy.session);
      if (response && 'result' in response) {
        // HTTP sessions support resource subscriptions (legacy stdio does not advertise them).
        const caps = response.result.capabilities as Record<string, unknown> | undefined;
        if (caps?.resources && typeof caps.resources === 'object') caps.resources = { ...(caps.resources as object), subscribe: true };
      }
      return json(200, response, { 'mcp-session-id': legacy.id });
    }
    const sessionId = req.header('mcp-session-id');
    let legacy: LegacySession | undefined;
    if (sessionId !== null) {
      legacy = this.sessions.use(sessionId);
      if (!legacy) return json(404, failure(id, INVALID_REQUEST, `Session not found: ${sessionId} (expired, evicted or unknown); send initialize again`));
    }
    const session = legacy?.session ?? { initialized: true };
    if (!isRequest) {
      await this.options.core.handle(m, session);
      return EMPTY_202;
    }
    if ((m.method === 'resources/subscribe' || m.method === 'resources/unsubscribe') && id !== null) {
      const uri = (m.params as Record<string, unknown> | undefined)?.uri;
      if (typeof uri !== 'string') return json(200, failure(id, INVALID_PARAMS, 'Invalid params: uri must be a string'));
      if (!legacy) return json(200, failure(id, INVALID_REQUEST, `${m.method} needs a session: send initialize first and pass its Mcp-Session-Id`));
      if (m.method === 'resources/subscribe') this.options.hub.subscribe(legacy, uri, (msg) => this.sessions.push(legacy!, msg));
      else this.options.hub.unsubscribe(legacy, uri);
      return json(200, { jsonrpc: '2.0', id, result: {} });
    }
    const response = await this.options.core.handle(m, session);
    if (!response) return EMPTY_202;
    return json(200, response);
  }

  private modernHeader(req: HttpRequestLike): boolean {
    const v = req.header('mcp-protocol-version');
    return v !== null && (MODERN_VERSIONS as readonly string[]).includes(v);
  }

  /** Legacy server-to-client SSE stream of a session: heartbeats, list changes, resource updates. */
  private get(req: HttpRequestLike): HttpReply {
    const legacy = this.sessionOf(req, 'GET /mcp is not part of MCP 2026-07-28: use subscriptions/listen', 'GET /mcp needs the Mcp-Session-Id header from initialize');
    if (!('streams' in legacy)) return legacy;
    let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
    const end = () => {
      if (controllerRef) legacy.streams.delete(controllerRef);
      this.openStreams.delete(end);
      try {
        controllerRef?.close();
      } catch {
        // already closed
      }
    };
    this.openStreams.add(end);
    req.signal.addEventListener('abort', end, { once: true });
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        controllerRef = controller;
        legacy.streams.add(controller);
        controller.enqueue(sseComment('connected'));
      },
      cancel: end,
    });
    return { status: 200, headers: SSE_HEADERS, body: stream };
  }

  private delete(req: HttpRequestLike): HttpReply {
    const legacy = this.sessionOf(req, 'DELETE /mcp is not part of MCP 2026-07-28 (it has no sessions)', 'DELETE /mcp needs the Mcp-Session-Id header');
    if (!('streams' in legacy)) return legacy;
    this.sessions.drop(legacy);
    return { status: 204, headers: {} };
  }

  /** The legacy session a GET or DELETE names, or the reply refusing it (a modern client, no header, an unknown id). */
  private sessionOf(req: HttpRequestLike, modern: string, missing: string): LegacySession | HttpReply {
    if (this.modernHeader(req)) return json(405, { error: modern }, { allow: 'POST' });
    const sessionId = req.header('mcp-session-id');
    if (sessionId === null) return json(400, { error: missing });
    return this.sessions.use(sessionId) ?? json(404, { error: `Session not found: ${sessionId}` });
  }
}
