import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import type { ResidentOutputs } from '../extract/resident.node.ts';
import type { ExtractSummary } from '../extract/pipeline.node.ts';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { MANIFEST_VERSION, parseManifest, type Manifest } from '../graph/manifest.ts';

export interface FreshenOptions {
  /** Repository root the graph was extracted from. */
  root: string;
  /** Path of the served graph.json (its folder holds .manifest.json). */
  graphPath: string;
  /** Minimum ms between two staleness checks. */
  debounceMs?: number;
  log?: (line: string) => void;
  /** Called after an incremental update rewrote the graph (to reload it now). */
  onUpdated?: () => Promise<void>;
  /**
   * Event-driven mode (`serve --watch`): a recursive file watcher marks the tree dirty, clean queries
   * skip the manifest walk entirely, and the first query after an event does the catch-up. Falls
   * back to the debounced check when the watcher cannot start.
   */
  watch?: boolean;
  /**
   * Debounced mode only: the walk does not hold the call that triggered it (it runs beside the
   * calls); when it finds a change, later calls wait for the update as usual. For a busy HTTP server,
   * where one client's call should not pay for a whole-tree walk.
   */
  background?: boolean;
}

/** Files the extractor reads (an added one is worth an update). */
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|java|cs|c|h|cc|cpp|cxx|hpp|hh|rb|php)$/i;

/** Files stat'ed between two yields to the event loop during a main-thread staleness walk (~1-2 ms). */
const STAT_CHUNK = 200;

/**
 * The staleness walk off the main thread: a big repository's walk is 10k+ stats (~100 ms of CPU every
 * debounce window), which would otherwise stall or slow every other request of a busy server. The
 * worker reads and parses .manifest.json itself (again only when its mtime or size changed), so the
 * server's first check costs its main thread nothing while the graph loads, and answers each walk
 * with the first path that differs (or null; also for a missing or foreign manifest, as the main
 * thread's parseManifest would). On Linux the thread runs at the lowest priority (nice 19, that
 * thread only). Self-contained CommonJS, so it runs the same from source (tsx) and from the bundle.
 */
const WALK_WORKER = `
const { parentPort } = require('node:worker_threads');
// On Linux a nice value is per thread: the walk then takes only CPU the serving threads leave idle
// (on a busy two-core server, a walk at normal priority slowed every call in flight for its ~100 ms).
// Better still, SCHED_IDLE (util-linux chrt, on this thread's id): the kernel then counts a core that
// runs only the walk as idle when it places a woken thread, so a client woken by a reply lands there
// instead of preempting the serving thread (nice 19 alone still cost that thread 15-20% of its time
// while a walk ran). Without chrt the thread stays at nice 19.
if (process.platform === 'linux') {
  try { require('node:os').setPriority(19); } catch {}
  try {
    const tid = require('node:fs').readlinkSync('/proc/thread-self').split('/').pop();
    require('node:child_process').execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 2000 });
  } catch {}
}
const { readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
let cached = null;
function entriesOf(path, version) {
  let st;
  try { st = statSync(path); } catch { return []; }
  const stamp = st.mtimeMs + ':' + st.size;
  if (!cached || cached.path !== path || cached.stamp !== stamp) {
    let entries = [];
    try {
      const m = JSON.parse(readFileSync(path, 'utf8'));
      if (m && m.manifest_version === version && m.files && typeof m.files === 'object') {
        entries = Object.entries(m.files).map(([rel, e]) => [rel, e.size, e.mtime_ms]);
      }
    } catch {}
    cached = { path, stamp, entries };
  }
  return cached.entries;
}
parentPort.on('message', (msg) => {
  let changed = null;
  for (const [rel, size, mtime] of entriesOf(msg.manifest, msg.version)) {
    let st;
    try { st = statSync(join(msg.root, rel)); } catch { changed = rel; break; }
    if (st.size !== size || Math.abs(st.mtimeMs - mtime) > 1) { changed = rel; break; }
  }
  parentPort.postMessage({ id: msg.id, changed });
});
`;

