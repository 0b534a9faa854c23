/**
 * JSON-RPC 2.0 and MCP protocol constants shared by the transport-independent core (server.ts) and
 * the transports (stdio.ts here; an HTTP handler reuses the same core).
 */

export const MODERN_VERSIONS = ['2026-07-28'] as const;
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** Every protocol version this server speaks, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_CONNECTION = 'io.modelcontextprotocol/connection';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const RESOURCE_NOT_FOUND = -32002;
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Record<string, unknown>;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** A protocol-level failure: becomes a JSON-RPC error response (not a tool `isError` result). */
export class McpError extends Error {
  override name = 'McpError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function failure(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  return data === undefined ? { jsonrpc: '2.0', id, error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message, data } };
}

/** The response to a line that is not JSON. */
export function parseErrorResponse(detail?: string): JsonRpcFailure {
  return failure(null, PARSE_ERROR, detail ? `Parse error: ${detail}` : 'Parse error');
}

/**
 * The protocol version a request claims through its `_meta` envelope (flat keys, or nested under
 * `io.modelcontextprotocol/connection` as in the spec's stdio example); undefined for legacy requests.
 */
export function requestEnvelope(params: unknown): { version: string; capabilities: unknown; clientInfo: unknown } | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const meta = (params as Record<string, unknown>)._meta;
  if (!meta || typeof meta !== 'object') return undefined;
  const m = meta as Record<string, unknown>;
  if (typeof m[META_PROTOCOL_VERSION] === 'string') {
    return { version: m[META_PROTOCOL_VERSION] as string, capabilities: m[META_CLIENT_CAPABILITIES], clientInfo: m[META_CLIENT_INFO] };
  }
  const conn = m[META_CONNECTION];
  if (conn && typeof conn === 'object' && typeof (conn as Record<string, unknown>).protocolVersion === 'string') {
    const c = conn as Record<string, unknown>;
    return { version: c.protocolVersion as string, capabilities: c.clientCapabilities, clientInfo: c.clientInfo };
  }
  return undefined;
}

/**
 * Check a modern request's envelope as the spec requires it: a supported modern version (else
 * -32022 with the supported versions in error.data), object clientCapabilities, and clientInfo, which
 * is optional but when present has string name and version (-32602 otherwise).
 */
export function checkEnvelope(envelope: { version: string; capabilities: unknown; clientInfo: unknown }): void {
  if (!(MODERN_VERSIONS as readonly string[]).includes(envelope.version)) {
    throw new McpError(UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${envelope.version}`, {
      supported: [...SUPPORTED_VERSIONS],
      requested: envelope.version,
    });
  }
  if (!envelope.capabilities || typeof envelope.capabilities !== 'object') {
    throw new McpError(INVALID_PARAMS, `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] must be an object on a ${envelope.version} request`);
  }
  const info = envelope.clientInfo;
  if (info === undefined) return;
  const fields = info && typeof info === 'object' && !Array.isArray(info) ? (info as Record<string, unknown>) : undefined;
  if (!fields || typeof fields.name !== 'string' || typeof fields.version !== 'string') {
    throw new McpError(INVALID_PARAMS, `Invalid params: _meta["${META_CLIENT_INFO}"], when present, must be an object with string name and version on a ${envelope.version} request`);
  }
}
