import { Worker } from 'node:worker_threads';
import { fileStamp } from '../resident.node.ts';
import type { GraphDocument } from '../../graph/model.ts';
import { LINK_KEYS, NODE_KEYS, canonicalJson, headerText, ordered } from './graph-json.ts';
import { linkKeyText, type GraphTextSource } from './graph-json-reuse.node.ts';

/**
 * graph.json of an update, assembled and written on a worker thread while this thread encodes
 * graph.cbor and renders the report (`update --watch`, where every update rewrites a 50 MB file).
 * The worker gets no document: only the texts {@link reuseGraphTextOf} reads of it (node ids,
 * community numbers, the JSON of new records, the keys of copied runs' end links), so the hand-over
 * is cheap. The worker keeps the last text it built: the previous graph.json bytes are moved to it
 * only when the file on disk is not that text (the first update, another writer).
 */

/** What the worker needs: the previous text (transferred; null: the one it keeps), the plan, and the new records' texts. */
export interface GraphTextJob {
  kind: 'render';
  id: number;
  /** Temp file the worker writes the text to (renamed into place by the caller). */
  tmp: string;
  previous: Uint8Array | null;
  nodeFrom: Int32Array;
  linkFrom: Int32Array;
  newCommunity: Uint8Array;
  header: string;
  hyperedges: string;
  ids: string[];
  community: Int32Array;
  /** 1 where `community` holds the node's community (an int32); else its JSON is in nodeJson when needed. */
  hasCommunity: Uint8Array;
  nodeJson: Map<number, string>;
  linkKeys: Map<number, string>;
  linkJson: Map<number, string>;
  linkCount: number;
}

/** Messages to the worker: a job, a file whose text to keep as the next job's previous one, or forget it. */
export type GraphTextMessage = GraphTextJob | { kind: 'load'; path: string } | { kind: 'forget' };

/** The job's view as a {@link GraphTextSource} (in the worker). */
export function jobSource(job: GraphTextJob): GraphTextSource {
  const missing = '\u0000'; // matches no line: a text the plan did not foresee fails the reuse
  return {
    header: job.header,
    hyperedges: job.hyperedges,
    nodeCount: job.ids.length,
    linkCount: job.linkCount,
    nodeKey: (i) => `{"id":${JSON.stringify(job.ids[i])},`,
    linkKey: (j) => job.linkKeys.get(j) ?? missing,
    nodeJson: (i) => job.nodeJson.get(i) ?? missing,
    linkJson: (j) => job.linkJson.get(j) ?? missing,
    community: (i) => (job.hasCommunity[i] ? job.community[i] : undefined),
  };
}

/** The job for `doc` (the reuse plan as the pipeline computed it). */
export function graphTextJob(
  doc: GraphDocument, previous: Uint8Array | null, tmp: string, nodeFrom: Int32Array, linkFrom: Int32Array, newCommunity: Uint8Array,
): Omit<GraphTextJob, 'id' | 'kind'> {
  const n = doc.nodes.length;
  const m = doc.links.length;
  const ids: string[] = new Array(n);
  const community = new Int32Array(n);
  const hasCommunity = new Uint8Array(n);
  const nodeJson = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    const node = doc.nodes[i]!;
    ids[i] = node.id;
    const c = node.community;
    if (typeof c === 'number' && (c | 0) === c) {
      community[i] = c;
      hasCommunity[i] = 1;
    }
    if (nodeFrom[i]! < 0 || (newCommunity[i] && !hasCommunity[i])) nodeJson.set(i, JSON.stringify(ordered(node, NODE_KEYS)));
  }
  // Links: the JSON of new ones, and the keys at both ends of every copied run (what the reuse checks).
  const linkKeys = new Map<number, string>();
  const linkJson = new Map<number, string>();
  for (let j = 0; j < m; j++) {
    const f = linkFrom[j]!;
    if (f < 0) {
      linkJson.set(j, JSON.stringify(ordered(doc.links[j]!, LINK_KEYS)));
      continue;
    }
    const startsRun = j === 0 || linkFrom[j - 1]! < 0 || linkFrom[j - 1]! + 1 !== f;
    const endsRun = j === m - 1 || linkFrom[j + 1] !== f + 1;
    if (startsRun || endsRun) linkKeys.set(j, linkKeyText(doc.links[j]!));
  }
  return {
    tmp, previous, nodeFrom, linkFrom, newCommunity, header: headerText(doc), hyperedges: canonicalJson(doc.hyperedges ?? []),
    ids, community, hasCommunity, nodeJson, linkKeys, linkJson, linkCount: m,
  };
}