/** The walk worker as the Freshener uses it; `undefined` answers mean "walk on the main thread". */
class WalkWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (changed: string | null | undefined) => void>();
  private next = 0;
  broken = false;

  constructor(log?: (line: string) => void) {
    this.worker = new Worker(WALK_WORKER, { eval: true, execArgv: [] });
    this.worker.unref(); // idle between walks: never keeps the process alive
    this.worker.on('message', (msg: { id: number; changed: string | null }) => {
      this.pending.get(msg.id)?.(msg.changed);
      this.pending.delete(msg.id);
      if (!this.pending.size) this.worker.unref();
    });
    const fail = (why: string) => {
      if (this.broken) return;
      this.broken = true;
      log?.(`[synaptic] warning: the staleness walker stopped (${why}); walking on the main thread`);
      for (const resolve of this.pending.values()) resolve(undefined);
      this.pending.clear();
    };
    this.worker.on('error', (err) => fail(err.message));
    this.worker.on('exit', (code) => fail(`exit code ${code}`));
  }

  /** The first changed path, null when none, undefined when the worker is unavailable. */
  walk(root: string, manifest: string): Promise<string | null | undefined> {
    if (this.broken) return Promise.resolve(undefined);
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.ref(); // an answer is awaited: keep the process up until it comes
      this.worker.postMessage({ id, root, manifest, version: MANIFEST_VERSION });
    });
  }

  close(): void {
    this.broken = true;
    void this.worker.terminate();
  }
}

/** Paths whose changes never affect the graph (outputs, VCS internals, dependencies). */
const IGNORED_EVENT = /(^|[\\/])(synaptic-out|\.git|node_modules)([\\/]|$)/;

/**
 * The per-query staleness gate: at most once per debounce window, compare the manifest's size and
 * mtime of every extracted file with the file system; when one changed or vanished, run the
 * incremental update (`synaptic update`) so the next answer follows the user's edits. Checks never
 * throw; an update failure is logged and the current graph keeps serving.
 */
export class Freshener {
  private last = 0;
  private running: Promise<void> | undefined;
  /** A background walk (or the update it started) is in progress. */
  private walking = false;
  /** The check begun with the server (edits made while no server ran): calls wait for it once. */
  private startup: Promise<void> | undefined;
  private manifest: { stamp: string; value: Manifest | null } | undefined;
  private watcher: FSWatcher | undefined;
  /** `serve --watch`: the previous outputs kept decoded between catch-ups (as `update --watch` does). */
  private resident: ResidentOutputs | undefined;
  /** Set by watcher events; starts true so the first query checks once. */
  private dirty = true;
  /** Repo-relative paths the watcher reported since the last catch-up (to notice added files). */
  private events = new Set<string>();
  /** Off-thread staleness walks (made on first use; null once it could not start). */
  private walker: WalkWorker | null | undefined;

  constructor(private readonly options: FreshenOptions) {
    if (options.watch) this.startWatcher();
  }

