/**
 * Worker-thread entry of the extraction pool: receives batches of {@link FileTask}s, answers with
 * their {@link FileResult}s in the same order. Loaded from src/ (under tsx) or dist/ (compiled).
 */
import { parentPort } from 'node:worker_threads';
import { processFile, type FileTask, type FileResult } from './process-file.node.ts';

interface BatchMessage {
  id: number;
  tasks: FileTask[];
}

const port = parentPort;
if (!port) throw new Error('Cannot start the extraction worker: not running in a worker thread');

port.on('message', (message: BatchMessage) => {
  void (async () => {
    const results: FileResult[] = [];
    for (const task of message.tasks) results.push(await processFile(task));
    port.postMessage({ id: message.id, results });
  })();
});
