import type { Readable, Writable } from 'node:stream';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from './line-splitter.ts';
import { failure, INVALID_PARAMS, INVALID_REQUEST, parseErrorResponse, requestEnvelope, type JsonRpcFailure, type JsonRpcId, type JsonRpcMessage } from './protocol.ts';
import type { McpCore, Session } from './server.ts';
import type { SubscriptionHub } from './subscriptions.ts';

export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  /** Diagnostics (stderr); never the protocol stream. */
  log?: (line: string) => void;
  /**
   * Resource subscriptions: a modern `subscriptions/listen` request stays open, acknowledged first,
   * then notified on every matching update until `notifications/cancelled` names it.
   */
  hub?: SubscriptionHub;
  /** A longer line is answered with -32600 and skipped (default 64 MiB; `synaptic serve --max-line-bytes`). */
  maxLineBytes?: number;
}

/**
 * Newline-delimited JSON-RPC over a byte stream pair (stdin/stdout by default), on top of the
 * transport-independent core: one response line per request, notifications unanswered, blank lines
 * ignored, a line that is not JSON answered with -32700, a line over the size limit answered with
 * -32600 and skipped without being kept. Requests run concurrently; each response is
 * written as one line when it is ready. Resolves when the input ends and in-flight calls finished.
 */
export function serveStdio(core: McpCore, options: StdioOptions = {}): { session: Session; done: Promise<void> } {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const write = (message: JsonRpcMessage) => {
    output.write(JSON.stringify(message) + '\n');
  };
  const session: Session = { notify: write };
  const detach = core.attach(session);
  const inFlight = new Set<Promise<void>>();
  const listeners = new Map<JsonRpcId, () => void>();
  /** Handle the stdio-specific parts of subscriptions; true when the message was consumed. */
  const subscription = async (message: unknown): Promise<boolean> => {
    const hub = options.hub;
    if (!hub || !message || typeof message !== 'object') return false;
    const m = message as { id?: unknown; method?: unknown; params?: Record<string, unknown> };
    if (m.method === 'notifications/cancelled') {
      const id = m.params?.requestId as JsonRpcId | undefined;
      const stop = id === undefined ? undefined : listeners.get(id);
      if (stop) {
        stop();
        listeners.delete(id!);
      }
      return false; // the core may still want to see it
    }
    if (m.method !== 'subscriptions/listen' || (typeof m.id !== 'string' && typeof m.id !== 'number') || !requestEnvelope(m.params)) return false;
    const id = m.id;
    // Validate the modern envelope (version, capabilities) the same way as any request.
    const check = await core.handle({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: m.params?._meta } }, session);
    if (check && 'error' in check) {
      write(check);
      return true;
    }
    try {
      const { ack, stop } = hub.listen(id, m.params ?? {}, write);
      listeners.get(id)?.();
      listeners.set(id, stop);
      write(ack);
    } catch (err) {
      write(failure(id, INVALID_PARAMS, `Invalid params: ${(err as Error).message}`));
    }
    return true;
  };
  const onLine = (raw: string) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.trim()) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (err) {
      write(parseErrorResponse(err instanceof Error ? err.message : undefined));
      return;
    }
    const p = subscription(message).then((consumed) => (consumed ? undefined : core.handle(message, session))).then(
      (response) => {
        if (response) write(response);
      },
      (err: unknown) => options.log?.(`[synaptic] Cannot handle message: ${String(err)}`),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const lines = new LineSplitter(maxLineBytes, {
    line: onLine,
    oversized: () => {
      options.log?.(`[synaptic] skipped an input line longer than ${describeBytes(maxLineBytes)}`);
      write(oversizedLineResponse(maxLineBytes));
    },
  });
  const done = new Promise<void>((resolve) => {
    input.on('data', (chunk: string | Buffer) => lines.push(chunk));
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      lines.end();
      void Promise.allSettled([...inFlight]).then(() => {
        for (const stop of listeners.values()) stop();
        listeners.clear();
        detach();
        resolve();
      });
    };
    input.on('end', finish);
    input.on('close', finish);
  });
  return { session, done };
}

/** The answer to a line over the limit: its id is unknown, since the line is never parsed. */
function oversizedLineResponse(maxLineBytes: number): JsonRpcFailure {
  return failure(
    null,
    INVALID_REQUEST,
    `Invalid Request: the message is longer than this server's line limit of ${describeBytes(maxLineBytes)}; ` +
      `it was skipped up to its newline. Send smaller messages, or start the server with 'synaptic serve --max-line-bytes <n>' to raise the limit`,
  );
}

function describeBytes(n: number): string {
  const mib = n / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB (${n} bytes)` : `${n} bytes`;
}
