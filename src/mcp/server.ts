import type { z } from 'zod';
import { sanitize, sanitizeProse } from '../query/sanitize.ts';
import { toolJsonSchema } from './json-schema.ts';
import type { ToolDefinition, ToolProvider, ToolResult } from './tool.ts';
import {
  checkEnvelope,
  failure,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  LEGACY_VERSIONS,
  McpError,
  META_SERVER_INFO,
  METHOD_NOT_FOUND,
  requestEnvelope,
  RESOURCE_NOT_FOUND,
  SUPPORTED_VERSIONS,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcResponse,
} from './protocol.ts';

/** A resource, template, or the text read from one. */
export interface ResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
}

export interface ResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
}

export interface ResourceProvider {
  list(): ResourceInfo[];
  templates(): ResourceTemplateInfo[];
  /** The resource's text, or undefined when the uri names no resource (answered -32002). */
  read(uri: string): Promise<{ mimeType: string; text: string } | undefined>;
}

export interface PromptInfo {
  name: string;
  title?: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
}

export interface PromptProvider {
  list(): PromptInfo[];
  /** The prompt's single user message text; throws McpError for an unknown prompt or bad arguments. */
  get(name: string, args: Record<string, string>): { description: string; text: string };
}

export interface CompletionResult {
  values: string[];
  total: number;
  hasMore: boolean;
}

export type CompletionProvider = (ref: { type: string; name?: string; uri?: string }, argument: { name: string; value: string }) => CompletionResult;

export interface McpCoreOptions {
  name: string;
  version: string;
  /** A function when they change at run time (an owner switch adds or withdraws tools and their guidance). */
  instructions: string | (() => string);
  providers: ToolProvider[];
  resources?: ResourceProvider;
  prompts?: PromptProvider;
  complete?: CompletionProvider;
  /** Called after every tools/call (for query logs and metrics); never throws into the caller. */
  onToolCall?: (info: { name: string; args: unknown; ms: number; isError: boolean }) => void;
  log?: (line: string) => void;
}

/**
 * Per-connection state. Stdio has one; an HTTP legacy session has one each; a stateless modern HTTP
 * request may pass a fresh one. `notify` delivers server-to-client notifications when the transport
 * can (stdio always; HTTP only on a legacy GET stream).
 */
export interface Session {
  /** Negotiated legacy version (after initialize). */
  legacyVersion?: string;
  initialized?: boolean;
  logLevel?: string;
  notify?: (message: JsonRpcNotification) => void;
  /** tools/call requests still running, by id, so notifications/cancelled can abort them. */
  inFlight?: Map<JsonRpcId, AbortController>;
}

/** What `handle` learned about a request, for transports that route on it (HTTP status codes). */
export interface RequestInfo {
  era: 'modern' | 'legacy';
  method: string;
}

const LIST_TTL_MS = 60_000;
const TOOLS_TTL_MS = 5_000;
const CACHE_SCOPE = 'private';

/**
 * The transport-independent MCP core: one JSON-RPC message (already parsed) plus the session in, one
 * response (or nothing, for notifications and stray responses) out. Speaks the stateless 2026-07-28
 * era (per-request `_meta` envelope, `server/discover`) and the initialize-based 2025-11-25 ..
 * 2024-11-05 era in the same process. Tools come from ToolProviders; resources, prompts and
 * completions from their providers.
 */
export class McpCore {
  private readonly schemaCache = new WeakMap<z.ZodType, unknown>();
  private readonly sessions = new Set<Session>();

  /** The merged tool list and its name index, rebuilt only when a provider reports a change. */
  private toolCache: { list: ToolDefinition[]; byName: Map<string, ToolDefinition> } | undefined;

