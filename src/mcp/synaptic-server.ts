import { appendFileSync, existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { GraphDocument } from '../graph/model.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Core } from '../core/index.ts';
import { coreTraversal } from '../query/core-traversal.ts';
import { realRoot } from '../query/source.node.ts';
import { createCompletions } from './completions.ts';
import { Freshener } from './freshen.ts';
import type { ExtractSummary } from '../extract/pipeline.node.ts';
import { serverInstructions } from './instructions.ts';
import { LiveGraph } from './live-graph.ts';
import { leanProviders, type ServeProfile } from './profiles.ts';
import { createPrompts } from './prompts.ts';
import { createGraphResources } from './resources.ts';
import { McpCore } from './server.ts';
import { SubscriptionHub } from './subscriptions.ts';
import type { ToolProvider } from './tool.ts';
import { CONCISE_DEFAULTS, NORMAL_DEFAULTS, type GraphToolContext } from './tools/context.ts';
import { createIgraphTools } from './tools/igraph/index.ts';
import { createGraphTools } from './tools/index.ts';
import { createExecTools } from './tools/speculate.ts';
import { FederatedStore } from './federated/store.node.ts';
import { createFederatedTools } from './federated/tools.ts';

export interface SynapticServerOptions {
  /** Path of graph.json. */
  graphPath: string;
  /** The get_source / search_text jail (default: the directory above synaptic-out/). */
  sourceRoot?: string;
  concise?: boolean;
  /** `igraph` adds the igraph-compatible tools; `lean` serves only the most used ones (profiles.ts). */
  profile?: ServeProfile;
  /** The WASM core for traversals (default: load it; a core that cannot load stops the start with its reason). */
  core?: Core;
  /** `serve --allow-exec`: also serve the command-running speculate tool (the server is then not read-only). */
  allowExec?: boolean;
  /** More tool providers (memory, vault), listed after the graph tools. */
  providers?: ToolProvider[];
  /** JSONL file for query_graph records (SYNAPTIC_QUERY_LOG). */
  queryLog?: string;
  name: string;
  version: string;
  log: (line: string) => void;
  /** Watch the graph file for hot reload (default true). */
  watch?: boolean;
  /**
   * Repository root to keep fresh: before answering, a debounced staleness check against the
   * manifest re-extracts changed files. Omit to serve the graph as it is.
   */
  freshenRoot?: string;
  /** With freshenRoot: an event-driven source watcher instead of per-query walks (`serve --watch`). */
  watchSources?: boolean;
  /**
   * Minimum ms between two on-call stamp checks of the graph file (default 250). Tool workers pass
   * Infinity: the main thread checks and tells them to reload.
   */
  graphCheckIntervalMs?: number;
  /**
   * Serve this already-parsed graph for the life of the process (`--immutable-graph`): no hot
   * reload, no source catch-up, no watching.
   */
  pinned?: { doc: GraphDocument; stamp: { mtimeMs: number; size: number } };
  /**
   * Warm each loaded graph's node references with its indexes (HTTP: many clients print hubs from
   * the first second; stdio keeps them lazy, smaller).
   */
  warmReferences?: boolean;
  /**
   * While there is no graph file yet: how graph tools explain it (default: run `synaptic extract`).
   * `serve --extract` passes the state of the extraction it runs.
   */
  absentGraph?: () => string;
  /**
   * Serve a federated store shard-aware (SYNAPTIC_STORE / `serve --store`): a workspace output folder
   * or its global-manifest.json; members load on demand behind an LRU of `storeLru` (default 8).
   */
  store?: string;
  storeLru?: number;
}

export interface SynapticServer {
  core: McpCore;
  live: LiveGraph;
  /** Resource-update subscriptions, fed by every hot reload (transports add listeners). */
  hub: SubscriptionHub;
  /** The engine a graph tool would answer with now (runs the freshen check and the reload check first). */
  engine(): Promise<QueryEngine>;
  /**
   * With a source watcher (`serve --watch`, which keeps the previous outputs in memory): run an
   * incremental update of the served outputs now and reload; the run's summary.
   */
  updateSources?: () => Promise<ExtractSummary>;
  close(): Promise<void>;
}

/** The repository a graph path belongs to: the folder above synaptic-out/, else the graph's folder. */
function graphRootOf(graphPath: string): string {
  const dir = dirname(graphPath);
  return basename(dir) === 'synaptic-out' ? dirname(dir) : dir;
}

/** The WASM core, or an error that says it did not load and why (there is no other implementation). */
async function loadCore(): Promise<Core> {
  try {
    const { Core } = await import('../core/index.ts');
    return await Core.load();
  } catch (err) {
    throw new Error(`Cannot serve: the WASM core (wasm/synaptic.wasm) did not load: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Compose the whole Synaptic MCP server, transport-free: load the graph, build the graph tools,
 * resources, prompts and completions, and return the McpCore that stdio (and HTTP) feed messages to.
 */
export async function createSynapticServer(options: SynapticServerOptions): Promise<SynapticServer> {
  const liveOptions = {
    graphPath: options.graphPath,
    traversal: coreTraversal(options.core ?? (await loadCore())),
    log: options.log,
    watch: options.pinned ? false : options.watch,
    checkIntervalMs: options.graphCheckIntervalMs,
    warmReferences: options.warmReferences,
  };
  // The source check starts before the graph loads: its walk runs on the walk worker meanwhile. An
  // update it makes before `live` exists is picked up by the first acquire()'s stamp check.
  let live: LiveGraph | undefined;
  const makeFreshener = options.freshenRoot && !options.pinned
    ? () => new Freshener({ root: options.freshenRoot!, graphPath: options.graphPath, log: options.log, onUpdated: async () => live?.reloadIfChanged(), watch: options.watchSources })
    : undefined;
  // Before the first extract there is nothing to keep fresh (a freshen would be a full extract nobody asked for).
  let freshener = makeFreshener && existsSync(options.graphPath) ? makeFreshener() : undefined;
  freshener?.start();
  live = options.pinned ? LiveGraph.pinned(liveOptions, options.pinned.doc, options.pinned.stamp) : await LiveGraph.open(liveOptions);
  const absent = options.absentGraph ?? (() => `no graph for ${graphRootOf(options.graphPath)} yet: run \`synaptic extract ${graphRootOf(options.graphPath)}\` (memory and vault tools work meanwhile)`);
  const engine = async () => {
    if (freshener) await freshener.check();
    const e = await live.acquire();
    if (!live.present) throw new Error(`Cannot answer: ${absent()}`);
    return e;
  };
  const ctx: GraphToolContext = {
    engine,
    sourceRoot: realRoot(options.sourceRoot),
    defaults: options.concise ? CONCISE_DEFAULTS : NORMAL_DEFAULTS,
    graphPath: options.graphPath,
    logQuery: options.queryLog
      ? (record) => {
          try {
            appendFileSync(options.queryLog!, JSON.stringify(record) + '\n');
          } catch (err) {
            options.log(`[synaptic] warning: cannot append to SYNAPTIC_QUERY_LOG ${options.queryLog}: ${String(err)}`);
          }
        }
      : undefined,
  };
  const all: ToolProvider[] = [
    options.store
      ? createFederatedTools(new FederatedStore({ store: options.store, traversal: liveOptions.traversal, log: options.log, lru: options.storeLru }), ctx)
      : createGraphTools(ctx),
  ];
  if (options.allowExec) all.push(createExecTools(ctx));
  if (options.profile === 'igraph') all.push(createIgraphTools(ctx));
  all.push(...(options.providers ?? []));
  const { providers, hidden } = options.profile === 'lean' ? leanProviders(all) : { providers: all, hidden: [] };
  const resources = createGraphResources(engine, options.graphPath);
  const core: McpCore = new McpCore({
    name: options.name,
    version: options.version,
    // Built from the tools served now: an owner switch (mesh, learn) changes both together.
    instructions: () => serverInstructions(new Set(core.tools().map((t) => t.name)), { hidden, profile: options.profile }),
    providers,
    resources,
    prompts: createPrompts(() => new Set(providers.flatMap((p) => p.tools().map((t) => t.name)))),
    complete: createCompletions(() => live.engine),
    log: options.log,
  });
  // Every hot reload may change every synaptic:// resource; tool-list changes reach modern listeners.
  const hub = new SubscriptionHub();
  const knownUris = resources.list().map((r) => r.uri);
  live.onReload(() => {
    hub.graphChanged(knownUris);
    if (!freshener && makeFreshener) (freshener = makeFreshener()).start();
  });
  const detachHub = core.attach({ initialized: true, notify: (msg) => msg.method === 'notifications/tools/list_changed' && hub.toolsChanged() });
  // The cl100k tokenizer (~90 MB resident) loads only when an answer exceeds its budget's fast path.
  return {
    core,
    live,
    hub,
    engine,
    ...(freshener && options.watchSources ? { updateSources: () => freshener!.updateNow() } : {}),
    async close() {
      detachHub();
      freshener?.close();
      live.close();
      for (const p of providers) await p.close?.();
    },
  };
}
