import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Start a worker thread on the module `name` (e.g. './worker.node') next to the caller, whose
 * `import.meta.url` is `base`: its `.ts` source when the caller runs from source (tests, tsx), its
 * `.js` build otherwise (dist/cli/, where esbuild emits every worker entry beside the main chunk).
 *
 * Under tsx, `--import tsx` in a worker's execArgv registers its hooks too late for the worker's own
 * entry (Node 20), so a one-line eval bootstrap registers tsx first, then imports the entry.
 */
export function startWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  const fromSource = base.endsWith('.ts');
  const url = new URL(`${name}${fromSource ? '.ts' : '.js'}`, base);
  if (!fromSource) return new Worker(url, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`, { ...options, eval: true });
}