  constructor(private readonly options: McpCoreOptions) {
    this.toolIndex(); // a duplicate tool name stops the server here, at start
    for (const p of options.providers) {
      p.onToolsChanged?.(() => {
        this.toolCache = undefined;
        this.broadcast({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      });
    }
  }

  /** Register a session for notifications (stdio: its one connection). */
  attach(session: Session): () => void {
    this.sessions.add(session);
    return () => this.sessions.delete(session);
  }

  /** Send a notification to every attached legacy session that negotiated (modern clients poll with ttl). */
  broadcast(message: JsonRpcNotification): void {
    for (const s of this.sessions) {
      if (s.initialized && s.notify) {
        try {
          s.notify(message);
        } catch (err) {
          this.options.log?.(`[synaptic] Cannot send notification: ${String(err)}`);
        }
      }
    }
  }

  /** Classify a parsed message without handling it (era and method), or undefined when it is not a request. */
  static inspect(message: unknown): RequestInfo | undefined {
    if (!message || typeof message !== 'object') return undefined;
    const m = message as Record<string, unknown>;
    if (typeof m.method !== 'string') return undefined;
    return { era: requestEnvelope(m.params) ? 'modern' : 'legacy', method: m.method };
  }

  /**
   * Handle one parsed JSON-RPC message. Returns the response for a request; undefined for a
   * notification or a response object. Never throws.
   */
  async handle(message: unknown, session: Session = {}): Promise<JsonRpcResponse | undefined> {
    if (Array.isArray(message)) return failure(null, INVALID_REQUEST, 'Invalid Request: JSON-RPC batches are not supported');
    if (!message || typeof message !== 'object') return failure(null, INVALID_REQUEST, 'Invalid Request: expected a JSON object');
    const m = message as Record<string, unknown>;
    const hasId = 'id' in m && m.id !== undefined;
    const id = (typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null) as JsonRpcId | null;
    if (typeof m.method !== 'string') {
      if ('result' in m || 'error' in m) return undefined; // a response from the client: nothing to answer
      return failure(id, INVALID_REQUEST, 'Invalid Request: missing method');
    }
    if (m.jsonrpc !== '2.0') return hasId ? failure(id, INVALID_REQUEST, "Invalid Request: jsonrpc must be '2.0'") : undefined;
    if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) {
      return hasId ? failure(id, INVALID_PARAMS, 'Invalid params: params must be an object') : undefined;
    }
    const params = (m.params ?? {}) as Record<string, unknown>;
    if (!hasId) {
      this.notification(m.method, params, session);
      return undefined;
    }
    if (id === null) return failure(null, INVALID_REQUEST, 'Invalid Request: id must be a string or number');
    try {
      const envelope = requestEnvelope(params);
      const modern = envelope !== undefined;
      // Every modern request, server/discover too: an unknown version fails with -32022 before any answer.
      if (envelope) checkEnvelope(envelope);
      if (m.method === 'server/discover') return this.ok(id, this.discover(), true, true);
      if (m.method === 'tools/call') {
        const ctl = new AbortController();
        const inFlight = (session.inFlight ??= new Map());
        inFlight.set(id, ctl);
        try {
          const result = (await this.callTool(params, ctl.signal)) as unknown as Record<string, unknown>;
          // A cancelled request is not answered (the client has forgotten its id).
          return ctl.signal.aborted ? undefined : this.ok(id, result, modern, false);
        } finally {
          if (inFlight.get(id) === ctl) inFlight.delete(id);
        }
      }
      const { result, cacheable } = await this.dispatch(m.method, params, session, modern);
      return this.ok(id, result, modern, cacheable);
    } catch (err) {
      if (err instanceof McpError) return failure(id, err.code, err.message, err.data);
      this.options.log?.(`[synaptic] internal error in ${m.method}: ${err instanceof Error ? err.stack : String(err)}`);
      return failure(id, INTERNAL_ERROR, `Internal error: ${sanitizeProse(err instanceof Error ? err.message : String(err))}`);
    }
  }

  private notification(method: string, params: Record<string, unknown>, session: Session): void {
    if (method === 'notifications/initialized') session.initialized = true;
    // A tool that parks (mesh_wait) stops when its caller gives up; others finish and are not answered.
    if (method === 'notifications/cancelled') {
      const id = params.requestId;
      if (typeof id === 'string' || typeof id === 'number') session.inFlight?.get(id)?.abort();
    }
    // progress, roots/list_changed: nothing to do.
  }

  /** The instructions as they stand now (they follow the owner's switches). */
  instructions(): string {
    const i = this.options.instructions;
    return typeof i === 'function' ? i() : i;
  }

  private ok(id: JsonRpcId, result: Record<string, unknown>, modern: boolean, cacheable: number | boolean): JsonRpcResponse {
    if (!modern) return { jsonrpc: '2.0', id, result };
    // Object.assign, not spreads: results come in several shapes, and a spread of a varying shape
    // takes V8's slow path (~2 us per call); the keys land in the same order.
    const decorated: Record<string, unknown> = Object.assign({}, result);
    decorated.resultType = 'complete';
    if (cacheable !== false) {
      decorated.ttlMs = typeof cacheable === 'number' ? cacheable : 0;
      decorated.cacheScope = CACHE_SCOPE;
    }
    const meta: Record<string, unknown> = result._meta ? Object.assign({}, result._meta as Record<string, unknown>) : {};
    meta[META_SERVER_INFO] = this.serverInfo();
    decorated._meta = meta;
    return { jsonrpc: '2.0', id, result: decorated };
  }

  serverInfo(): { name: string; version: string } {
    return { name: this.options.name, version: this.options.version };
  }

  /** The `server/discover` result (without the modern decoration). */
  discover(): Record<string, unknown> {
    return {
      supportedVersions: [...SUPPORTED_VERSIONS],
      capabilities: this.capabilities(true),
      serverInfo: this.serverInfo(),
      instructions: this.instructions(),
    };
  }

  capabilities(modern: boolean): Record<string, unknown> {
    const caps: Record<string, unknown> = { tools: { listChanged: true } };
    if (this.options.resources) caps.resources = {};
    if (this.options.prompts) caps.prompts = {};
    if (this.options.complete) caps.completions = {};
    if (!modern) caps.logging = {};
    return caps;
  }

  private async dispatch(
    method: string,
    params: Record<string, unknown>,
    session: Session,
    modern: boolean,
  ): Promise<{ result: Record<string, unknown>; cacheable: number | false }> {
    switch (method) {
      case 'initialize': {
        const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        const version = (LEGACY_VERSIONS as readonly string[]).includes(requested) ? requested : LEGACY_VERSIONS[0];
        session.legacyVersion = version;
        return {
          result: { protocolVersion: version, capabilities: this.capabilities(false), serverInfo: this.serverInfo(), instructions: this.instructions() },
          cacheable: false,
        };
      }
      case 'ping':
        return { result: {}, cacheable: false };
      case 'logging/setLevel':
        if (modern) throw new McpError(METHOD_NOT_FOUND, 'Method not found: logging/setLevel (removed in 2026-07-28)');
        if (typeof params.level !== 'string') throw new McpError(INVALID_PARAMS, 'Invalid params: level must be a string');
        session.logLevel = params.level;
        return { result: {}, cacheable: false };
      case 'tools/list':
        return { result: { tools: this.listTools(!modern && titleOnlyInAnnotations(session.legacyVersion)) }, cacheable: TOOLS_TTL_MS };
      // tools/call is handled in handle(), where its cancellation is tracked.
      case 'resources/list':
        if (!this.options.resources) break;
        return { result: { resources: this.options.resources.list() }, cacheable: LIST_TTL_MS };
      case 'resources/templates/list':
        if (!this.options.resources) break;
        return { result: { resourceTemplates: this.options.resources.templates() }, cacheable: LIST_TTL_MS };
      case 'resources/read': {
        if (!this.options.resources) break;
        const uri = params.uri;
        if (typeof uri !== 'string') throw new McpError(INVALID_PARAMS, 'Invalid params: uri must be a string');
        const read = await this.options.resources.read(uri);
        if (!read) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
        return { result: { contents: [{ uri, mimeType: read.mimeType, text: read.text }] }, cacheable: 0 };
      }
      case 'prompts/list':
        if (!this.options.prompts) break;
        return { result: { prompts: this.options.prompts.list() }, cacheable: LIST_TTL_MS };
      case 'prompts/get': {
        if (!this.options.prompts) break;
        const name = params.name;
        if (typeof name !== 'string') throw new McpError(INVALID_PARAMS, 'Invalid params: name must be a string');
        const rawArgs = (params.arguments ?? {}) as Record<string, unknown>;
        const args: Record<string, string> = {};
        for (const [k, v] of Object.entries(rawArgs)) if (v !== undefined && v !== null) args[k] = String(v);
        const got = this.options.prompts.get(name, args);
        return { result: { description: got.description, messages: [{ role: 'user', content: { type: 'text', text: got.text } }] }, cacheable: false };
      }
      case 'completion/complete': {
        if (!this.options.complete) break;
        const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
        const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
        if (!ref || typeof ref.type !== 'string' || !argument || typeof argument.name !== 'string') {
          throw new McpError(INVALID_PARAMS, 'Invalid params: completion/complete needs ref {type} and argument {name, value}');
        }
        const completion = this.options.complete(
          { type: ref.type, name: typeof ref.name === 'string' ? ref.name : undefined, uri: typeof ref.uri === 'string' ? ref.uri : undefined },
          { name: argument.name, value: typeof argument.value === 'string' ? argument.value : '' },
        );
        return { result: { completion }, cacheable: false };
      }
      default:
        break;
    }
    throw new McpError(METHOD_NOT_FOUND, `Method not found: ${method}`);
  }

  /** Every tool of every provider, in provider order. */
  tools(): ToolDefinition[] {
    return this.toolIndex().list;
  }

  /**
   * Providers are asked once, then again only after one reports a change (calls stay cheap). Two
   * tools with one name are an error: which one a call reaches must not depend on provider order.
   */
  private toolIndex(): { list: ToolDefinition[]; byName: Map<string, ToolDefinition> } {
    if (this.toolCache) return this.toolCache;
    const byName = new Map<string, ToolDefinition>();
    const providerOf = new Map<string, number>();
    this.options.providers.forEach((p, i) => {
      for (const t of p.tools()) {
        const first = providerOf.get(t.name);
        if (first !== undefined) {
          const where = first === i ? `twice by tool provider ${i + 1}` : `by tool providers ${first + 1} and ${i + 1}`;
          throw new Error(`Cannot register tools: the name '${t.name}' is defined ${where} of ${this.options.providers.length}; tool names must be unique`);
        }
        providerOf.set(t.name, i);
        byName.set(t.name, t);
      }
    });
    this.toolCache = { list: [...byName.values()], byName };
    return this.toolCache;
  }

  /** `titleInAnnotations`: also send the title as annotations.title, where a 2025-03-26 client looks for it. */
  private listTools(titleInAnnotations: boolean): Array<Record<string, unknown>> {
    return this.tools().map((t) => {
      const entry: Record<string, unknown> = {
        name: t.name,
        title: t.title,
        description: t.description,
        inputSchema: this.jsonSchema(t.inputSchema),
        annotations: titleInAnnotations ? { title: t.title, ...t.annotations } : t.annotations,
      };
      if (t.outputSchema) entry.outputSchema = this.jsonSchema(t.outputSchema);
      return entry;
    });
  }

  private jsonSchema(schema: z.ZodType): unknown {
    let json = this.schemaCache.get(schema);
    if (!json) {
      json = toolJsonSchema(schema);
      this.schemaCache.set(schema, json);
    }
    return json;
  }

  private async callTool(params: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const name = params.name;
    if (typeof name !== 'string') throw new McpError(INVALID_PARAMS, 'Invalid params: tools/call needs a string name');
    const tool = this.toolIndex().byName.get(name);
    if (!tool) throw new McpError(INVALID_PARAMS, `Unknown tool: '${sanitize(name)}' (call tools/list for the available tools)`, { name: sanitize(name) });
    const rawArgs = params.arguments ?? {};
    const started = performance.now();
    let result: ToolResult;
    const parsed = tool.inputSchema.safeParse(rawArgs);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
      result = { content: [{ type: 'text', text: `Cannot run ${name}: invalid arguments: ${sanitizeProse(issues)}` }], isError: true };
    } else {
      try {
        result = await tool.handler(parsed.data, { signal });
      } catch (err) {
        // A thrown message may quote an argument or a path from anywhere (the vault, the file system):
        // it is shown as prose, invisible characters escaped and no tag opening.
        const msg = sanitizeProse(err instanceof Error ? err.message : String(err));
        result = { content: [{ type: 'text', text: msg.startsWith('Cannot ') ? msg : `Cannot run ${name}: ${msg}` }], isError: true };
      }
    }
    try {
      this.options.onToolCall?.({ name, args: rawArgs, ms: performance.now() - started, isError: result.isError === true });
    } catch {
      /* logging must never break a call */
    }
    return result;
  }
}

/** Versions before 2025-06-18 have no top-level tool title (2025-03-26 reads annotations.title). */
function titleOnlyInAnnotations(version: string | undefined): boolean {
  return version !== undefined && version < '2025-06-18';
}

export type { JsonRpcMessage };
