import { availableParallelism } from 'node:os';
import { startWorker } from '../graph/start-worker.node.ts';
import { processFile, type FileResult, type FileTask } from './process-file.node.ts';

/**
 * Runs {@link processFile} over many files on a pool of worker threads (one per core by default),
 * handing out small batches so fast workers take more. Works from src/ under tsx (the worker gets
 * tsx's loader) and from compiled dist/.
 */

export interface PoolOptions {
  /**
   * Parallel lanes: 0 runs everything in this thread, 1 on one worker thread, n >= 2 on n worker
   * threads (this thread plus n - 1 workers below 1500 files). Default: one per core, fewer (or
   * none) for small inputs.
   */
  workers?: number;
  /** Called after each batch with the results so far. */
  onProgress?: (done: number, total: number, bytes: number) => void;
}

const BATCH = 8;
/** Above this many files every lane is a worker thread (see processFiles). */
const INLINE_LANE_MAX_FILES = 1500;

/** Default worker count for a number of files: in-process for tiny inputs, else up to one per core. */
export function defaultWorkerCount(files: number): number {
  if (files < 128) return 0;
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(files / 64)));
}

/** Process every task; results come back in task order. */
export async function processFiles(tasks: FileTask[], options: PoolOptions = {}): Promise<FileResult[]> {
  const workers = Math.min(options.workers ?? defaultWorkerCount(tasks.length), tasks.length);
  const results: FileResult[] = new Array(tasks.length);
  let done = 0;
  let bytes = 0;
  const report = (batch: FileResult[]): void => {
    done += batch.length;
    for (const r of batch) bytes += r.size;
    options.onProgress?.(done, tasks.length, bytes);
  };
  if (workers <= 0) {
    for (let i = 0; i < tasks.length; i++) {
      results[i] = await processFile(tasks[i]!);
      report([results[i]!]);
    }
    return results;
  }
  // Large files first, so the last batches are short and the workers finish together.
  const order = tasks.map((_, i) => i).sort((a, b) => (tasks[b]!.size ?? 0) - (tasks[a]!.size ?? 0) || a - b);
  const batches: number[][] = [];
  for (let i = 0; i < order.length; i += BATCH) batches.push(order.slice(i, i + BATCH));
  let next = 0;
  const pool: PoolWorker[] = [];
  // With two or more lanes on a small input, this thread is one of them: it would only wait
  // otherwise, and each worker costs a startup (grammars compiled again) and a structured clone of its
  // facts. On large inputs this thread, which holds every file's facts, parses nothing: its growing
  // heap makes garbage collection there costlier than a worker's startup (measured on prisma).
  const inlineLane = workers >= 2 && tasks.length < INLINE_LANE_MAX_FILES;
  const lane = async (inline: boolean): Promise<void> => {
    let worker: PoolWorker | null = null;
    if (!inline) {
      try {
        worker = spawnWorker();
      } catch {
        worker = null; // no worker support here (e.g. tsx not resolvable): this lane runs inline
      }
    }
    if (worker) pool.push(worker);
    while (next < batches.length) {
      const batch = batches[next++]!;
      const batchTasks = batch.map((i) => tasks[i]!);
      let out: FileResult[];
      if (worker) {
        try {
          out = await worker.run(batchTasks);
        } catch {
          // The thread died (out of memory, abort): redo this batch here, file by file, so one
          // pathological file costs only itself; this lane goes on in this thread.
          worker = null;
          out = [];
          for (const task of batchTasks) out.push(await processFile(task));
        }
      } else {
        out = [];
        for (const task of batchTasks) out.push(await processFile(task));
      }
      for (let k = 0; k < batch.length; k++) results[batch[k]!] = out[k]!;
      report(out);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, (_, i) => lane(inlineLane && i === 0)));
  } finally {
    await Promise.all(pool.map((w) => w.close()));
  }
  return results;
}

interface PoolWorker {
  run(tasks: FileTask[]): Promise<FileResult[]>;
  close(): Promise<void>;
}

function spawnWorker(): PoolWorker {
  const worker = startWorker(import.meta.url, './worker.node');
  let pending: { id: number; resolve: (r: FileResult[]) => void; reject: (e: Error) => void } | null = null;
  let nextId = 0;
  let failure: Error | null = null;
  worker.on('message', (msg: { id: number; results: FileResult[] }) => {
    if (pending && msg.id === pending.id) {
      const p = pending;
      pending = null;
      p.resolve(msg.results);
    }
  });
  const fail = (err: Error): void => {
    failure = err;
    if (pending) {
      const p = pending;
      pending = null;
      p.reject(err);
    }
  };
  worker.on('error', (err) => fail(new Error(`Cannot extract: a worker thread failed: ${err.message}`)));
  worker.on('exit', (code) => {
    if (pending) fail(new Error(`Cannot extract: a worker thread exited with code ${code}`));
  });
  return {
    run(tasks) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        pending = { id: ++nextId, resolve, reject };
        worker.postMessage({ id: nextId, tasks });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
