import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import type { KeptOutputs } from '../extract/out/kept.node.ts';
import type { ExtractSummary } from '../extract/pipeline.node.ts';
import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { languageForPath } from '../extract/languages.ts';
import { parseManifest, type Manifest } from '../graph/manifest.ts';
import { startWorker } from '../graph/start-worker.node.ts';
import { WALKER_ROLE, type WalkAnswer, type WalkRequest } from './freshen-walker.node.ts';
import { StalenessCheck } from './staleness.node.ts';

export interface FreshenOptions {
  /** Repository root the graph was extracted from. */
  root: string;
  /** Path of the served graph.json (its folder holds .manifest.json). */
  graphPath: string;
  /** Minimum ms between two staleness walks while calls come (default 2000). */
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
}

/** The longest gap between two walks of an idle server (the gap grows with the time since the last call). */
const IDLE_WALK_MS = 60_000;

/** The walk worker as the Freshener uses it; `undefined` answers mean "walk on the main thread". */
class WalkWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (changed: string | null | undefined) => void>();
  private next = 0;
  broken = false;

  constructor(log?: (line: string) => void) {
    this.worker = startWorker(import.meta.url, './freshen-walker.node', { workerData: WALKER_ROLE, execArgv: [] });
    this.worker.unref(); // idle between walks: never keeps the process alive
    this.worker.on('message', (msg: WalkAnswer) => {
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
  walk(root: string, outDir: string): Promise<string | null | undefined> {
    if (this.broken) return Promise.resolve(undefined);
    const id = this.next++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.ref(); // an answer is awaited: keep the process up until it comes
      this.worker.postMessage({ id, root, outDir } satisfies WalkRequest);
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
 * Keeps the served graph current with the user's edits: compare the manifest's size and mtime of
 * every extracted file, and the mtime of every folder the last walk listed, with the file system
 * (StalenessCheck) and, when a file changed, vanished or appeared, run the incremental update
 * (`synaptic update`); calls wait for an update in progress, so their answers include the edit.
 *
 * The walk (thousands of stats on a big repository, ~30 ms of CPU) never holds a call: it runs in the
 * walker thread on a timer, every debounce window while calls come; an idle server walks less often
 * (the gap grows with the time since the last call, up to IDLE_WALK_MS), and the first call after a
 * quiet spell starts a walk at once beside its own answer. Only the walk begun with the server (edits
 * made while no server ran) is waited for, by the first calls; it overlaps the graph load.
 * Checks never throw; an update failure is logged and the current graph keeps serving.
 */
export class Freshener {
  /** When the last walk began. */
  private last = 0;
  /** When the last call checked. */
  private lastCall = Date.now();
  private running: Promise<void> | undefined;
  /** A walk (or the update it started) is in progress. */
  private walking = false;
  /** The next timed walk (debounced mode). */
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The check begun with the server (edits made while no server ran): calls wait for it once. */
  private startup: Promise<void> | undefined;
  private manifest: { stamp: string; value: Manifest | null } | undefined;
  private watcher: FSWatcher | undefined;
  /** `serve --watch`: the previous outputs kept decoded between catch-ups (as `update --watch` does). */
  private kept: KeptOutputs | undefined;
  /** Set by watcher events; starts true so the first query checks once. */
  private dirty = true;
  /** Repo-relative paths the watcher reported since the last catch-up (to notice added files). */
  private events = new Set<string>();
  /** Off-thread staleness walks (made on first use; null once it could not start). */
  private walker: WalkWorker | null | undefined;
  /** The check this thread runs when there is no walk worker. */
  private localCheck: StalenessCheck | undefined;

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
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
    this.walker?.close();
    this.walker = null;
  }

  /**
   * Begin the first check now, so its walk (in the walk worker) overlaps the graph load instead of
   * delaying the first answer; the first calls wait for it and any update it starts. Timed walks
   * follow it (debounced mode).
   */
  start(): void {
    if (this.watcher) this.dirty = false;
    this.startup ??= this.catchUp()
      .catch(() => undefined)
      .finally(() => {
        this.startup = undefined;
        if (!this.watcher) this.walkIn(this.nextGap());
      });
  }

  /** Called before each answer: resolves at once, or when the update in progress (or the startup check) is done. */
  async check(): Promise<void> {
    if (this.startup) return this.startup;
    if (this.running) return this.running;
    if (this.watcher) {
      if (!this.dirty) return; // clean: no manifest walk at all
      this.dirty = false;
      return this.catchUp();
    }
    this.lastCall = Date.now();
    // After a quiet spell (the timer is at the idle pace), walk now, beside this call's answer.
    if (!this.walking && this.lastCall - this.last >= this.debounceMs()) this.walkIn(0);
  }

  private debounceMs(): number {
    return this.options.debounceMs ?? 2000;
  }

  /** The gap before the next timed walk: the debounce window while calls come, longer when idle. */
  private nextGap(): number {
    return Math.min(IDLE_WALK_MS, Math.max(this.debounceMs(), Date.now() - this.lastCall));
  }

  private walkIn(ms: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.timedWalk(), ms);
    this.timer.unref(); // a pending walk never keeps the process alive
  }

  /** One walk (and any update it starts), then the next one scheduled; one at a time. */
  private timedWalk(): void {
    this.timer = undefined;
    if (this.walking || this.closed) return;
    this.walking = true;
    void this.catchUp()
      .catch(() => undefined)
      .finally(() => {
        this.walking = false;
        this.walkIn(this.nextGap());
      });
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
        const [{ runExtract }, { KeptOutputs }] = await Promise.all([import('../extract/pipeline.node.ts'), import('../extract/out/kept.node.ts')]);
        // Watching means updates will keep coming: keep the outputs decoded between them (more memory,
        // much faster catch-ups on a large repository).
        if (this.options.watch) this.kept ??= new KeptOutputs();
        const summary = await runExtract({ root: this.options.root, outDir: dirname(this.options.graphPath), incremental: true, workers: 0, kept: this.kept });
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
      if (rel in manifest.files || !languageForPath(rel)) continue;
      try {
        if (statSync(join(this.options.root, rel)).isFile()) return rel;
      } catch {
        // gone again
      }
    }
    return undefined;
  }

  /**
   * The first changed file (see StalenessCheck), or undefined when none. The walk runs in the walk
   * worker; without one, on this thread, yielding to the event loop every STAT_CHUNK stats, so a big
   * repository's walk (10k+ stats, ~100 ms) does not stall every other request of an HTTP server
   * (synchronous stats cost far less CPU than async ones, so they stay synchronous, in slices).
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
    const outDir = dirname(this.options.graphPath);
    if (this.walker && !this.walker.broken) {
      const changed = await this.walker.walk(this.options.root, outDir);
      if (changed !== undefined) return changed ?? undefined;
    }
    const walk = (this.localCheck ??= new StalenessCheck(this.options.root, outDir)).walk();
    for (;;) {
      const step = walk.next();
      if (step.done) return step.value ?? undefined;
      await new Promise<void>((r) => setImmediate(r));
    }
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
