import type { z } from 'zod';

/** MCP tool annotations (hints for clients). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool handler returns; becomes a `tools/call` result. */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * One MCP tool: schema, description for the model, and a thin handler that delegates to a service
 * (query engine, memory store, vault). `mcp/server.ts` is the one place tools meet the SDK.
 * A handler may throw: the server turns the error into an `isError` result with its message.
 */
export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  inputSchema: Input;
  outputSchema?: z.ZodObject;
  annotations: ToolAnnotations;
  handler(args: z.infer<Input>, extra?: ToolCallExtra): Promise<ToolResult> | ToolResult;
}

/** What a call carries besides its arguments (the server always passes it; a direct caller may not). */
export interface ToolCallExtra {
  /** Aborts when the client cancels the request (notifications/cancelled) or the connection ends. */
  signal: AbortSignal;
}

/**
 * A group of tools backed by one service. `tools()` is asked on every `tools/list`, so a provider may
 * add or remove tools at run time (then it calls the listener passed to `onToolsChanged`).
 */
export interface ToolProvider {
  tools(): ToolDefinition[];
  onToolsChanged?(listener: () => void): void;
  close?(): void | Promise<void>;
}

/** A text result with an optional structured mirror. */
export function toolResult(text: string, structuredContent?: Record<string, unknown>): ToolResult {
  return structuredContent ? { content: [{ type: 'text', text }], structuredContent } : { content: [{ type: 'text', text }] };
}

/** An `isError` result whose message tells the model what to try next. */
export function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