/** The worker thread, started on first use and kept for the process (close() ends it). */
export class GraphTextWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (written: boolean) => void; reject: (err: Error) => void }>();
  /** The file identity (see fileStamp) of graph.json when it holds the text the worker keeps. */
  private keptStamp: string | null = null;
  /** Texts the worker built (the rest fell back to this thread). */
  rendered = 0;
  /** Jobs that built on the text the worker kept (no previous text sent). */
  fromKept = 0;

  /** Whether the worker keeps the text of `path` as it is on disk (a job then needs no previous text). */
  keeps(path: string): boolean {
    return this.keptStamp !== null && this.worker !== null && fileStamp(path) === this.keptStamp;
  }

  /**
   * Have the worker read `path` and keep its text (idle-time warm-up of a resident process): the
   * 50 MB never pass through this thread, whose external memory would count them until its next GC.
   */
  keepFile(path: string): void {
    const stamp = fileStamp(path); // taken first: a file replaced meanwhile just fails to match later
    if (stamp === null) return;
    this.start().postMessage({ kind: 'load', path });
    this.keptStamp = stamp;
  }

  /** The worker's text is now graph.json at `path` (its temp file was renamed there). */
  committed(path: string): void {
    this.keptStamp = fileStamp(path);
  }

  /** graph.json was written otherwise: the kept text is of no more use. */
  forget(): void {
    if (this.keptStamp === null) return;
    this.keptStamp = null;
    this.worker?.postMessage({ kind: 'forget' });
  }

  /**
   * Build and write the text (to `job.tmp`); resolves true when written, false when the previous text
   * cannot be reused (nothing written then). `job.previous` (when given) is moved to the worker: do
   * not use it after; null stands for the text the worker keeps (see {@link keeps}).
   */
  render(job: Omit<GraphTextJob, 'id' | 'kind'>): Promise<boolean> {
    const worker = this.start();
    const id = ++this.nextId;
    this.keptStamp = null; // until committed()
    if (!job.previous) this.fromKept++;
    worker.ref(); // a job keeps the process alive; an idle worker does not
    return new Promise<boolean>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const message: GraphTextJob = { ...job, kind: 'render', id };
      worker.postMessage(message, job.previous ? [job.previous.buffer as ArrayBuffer] : []);
    }).finally(() => {
      if (!this.pending.size) this.worker?.unref();
    });
  }

  /** Start the worker thread ahead of the first job (it loads its code meanwhile). */
  warm(): void {
    this.start();
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const fromSource = import.meta.url.endsWith('.ts');
    const url = new URL(fromSource ? './graph-text-worker.node.ts' : './graph-text-worker.node.js', import.meta.url);
    // Under tsx the worker registers tsx before importing its entry (see pool.node.ts).
    const worker = fromSource
      ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true })
      : new Worker(url);
    worker.unref();
    worker.on('message', (msg: { id: number; written: boolean; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error));
      else {
        if (msg.written) this.rendered++;
        p.resolve(msg.written);
      }
    });
    const fail = (err: Error): void => {
      this.worker = null;
      this.keptStamp = null;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', (err) => fail(new Error(`Cannot write graph.json: its worker thread failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`Cannot write graph.json: its worker thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }
}
