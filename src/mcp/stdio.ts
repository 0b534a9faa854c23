import type { Readable, Writable } from 'node:stream';
import { parseErrorResponse, type JsonRpcMessage } from './protocol.ts';
import type { McpCore, Session } from './server.ts';

export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  /** Diagnostics (stderr); never the protocol stream. */
  log?: (line: string) => void;
}

/**
 * Newline-delimited JSON-RPC over a byte stream pair (stdin/stdout by default), on top of the
 * transport-independent core: one response line per request, notifications unanswered, blank lines
 * ignored, a line that is not JSON answered with -32700. Requests run concurrently; each response is
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
  let buffer = '';
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
    const p = core.handle(message, session).then(
      (response) => {
        if (response) write(response);
      },
      (err: unknown) => options.log?.(`[synaptic] Cannot handle message: ${String(err)}`),
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  input.setEncoding?.('utf8');
  const done = new Promise<void>((resolve) => {
    input.on('data', (chunk: string | Buffer) => {
      buffer += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        onLine(line);
      }
    });
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      if (buffer.length) {
        onLine(buffer);
        buffer = '';
      }
      void Promise.allSettled([...inFlight]).then(() => {
        detach();
        resolve();
      });
    };
    input.on('end', finish);
    input.on('close', finish);
  });
  return { session, done };
}
