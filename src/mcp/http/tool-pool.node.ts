import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../graph/start-worker.node.ts';
import { failure, INTERNAL_ERROR, MODERN_VERSIONS, type JsonRpcId } from '../protocol.ts';
import type { ServeProfile } from '../profiles.ts';
import { jsonReply, type HttpReply, type HttpRequestLike } from './reply.ts';

/**
 * Graph tools on worker threads for `serve --http --threads N`. The main thread keeps HTTP, Host
 * and key checks, sessions, SSE, REST, memory/vault tools and the freshen/reload checks; a modern
 * (2026-07-28) `tools/call` of a graph tool is forwarded with its routing headers and body to the
 * least busy worker, which answers it with the same transport code (byte-identical replies). A
 * reload on the main thread is sent to every worker before any later call. A worker that dies fails
 * its calls in flight with a JSON-RPC internal error (nothing hangs) and is replaced; with no worker
 * ready, calls are answered on the main thread.
 */

/** What a worker needs to build the same graph tools as the main thread. */
export interface ToolWorkerInit {
  graphPath: string;
  sourceRoot?: string;
  concise: boolean;
  profile?: ServeProfile;
  queryLog?: string;
  name: string;
  version: string;
  maxBodyBytes?: number;
}

export interface WorkerCall {
  id: number;
  version: string;
  method: string;
  name: string;
  body: string;
}

export interface WorkerReply {
  id: number;
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8, encoded by the worker and transferred (the main thread never copies or re-encodes it). */
  body?: Uint8Array;
}

/**
 * Calls and replies travel in batches: everything forwarded in one turn of the main thread's event
 * loop is one message, and a worker answers a batch with one message. Under load, a cross-thread
 * message (a wake-up of the other thread, which on a small machine preempts the sender) per call
 * would cost more than the HTTP work the main thread keeps.
 */
export type ToWorker = { t: 'calls'; calls: WorkerCall[] } | { t: 'reload' } | { t: 'exit'; code: number };

export type ToMain =
  | { t: 'ready'; tools: string[] }
  | { t: 'replies'; replies: WorkerReply[] }
  | { t: 'failed'; error: string };

export interface ToolPoolOptions {
  /** Number of worker threads (>= 1). */
  size: number;
  init: ToolWorkerInit;
  log?: (line: string) => void;
  /**
   * Run before each forwarded call (the freshen and graph-reload checks of the main thread); a
   * reload it causes must reach `reload()` before it resolves.
   */
  beforeCall?: () => Promise<unknown>;
}

interface Pending {
  body: string;
  resolve: (reply: HttpReply) => void;
}

interface Slot {
  index: number;
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
  /** Calls waiting for the end of this event-loop turn (sent as one batch). */
  outbox: WorkerCall[];
  startedAt: number;
}

/** Workers that die this soon after starting count as failing to start. */
const QUICK_DEATH_MS = 10_000;
/** After this many quick deaths in a row, the pool stops replacing workers (calls stay in-thread). */
const MAX_QUICK_DEATHS = 3;

/** The JSON-RPC id of a request body, for an error reply made without the worker. */
function idOf(body: string): JsonRpcId | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

export class ToolPool {
  private readonly slots: Array<Slot | undefined> = [];
  private routed: ReadonlySet<string> = new Set();
  private nextId = 0;
  private turn = 0;
  private closed = false;
  private quickDeaths = 0;
  private readonly readyWaiters: Array<() => void> = [];
  /** Calls sent to a worker, and those failed because their worker stopped. */
  readonly stats = { forwarded: 0, failed: 0 };

  constructor(private readonly options: ToolPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError(`Cannot start the tool pool: size must be a positive integer, got ${options.size}`);
  }

  /** Start every worker; resolves once each is ready or has failed (never rejects). */
  start(): Promise<void> {
    const all: Promise<void>[] = [];
    for (let i = 0; i < this.options.size; i++) all.push(this.spawn(i));
    return Promise.all(all).then(() => undefined);
  }

  /** Workers ready to take calls. */
  get readyCount(): number {
    let n = 0;
    for (const s of this.slots) if (s?.ready) n++;
    return n;
  }

  /** Tool names the workers answer (known once one is ready). */
  get tools(): ReadonlySet<string> {
    return this.routed;
  }

