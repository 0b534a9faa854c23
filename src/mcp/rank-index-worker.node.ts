/**
 * query_graph's index built on a worker thread: the ranking postings (every label, path and doc
 * comment tokenized and inverted) and the ranking scratch (per-node tiers and factors, per-edge
 * weights) cost ~1 s of CPU on a 24k-node graph in a fresh process, most of it the JIT compiling
 * the tokenizer. Built on the serving thread (in idle-time slices) the first query_graph within
 * that second finished them itself (300-415 ms of CPU on a call); here the serving thread only
 * takes in the result (a term map and typed arrays, ~3 ms). The thread decodes its own copy of
 * the graph.cbor bytes the server loaded, so it indexes the very same graph, then exits.
 */
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { startWorker } from '../graph/start-worker.node.ts';
import { decodeSnapshot } from '../graph/snapshot.ts';
import type { RankIndexParts } from '../query/engine.ts';
import { GraphIndex } from '../query/graph-index.ts';
import { packPostings } from '../query/postings.ts';
import { buildRankScratch } from '../query/rank.ts';
import { indexSnapshot } from '../query/snapshot-index.ts';

/** workerData.role that makes a thread the rank-index builder (importing this module elsewhere does nothing). */
export const RANK_INDEX_ROLE = 'synaptic-rank-index';

interface RankIndexInit {
  role: typeof RANK_INDEX_ROLE;
  /** The graph.cbor bytes the server decoded (a copy). */
  bytes: Uint8Array;
}

type RankIndexAnswer = { parts: RankIndexParts } | { error: string };

/**
 * Build query_graph's index of the graph.cbor `bytes` on a worker thread. Resolves to its parts, or
 * to undefined when the thread failed (then said on `log`; the caller builds them itself). Undefined
 * (no thread) off the main thread: an HTTP tool worker builds its own in its warm-up.
 */
export function rankIndexInWorker(bytes: Uint8Array, log?: (line: string) => void): Promise<RankIndexParts | undefined> | undefined {
  if (!isMainThread) return undefined;
  return new Promise((resolve) => {
    let settled = false;
    const done = (parts: RankIndexParts | undefined) => {
      settled = true;
      resolve(parts);
    };
    const fail = (why: string) => {
      if (settled) return;
      log?.(`[synaptic] warning: the query_graph index was not built on a worker thread (${why}); it is built on first use instead`);
      done(undefined);
    };
    let worker: Worker;
    try {
      worker = startWorker(import.meta.url, './rank-index-worker.node', { workerData: { role: RANK_INDEX_ROLE, bytes } satisfies RankIndexInit, execArgv: [] });
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
      return;
    }
    worker.unref(); // never holds a closing server
    worker.once('message', (answer: RankIndexAnswer) => ('parts' in answer ? done(answer.parts) : fail(answer.error)));
    worker.once('error', (err) => fail(err.message));
    worker.once('exit', (code) => fail(`the thread exited with code ${code}`));
  });
}

function build(bytes: Uint8Array): { parts: RankIndexParts; transfer: ArrayBuffer[] } {
  const { doc, edges } = indexSnapshot(decodeSnapshot(bytes));
  const ix = new GraphIndex(doc, { edges });
  const postings = packPostings(ix.postings());
  const scratch = buildRankScratch(ix);
  const buffers = new Set<ArrayBuffer>();
  for (const a of [...postings.off, ...postings.ids, postings.words, ...Object.values(scratch)]) if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  return { parts: { postings, scratch }, transfer: [...buffers] };
}

if (parentPort && (workerData as Partial<RankIndexInit> | undefined)?.role === RANK_INDEX_ROLE) {
  const port = parentPort;
  try {
    const { parts, transfer } = build((workerData as RankIndexInit).bytes);
    port.postMessage({ parts } satisfies RankIndexAnswer, transfer);
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies RankIndexAnswer);
  }
}
