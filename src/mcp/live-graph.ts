import { fileStamp, loadGraph, snapshotPathFor, stampKey, watchGraphFile, type LoadedGraph } from '../graph/load.node.ts';
import type { GraphDocument } from '../graph/model.ts';
import { QueryEngine } from '../query/engine.ts';
import type { GraphIndex } from '../query/graph-index.ts';
import type { TraversalBackend } from '../query/traversal.ts';
import { indexSnapshot } from '../query/snapshot-index.ts';
import { rankIndexInWorker } from './rank-index-worker.node.ts';

/** Keep only what reload checks need: the decoded snapshot / document must not outlive indexing. */
function stampOnly(loaded: LoadedGraph): LoadedGraph {
  return { path: loaded.path, format: loaded.format, mtimeMs: loaded.mtimeMs, size: loaded.size, cborStamp: loaded.cborStamp };
}

/**
 * Index a loaded graph: straight from the snapshot columns when graph.cbor was used; query_graph's
 * index (the ranking postings and scratch) is then built from the same bytes on a worker thread.
 */
export function buildEngine(loaded: LoadedGraph, traversal: ((ix: GraphIndex) => TraversalBackend) | undefined, log?: (line: string) => void): QueryEngine {
  if (loaded.snapshot) {
    const { doc, edges } = indexSnapshot(loaded.snapshot);
    const engine = new QueryEngine(doc, traversal, { edges });
    const rankIndex = loaded.bytes && rankIndexInWorker(loaded.bytes, log);
    if (rankIndex) engine.rankIndexFrom(rankIndex);
    return engine;
  }
  return new QueryEngine(loaded.doc!, traversal, { releaseLinks: true });
}

/** The stamp of a graph file that does not exist yet: any real file differs from it. */
const ABSENT_STAMP = -1;

function absentGraph(path: string): LoadedGraph {
  const doc: GraphDocument = { directed: true, multigraph: true, graph: {}, nodes: [], links: [], hyperedges: [], built_at_commit: null };
  return { doc, path, format: 'json', mtimeMs: ABSENT_STAMP, size: ABSENT_STAMP };
}

/** Milliseconds of warm-up work per turn of the event loop: about the most a call waits for it. */
const WARM_SLICE_MS = 2;

/**
 * Build a loaded graph's lazy indexes in idle time (QueryEngine.warmSteps): slices of ~2 ms, each on
 * its own turn of the event loop, so calls are read and answered between slices instead of waiting
 * for the whole build (~0.3-0.5 s on prisma: built in one piece it held whichever call came in).
 * A call that needs an index before its turn finishes that one build itself. The immediates stay
 * ref'd (an unref'd one runs only when something else wakes the loop); the returned function stops
 * the warm-up, so it never holds a closing server.
 */
function warmInIdleTime(engine: QueryEngine, references: boolean | undefined): () => void {
  const steps = engine.warmSteps(references);
  let next = 0;
  let pending: NodeJS.Immediate | undefined;
  const slice = () => {
    const deadline = performance.now() + WARM_SLICE_MS;
    while (next < steps.length && steps[next]!(deadline)) next++;
    pending = next < steps.length ? setImmediate(slice) : undefined;
  };
  pending = setImmediate(slice);
  return () => clearImmediate(pending);
}

export interface LiveGraphOptions {
  graphPath: string;
  /** Builds the traversal backend for a freshly indexed graph (the WASM core when available). */
  traversal?: (ix: GraphIndex) => TraversalBackend;
  log?: (line: string) => void;
  /** Minimum ms between two on-call stamp checks of the graph file. */
  checkIntervalMs?: number;
  watch?: boolean;
  /** Warm every loaded graph's node references too (`QueryEngine.warm(true)`; HTTP servers). */
  warmReferences?: boolean;
}

/**
 * The served graph: one immutable QueryEngine at a time. A reload builds the new engine completely,
 * then swaps the reference, so a call that already took `engine` finishes on the old graph. A corrupt
 * replacement is refused with a warning on stderr and the old graph keeps serving.
 */
export class LiveGraph {
  private current: QueryEngine;
  private loaded: LoadedGraph;
  private reloading: Promise<void> | undefined;
  private lastCheck = 0;
  private closeWatch: (() => void) | undefined;
  private stopWarm: (() => void) | undefined;
  private listeners: Array<(engine: QueryEngine) => void> = [];
  /** Stamp of a file we refused, so a corrupt file is not re-parsed on every call. */
  private refused: string | undefined;
  /** A pinned graph (`--immutable-graph`) never reloads. */
  private pinned = false;

