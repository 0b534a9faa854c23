/**
 * Worker-thread entry of GraphTextWorker (graph-text.node.ts): builds an update's graph.json text from
 * the previous one and the job's texts, writes it to the job's temp file, and hands the bytes back.
 */
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { reuseGraphTextOf } from './graph-json-reuse.node.ts';
import { jobSource, type GraphTextJob } from './graph-text.node.ts';

const port = parentPort;
if (!port) throw new Error('Cannot start the graph.json worker: not running in a worker thread');

port.on('message', (job: GraphTextJob) => {
  try {
    const bytes = reuseGraphTextOf(job.previous, jobSource(job), job.nodeFrom, job.linkFrom, job.newCommunity);
    if (bytes) writeFileSync(job.tmp, bytes);
    port.postMessage({ id: job.id, bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []);
  } catch (err) {
    port.postMessage({ id: job.id, bytes: null, error: err instanceof Error ? err.message : String(err) });
  }
});
