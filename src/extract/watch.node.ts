import { watch, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { OUTPUT_DIR_NAME, runExtract, warmKept, type ExtractOptions, type ExtractSummary } from './pipeline.node.ts';
import { KeptOutputs } from './out/kept.node.ts';

/**
 * `synaptic update --watch`: one long-lived process that keeps the repository's outputs current.
 * A recursive file watcher (or, where none can start, a poll) triggers an update; the update keeps
 * its previous outputs decoded in memory (KeptOutputs), so a one-file edit costs the relink and
 * the writes, not re-reading the facts cache, the link cache and the previous graph. Every update is
 * the same `runExtract` as a one-shot `synaptic update`: the outputs equal a full extract's.
 */

export interface WatchOptions {
  /** Quiet time after the last event before updating (ms); edits arrive as bursts of events. */
  debounceMs?: number;
  /** Poll period when no watcher can start (ms). */
  pollMs?: number;
  /** Use polling even where a watcher could start (tests, network file systems). */
  poll?: boolean;
  /** After each update that rewrote the outputs (runs that found nothing to do are not reported). */
  onUpdate: (summary: ExtractSummary, trigger: string | null) => void;
  onError: (err: unknown) => void;
  /** How changes are noticed, once known. */
  onMode?: (mode: 'events' | 'poll', reason?: string) => void;
}

export interface WatchHandle {
  /**
   * Update now (for a one-shot `synaptic update` handed to this watcher): resolves with the summary
   * of an update that started after the call, so it saw every edit made before it.
   */
  updateNow(): Promise<ExtractSummary>;
  /** Stop watching; resolves when the update in progress (if any) is done. */
  close(): Promise<void>;
}

/** Segments whose changes never reach the graph (the walk skips them anyway): no update for them. */
const NOISE = /(^|[\\/])(node_modules|\.git[\\/]objects|\.git[\\/]logs)([\\/]|$)/;

export function watchAndUpdate(extract: ExtractOptions, options: WatchOptions): WatchHandle {
  const kept = new KeptOutputs();
  const root = extract.root;
  const outDir = extract.outDir ?? join(root, OUTPUT_DIR_NAME);
  const outRel = relative(root, outDir);
  const ownOutput = (rel: string): boolean => !outRel.startsWith('..') && (rel === outRel || rel.startsWith(outRel + sep));
  let closed = false;
  let running: Promise<void> | null = null;
  let again = false;
  let trigger: string | null = null;
  let timer: NodeJS.Timeout | undefined;
  /** Callers of updateNow() waiting for the next run to start (a run already walking may miss their edit). */
  let waiting: { resolve: (s: ExtractSummary) => void; reject: (err: unknown) => void }[] = [];

  // After a run, in idle time: load what the next run may read from disk (see warmKept), one
  // file per turn of the event loop, and stop as soon as a run starts (it reads the rest itself).
  let warming: Generator<void, void, void> | null = null;
  const warmStep = (): void => {
    if (!warming || running || closed) return;
    try {
      if (!warming.next().done) {
        setImmediate(warmStep);
        return;
      }
    } catch {
      // an update reads (and reports) it
    }
    warming = null;
  };
  const warmSoon = (): void => {
    warming = warmKept(outDir, kept);
    setImmediate(warmStep);
  };

  const update = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const cause = trigger;
        trigger = null;
        const served = waiting;
        waiting = [];
        try {
          const summary = await runExtract({ ...extract, incremental: true, kept });
          if (summary.linkMode !== 'reused' || summary.parsed > 0) options.onUpdate(summary, cause ?? (served.length ? 'update request' : null));
          for (const w of served) w.resolve(summary);
        } catch (err) {
          options.onError(err);
          for (const w of served) w.reject(err);
        }
      } while ((again || waiting.length) && !closed);
      for (const w of waiting.splice(0)) w.reject(new Error('Cannot update: the watcher is stopping'));
      running = null;
      if (!closed) warmSoon();
    })();
    return running;
  };
  const schedule = (cause: string | null): void => {
    if (closed) return;
    trigger ??= cause;
    clearTimeout(timer);
    timer = setTimeout(() => void update(), options.debounceMs ?? 30);
  };

  let watcher: FSWatcher | undefined;
  let poller: NodeJS.Timeout | undefined;
  const startPolling = (reason?: string): void => {
    watcher?.close();
    watcher = undefined;
    if (closed || poller) return;
    poller = setInterval(() => {
      if (!running) void update();
    }, options.pollMs ?? 1000);
    options.onMode?.('poll', reason);
  };
  if (options.poll) startPolling('polling requested');
  else {
    try {
      watcher = watch(root, { recursive: true }, (_event, file) => {
        const rel = typeof file === 'string' ? file : file ? String(file) : '';
        if (rel && (ownOutput(rel) || NOISE.test(rel))) return;
        schedule(rel || null);
      });
      watcher.on('error', (err) => startPolling(err.message));
      options.onMode?.('events');
    } catch (err) {
      startPolling(err instanceof Error ? err.message : String(err));
    }
  }
  // The first run: catch up with edits made while nothing watched.
  void update();

  return {
    updateNow: () => {
      if (closed) return Promise.reject(new Error('Cannot update: the watcher is stopping'));
      const done = new Promise<ExtractSummary>((resolve, reject) => waiting.push({ resolve, reject }));
      clearTimeout(timer);
      void update();
      return done;
    },
    close: async () => {
      closed = true;
      clearTimeout(timer);
      clearInterval(poller);
      watcher?.close();
      await running;
    },
  };
}