  /** Resolves when at least `count` workers are ready (tests and start-up). */
  whenReady(count = 1): Promise<void> {
    if (this.readyCount >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.readyCount >= count || this.closed) resolve();
        else this.readyWaiters.push(check);
      };
      this.readyWaiters.push(check);
    });
  }

  /** The HttpTransport `offload` hook: forward a modern graph-tool call, or undefined to keep it here. */
  offload = (req: HttpRequestLike): Promise<HttpReply> | undefined => {
    if (req.header('mcp-method') !== 'tools/call') return undefined;
    const name = req.header('mcp-name');
    if (name === null || !this.routed.has(name)) return undefined;
    const version = req.header('mcp-protocol-version');
    if (version === null || !(MODERN_VERSIONS as readonly string[]).includes(version)) return undefined;
    if (req.header('mcp-session-id') !== null || !this.readyCount) return undefined;
    return this.forward(req, version, name);
  };

  /** Tell every worker the graph file changed; calls forwarded later wait for their reload. */
  reload(): void {
    for (const s of this.slots) if (s) s.worker.postMessage({ t: 'reload' } satisfies ToWorker);
  }

  /**
   * Make worker `index` exit with `code` after the messages already sent to it (crash drills: its
   * calls in flight must fail cleanly and a replacement must start).
   */
  exitWorker(index: number, code = 70): void {
    this.slots[index]?.worker.postMessage({ t: 'exit', code } satisfies ToWorker);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.readyWaiters.splice(0)) w();
    await Promise.all(this.slots.map((s) => s?.worker.terminate()));
  }

  /** The ready worker with the fewest calls in flight, starting the scan at a rotating index. */
  private pick(): Slot | undefined {
    let best: Slot | undefined;
    const n = this.slots.length;
    for (let k = 0; k < n; k++) {
      const s = this.slots[(this.turn + k) % n];
      if (s?.ready && (!best || s.pending.size < best.pending.size)) best = s;
    }
    this.turn = (this.turn + 1) % Math.max(1, n);
    return best;
  }

  private async forward(req: HttpRequestLike, version: string, name: string): Promise<HttpReply> {
    await this.options.beforeCall?.();
    const body = await req.text();
    const slot = this.pick();
    if (!slot) return this.failed(body, 'no tool worker is running');
    const id = this.nextId++;
    this.stats.forwarded++;
    return new Promise<HttpReply>((resolve) => {
      slot.pending.set(id, { body, resolve });
      if (!slot.outbox.length) setImmediate(() => this.flush(slot));
      slot.outbox.push({ id, version, method: 'tools/call', name, body });
    });
  }

  private flush(slot: Slot): void {
    const calls = slot.outbox;
    slot.outbox = [];
    // A worker that died meanwhile already failed these calls (they are in its pending map).
    if (calls.length && this.slots[slot.index] === slot) slot.worker.postMessage({ t: 'calls', calls } satisfies ToWorker);
  }

  private failed(body: string, why: string): HttpReply {
    this.stats.failed++;
    return jsonReply(500, failure(idOf(body), INTERNAL_ERROR, `Internal error: ${why}; the call was not completed, send it again`));
  }

  private spawn(index: number): Promise<void> {
    const worker = startWorker(import.meta.url, './tool-worker.node', { workerData: this.options.init });
    const slot: Slot = { index, worker, ready: false, pending: new Map(), outbox: [], startedAt: Date.now() };
    this.slots[index] = slot;
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    let failure: string | undefined;
    worker.on('message', (msg: ToMain) => {
      if (msg.t === 'replies') {
        for (const r of msg.replies) {
          const p = slot.pending.get(r.id);
          if (!p) continue;
          slot.pending.delete(r.id);
          p.resolve({ status: r.status, headers: r.headers, body: r.body });
        }
      } else if (msg.t === 'ready') {
        slot.ready = true;
        this.quickDeaths = 0;
        if (!this.routed.size) this.routed = new Set(msg.tools);
        settle();
        for (const w of this.readyWaiters.splice(0)) w();
      } else if (msg.t === 'failed') {
        failure = msg.error;
      }
    });
    worker.on('error', (err) => {
      failure ??= err.message;
    });
    worker.on('exit', (code) => {
      slot.ready = false;
      if (this.slots[index] === slot) this.slots[index] = undefined;
      const why = `the tool worker stopped (${failure ?? `exit code ${code}`})`;
      for (const p of slot.pending.values()) p.resolve(this.failed(p.body, why));
      slot.pending.clear();
      settle();
      if (this.closed) return;
      this.options.log?.(`[synaptic] warning: ${why}`);
      if (Date.now() - slot.startedAt < QUICK_DEATH_MS && ++this.quickDeaths >= MAX_QUICK_DEATHS) {
        this.options.log?.(`[synaptic] warning: tool workers keep failing; answering tool calls on the main thread`);
        return;
      }
      this.options.log?.(`[synaptic] starting a replacement tool worker`);
      void this.spawn(index);
    });
    return settled;
  }
}
