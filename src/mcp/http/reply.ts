import type { JsonRpcMessage } from '../protocol.ts';

/**
 * What the HTTP transport reads and answers, apart from any server: the request shape an adapter
 * fills (Node's `IncomingMessage`, a web `Request`, a worker's forwarded call) and the reply it
 * writes back, with the helpers every route builds replies with.
 */

/** The request as the transport reads it; an adapter may build the URL and the signal only when asked. */
export interface HttpRequestLike {
  method: string;
  url: URL;
  /** The URL's pathname when the adapter knows it without parsing the URL (optional shortcut). */
  pathname?: string;
  /** A request header by lower-case name. */
  header(name: string): string | null;
  /** The body as text; an adapter may already have enforced the size limit. */
  text(): Promise<string>;
  /** Body size in bytes when known before reading (Content-Length or an adapter's count). */
  bodyBytes?: number;
  signal: AbortSignal;
}

/** The transport's answer: a string or bytes (already UTF-8) body, a stream (SSE), or none. */
export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
}

export function jsonReply(status: number, body: unknown, headers?: Record<string, string>): HttpReply {
  // Object.assign onto a literal, not spreads: a spread of varying shapes is V8's slow path (~1 us per reply).
  return { status, headers: Object.assign({ 'content-type': 'application/json' }, headers), body: JSON.stringify(body) };
}

const encoder = new TextEncoder();

/** One server-sent event carrying a JSON-RPC message. */
export function sseEvent(message: JsonRpcMessage): Uint8Array {
  return encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

/** An SSE comment line (`: connected`, `: ping`): keeps a stream alive without an event. */
export function sseComment(text: string): Uint8Array {
  return encoder.encode(`: ${text}\n\n`);
}

export const SSE_HEADERS: Readonly<Record<string, string>> = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' };