  private constructor(
    private readonly options: LiveGraphOptions,
    loaded: LoadedGraph,
  ) {
    this.current = buildEngine(loaded, options.traversal, options.log);
    this.loaded = stampOnly(loaded);
  }

  static async open(options: LiveGraphOptions): Promise<LiveGraph> {
    // No graph yet (serve before the first extract): serve an empty one until the file appears.
    const loaded = fileStamp(options.graphPath) ? await loadGraph(options.graphPath) : absentGraph(options.graphPath);
    const live = new LiveGraph(options, loaded);
    if (loaded.warning) options.log?.(`[synaptic] warning: ${loaded.warning}`);
    if (options.watch !== false) live.closeWatch = watchGraphFile(options.graphPath, () => void live.reloadIfChanged());
    live.stopWarm = warmInIdleTime(live.current, options.warmReferences);
    return live;
  }

  /**
   * Serve one already-parsed graph for the life of the process: no file watching, no stamp checks,
   * no reloads (`--immutable-graph`, where the caller verified the very bytes it parsed).
   */
  static pinned(options: LiveGraphOptions, doc: GraphDocument, stamp: { mtimeMs: number; size: number }): LiveGraph {
    const live = new LiveGraph(options, { doc, path: options.graphPath, format: 'json', mtimeMs: stamp.mtimeMs, size: stamp.size });
    live.pinned = true;
    live.stopWarm = warmInIdleTime(live.current, options.warmReferences);
    return live;
  }

  get engine(): QueryEngine {
    return this.current;
  }

  /** False until a graph file has been loaded (the server started before the first extract). */
  get present(): boolean {
    return this.loaded.mtimeMs !== ABSENT_STAMP;
  }

  get path(): string {
    return this.options.graphPath;
  }

  get format(): 'json' | 'cbor' {
    return this.loaded.format;
  }

  onReload(listener: (engine: QueryEngine) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The engine to answer a call with: first (at most every checkIntervalMs) compare the graph file's
   * stamp with the loaded one and reload if it changed, so answers follow a re-extraction even where
   * file watching is unavailable.
   */
  async acquire(): Promise<QueryEngine> {
    if (this.pinned) return this.current;
    const now = Date.now();
    if (now - this.lastCheck >= (this.options.checkIntervalMs ?? 250)) {
      this.lastCheck = now;
      await this.reloadIfChanged();
    } else if (this.reloading) {
      await this.reloading;
    }
    return this.current;
  }

  /**
   * Reload when graph.json's mtime or size differs from the loaded one, or graph.cbor changed (a
   * snapshot written after graph.json then replaces a JSON-loaded graph with the lighter one).
   * Never throws.
   */
  reloadIfChanged(): Promise<void> {
    if (this.pinned) return Promise.resolve();
    if (this.reloading) return this.reloading;
    const stamp = fileStamp(this.options.graphPath);
    if (!stamp) return Promise.resolve();
    const cborStamp = stampKey(snapshotPathFor(this.options.graphPath));
    if (stamp.mtimeMs === this.loaded.mtimeMs && stamp.size === this.loaded.size && cborStamp === (this.loaded.cborStamp ?? cborStamp)) return Promise.resolve();
    const key = `${stamp.mtimeMs}:${stamp.size}:${cborStamp}`;
    if (key === this.refused) return Promise.resolve();
    this.reloading = (async () => {
      try {
        const loaded = await loadGraph(this.options.graphPath);
        if (loaded.warning) this.options.log?.(`[synaptic] warning: ${loaded.warning}`);
        const engine = buildEngine(loaded, this.options.traversal, this.options.log);
        engine.warm(this.options.warmReferences);
        const old = this.current;
        this.stopWarm?.(); // the old graph's warm-up, if still under way
        this.loaded = stampOnly(loaded);
        this.current = engine; // atomic swap: in-flight calls keep their reference to `old`
        this.refused = undefined;
        this.options.log?.(`[synaptic] graph reloaded: ${engine.ix.n} nodes, ${engine.ix.m} edges`);
        for (const l of this.listeners) l(engine);
        setTimeout(() => old.traversal.dispose?.(), 5_000).unref?.();
      } catch (err) {
        this.refused = key;
        this.options.log?.(
          `[synaptic] warning: refused to reload ${this.options.graphPath}: ${err instanceof Error ? err.message : String(err)}; still serving the previous graph`,
        );
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  close(): void {
    this.stopWarm?.();
    this.closeWatch?.();
    this.current.traversal.dispose?.();
  }
}
