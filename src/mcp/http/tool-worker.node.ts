import { parentPort, workerData } from 'node:worker_threads';
import { createSynapticServer } from '../synaptic-server.ts';
import type { HttpRequestLike } from './reply.ts';
import type { ToolWorkerInit, ToMain, ToWorker, WorkerCall, WorkerReply } from './tool-pool.node.ts';
import { HttpTransport } from './transport.ts';

/**
 * A graph-tool worker thread of `serve --http --threads N`: it loads its own copy of the graph (from
 * graph.cbor when current, like the main thread), builds the same graph tools, and answers modern
 * `tools/call` requests the main thread forwards, through the same HTTP transport code the main
 * thread runs, so a reply is byte-identical to an in-thread one. It never checks the graph file on
 * its own: the main thread runs the freshen and reload checks and sends `reload` when the graph
 * changed (calls that arrive after it wait for the new graph).
 */

/** A forwarded request as the transport reads it: the routing headers and the body. */
class ForwardedRequest implements HttpRequestLike {
  readonly method = 'POST';
  readonly pathname = '/mcp';
  readonly bodyBytes: number | undefined = undefined;

  constructor(private readonly call: WorkerCall) {}

  get url(): URL {
    return new URL('http://localhost/mcp');
  }

  get signal(): AbortSignal {
    return new AbortController().signal;
  }

  header(name: string): string | null {
    switch (name) {
      case 'mcp-protocol-version':
        return this.call.version;
      case 'mcp-method':
        return this.call.method;
      case 'mcp-name':
        return this.call.name;
      default:
        return null;
    }
  }

  text(): Promise<string> {
    return Promise.resolve(this.call.body);
  }
}

const encoder = new TextEncoder();

/** Work done before the replies so far are sent (ms). */
const FLUSH_MS = 1;

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('Cannot run the tool worker: it must run in a worker thread');
  const init = workerData as ToolWorkerInit;
  const send = (message: ToMain) => port.postMessage(message);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // (createSynapticServer loads the WASM core itself, and fails with the reason when it cannot)
  const server = await createSynapticServer({
    graphPath: init.graphPath,
    sourceRoot: init.sourceRoot,
    concise: init.concise,
    profile: init.profile,
    providers: [],
    queryLog: init.queryLog,
    name: init.name,
    version: init.version,
    log,
    watch: false,
    graphCheckIntervalMs: Number.POSITIVE_INFINITY,
    warmReferences: true,
  });
  server.live.engine.warm(true);
  const transport = new HttpTransport({ core: server.core, hub: server.hub, maxBodyBytes: init.maxBodyBytes, log });
  // Calls are answered in arrival order; replies go back in batches of about FLUSH_MS of work, so
  // the main thread writes the first answers of a big batch while this thread computes the rest.
  let queue: WorkerCall[] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    let outbox: WorkerReply[] = [];
    let transfer: ArrayBuffer[] = [];
    let since = performance.now();
    try {
      while (queue.length) {
        const batch = queue;
        queue = [];
        for (const call of batch) {
          const reply = await transport.handleRaw(new ForwardedRequest(call));
          const body = typeof reply.body === 'string' ? encoder.encode(reply.body) : reply.body instanceof Uint8Array ? reply.body.slice() : undefined;
          if (body) transfer.push(body.buffer as ArrayBuffer);
          outbox.push({ id: call.id, status: reply.status, headers: reply.headers, body });
          const now = performance.now();
          if (now - since >= FLUSH_MS) {
            port.postMessage({ t: 'replies', replies: outbox } satisfies ToMain, transfer);
            outbox = [];
            transfer = [];
            since = now;
          }
        }
      }
      if (outbox.length) port.postMessage({ t: 'replies', replies: outbox } satisfies ToMain, transfer);
    } finally {
      // Never stuck: an unexpected throw ends this drain (the main thread fails the calls if the
      // worker then dies); the next message starts a new one.
      draining = false;
    }
  };
  port.on('message', (msg: ToWorker) => {
    switch (msg.t) {
      case 'calls':
        queue.push(...msg.calls);
        if (!draining) void drain();
        break;
      case 'reload':
        // Sets the engine's pending reload at once: calls queued behind this message wait for it.
        void server.live.reloadIfChanged();
        break;
      case 'exit':
        process.exit(msg.code);
    }
  });
  send({ t: 'ready', tools: server.core.tools().map((t) => t.name) });
}

main().catch((err: unknown) => {
  parentPort?.postMessage({ t: 'failed', error: err instanceof Error ? err.message : String(err) } satisfies ToMain);
  process.exit(1);
});