  private startWatcher(): void {
    try {
      this.watcher = watch(this.options.root, { recursive: true, persistent: false }, (_event, file) => {
        if (file && IGNORED_EVENT.test(String(file))) return;
        this.dirty = true;
        if (file && this.events.size < 10_000) this.events.add(String(file).split('\\').join('/'));
      });
      this.watcher.on('error', (err) => {
        this.options.log?.(`[synaptic] warning: the source watcher stopped (${err.message}); falling back to debounced staleness checks`);
        this.watcher?.close();
        this.watcher = undefined;
      });
      this.options.log?.(`[synaptic] watching ${this.options.root} for source changes`);
    } catch (err) {
      this.watcher = undefined;
      this.options.log?.(`[synaptic] warning: cannot watch ${this.options.root} (${err instanceof Error ? err.message : String(err)}); falling back to debounced staleness checks`);
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.walker?.close();
    this.walker = null;
  }

  /**
   * Begin the first check now, so its walk (in the walk worker) overlaps the graph load instead of
   * delaying the first answer; the first calls wait for it and any update it starts.
   */
  start(): void {
    if (this.watcher) this.dirty = false;
    this.startup ??= this.catchUp()
      .catch(() => undefined)
      .finally(() => {
        this.startup = undefined;
      });
  }

  /** Check (debounced, or only after a watcher event) and update if stale; resolves when the graph is current. */
  async check(): Promise<void> {
    if (this.startup) return this.startup;
    if (this.running) return this.running;
    if (this.watcher) {
      if (!this.dirty) return; // clean: no manifest walk at all
      this.dirty = false;
      return this.catchUp();
    }
    const now = Date.now();
    if (now - this.last < (this.options.debounceMs ?? 2000)) return;
    if (this.options.background) {
      // One walk at a time: a low-priority walker that a busy machine starves must not find a queue
      // of further walks behind it once it gets the CPU.
      if (this.walking) return;
      this.walking = true;
      void this.catchUp()
        .catch(() => undefined)
        .finally(() => {
          this.walking = false;
        });
      return;
    }
    return this.catchUp();
  }

  private async catchUp(): Promise<void> {
    this.last = Date.now();
    const events = this.events;
    this.events = new Set();
    const changed = (await this.firstChange()) ?? this.firstAdded(events);
    if (!changed) return;
    if (this.running) return this.running; // another walk found it first and is updating
    await this.update(`source changed (${changed})`).catch((err: unknown) => {
      this.options.log?.(`[synaptic] warning: cannot update the graph after source changes: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  /**
   * Update now, for a one-shot `synaptic update` handed to this server (see serve.ts): after any
   * update in progress, so the run starts after the request and sees every edit made before it.
   */
  async updateNow(): Promise<ExtractSummary> {
    while (this.startup || this.running) await (this.startup ?? this.running);
    return this.update('update requested');
  }

  /** One incremental update of the served graph's outputs, then the reload (`running` while it lasts). */
  private update(reason: string): Promise<ExtractSummary> {
    const run = (async () => {
      const started = Date.now();
      try {
        // Loaded on first use: the extraction pipeline (tree-sitter, workers) is not on the startup path.
        const [{ runExtract }, { ResidentOutputs }] = await Promise.all([import('../extract/pipeline.node.ts'), import('../extract/resident.node.ts')]);
        // Watching means updates will keep coming: keep the outputs decoded between them (more memory,
        // much faster catch-ups on a large repository).
        if (this.options.watch) this.resident ??= new ResidentOutputs();
        const summary = await runExtract({ root: this.options.root, outDir: dirname(this.options.graphPath), incremental: true, workers: 0, resident: this.resident });
        this.options.log?.(`[synaptic] ${reason}; graph updated in ${Date.now() - started} ms`);
        await this.options.onUpdated?.();
        return summary;
      } finally {
        this.last = Date.now();
        this.running = undefined;
      }
    })();
    this.running = run.then(() => undefined, () => undefined);
    return run;
  }

  /** A file the watcher saw that the manifest does not know (a new source file), if any. */
  private firstAdded(events: Set<string>): string | undefined {
    const manifest = this.readManifest();
    if (!manifest) return undefined;
    for (const rel of events) {
      if (rel in manifest.files || !SOURCE_FILE.test(rel)) continue;
      try {
        if (statSync(join(this.options.root, rel)).isFile()) return rel;
      } catch {
        // gone again
      }
    }
    return undefined;
  }

  /**
   * The first file whose size or mtime differs from the manifest, or undefined when all match. The
   * walk runs in the walk worker; without one, on this thread, yielding to the event loop every
   * STAT_CHUNK files, so a big repository's walk (10k+ stats, ~100 ms) does not stall every other
   * request of an HTTP server (synchronous stats cost far less CPU than async ones, so they stay
   * synchronous, in slices).
   */
  private async firstChange(): Promise<string | undefined> {
    if (this.walker === undefined) {
      try {
        this.walker = new WalkWorker(this.options.log);
      } catch (err) {
        this.walker = null;
        this.options.log?.(`[synaptic] warning: cannot start the staleness walker (${err instanceof Error ? err.message : String(err)}); walking on the main thread`);
      }
    }
    if (this.walker && !this.walker.broken) {
      const changed = await this.walker.walk(this.options.root, this.manifestPath());
      if (changed !== undefined) return changed ?? undefined;
    }
    const manifest = this.readManifest();
    if (!manifest) return undefined;
    let done = 0;
    for (const [rel, entry] of Object.entries(manifest.files)) {
      if (++done % STAT_CHUNK === 0) await new Promise<void>((r) => setImmediate(r));
      let st;
      try {
        st = statSync(join(this.options.root, rel));
      } catch {
        return rel; // deleted
      }
      if (st.size !== entry.size || Math.abs(st.mtimeMs - entry.mtime_ms) > 1) return rel;
    }
    return undefined;
  }

  private manifestPath(): string {
    return join(dirname(this.options.graphPath), '.manifest.json');
  }

  private readManifest(): Manifest | null {
    const path = this.manifestPath();
    let stamp: string;
    try {
      const st = statSync(path);
      stamp = `${st.mtimeMs}:${st.size}`;
    } catch {
      return null;
    }
    if (this.manifest?.stamp !== stamp) {
      let value: Manifest | null = null;
      try {
        value = parseManifest(readFileSync(path, 'utf8'));
      } catch {
        value = null;
      }
      this.manifest = { stamp, value };
    }
    return this.manifest.value;
  }
}

/** Whether a graph path sits in a standard `synaptic-out/` folder (so its repo root is known). */
export function isStandardOutput(graphPath: string): boolean {
  return basename(dirname(graphPath)) === 'synaptic-out';
}
