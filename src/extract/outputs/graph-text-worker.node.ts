/**
 * Worker-thread entry of GraphTextWorker (graph-text.node.ts): builds an update's graph.json text from
 * the previous one and the job's texts and writes it to the job's temp file. The worker keeps the
 * text it built as the next job's previous text (the caller sends one only when the file on disk is
 * another), and the buffer of the text before it as the next job's output buffer: an update moves
 * no 50 MB buffer between threads and allocates none.
 */
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { reuseGraphTextOf, textCapacity } from './graph-json-reuse.node.ts';
import { jobSource, type GraphTextMessage } from './graph-text.node.ts';

const port = parentPort;
if (!port) throw new Error('Cannot start the graph.json worker: not running in a worker thread');

let kept: Uint8Array | null = null;
let spare: Uint8Array | null = null;

/** `text` is the kept text now; the buffer it replaces becomes the spare one. */
function keep(text: Uint8Array | null): void {
  if (kept && kept.buffer !== text?.buffer) spare = new Uint8Array(kept.buffer);
  kept = text;
}

/** A file's bytes, in a buffer with the room a later text needs (once replaced, it is the spare one). */
function readText(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buffer = new Uint8Array(textCapacity(fstatSync(fd).size));
    let read = 0;
    for (let got = 1; got > 0 && read < buffer.length; read += got) got = readSync(fd, buffer, read, buffer.length - read, read);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

port.on('message', (msg: GraphTextMessage) => {
  if (msg.kind === 'load') {
    try {
      keep(readText(msg.path));
    } catch {
      keep(null); // a job then fails and the caller serializes the graph itself
    }
    return;
  }
  if (msg.kind === 'forget') {
    keep(null);
    return;
  }
  const job = msg;
  try {
    const previous = job.previous ?? kept;
    if (!previous) throw new Error('Cannot write graph.json: the worker keeps no previous text');
    if (job.previous) keep(job.previous);
    const outBuffer = spare;
    spare = null;
    const text = reuseGraphTextOf(previous, jobSource(job), job.nodeFrom, job.linkFrom, job.newCommunity, outBuffer ?? undefined);
    if (!text) {
      spare = outBuffer;
      port.postMessage({ id: job.id, written: false });
      return;
    }
    writeFileSync(job.tmp, text);
    keep(text);
    port.postMessage({ id: job.id, written: true });
  } catch (err) {
    keep(null);
    port.postMessage({ id: job.id, written: false, error: err instanceof Error ? err.message : String(err) });
  }
});
