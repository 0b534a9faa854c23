import { join, resolve } from 'node:path';
import { warmFactsShards } from './facts-cache.node.ts';
import { extractorVersion, OUTPUT_DIR_NAME } from './identity.node.ts';
import { loadLinkCache } from './link-cache.node.ts';
import { OutputFolder, type DecodedGraph, type KeptOutputs } from './out/folder.node.ts';
import { linkFacts } from './phases/link-facts.node.ts';
import { linkPositions } from './phases/link-positions.node.ts';
import { planRun, sortedRecord, type Plan } from './phases/plan.node.ts';
import { loadCore, rankGraph } from './phases/rank.node.ts';
import { scan, type Scan } from './phases/scan.node.ts';
import { writeOutputs } from './phases/write.node.ts';
import { storePhase, type StoreMode, type StoreSummary } from './store-phase.node.ts';
import type { Linked } from './phases/linked.ts';
import type { PreciseSummary } from './precise/index.node.ts';

export { readHeadCommit, writeAtomic } from './repo-files.node.ts';
export { FACTS_DIR } from './facts-cache.node.ts';
export { OUTPUT_DIR_NAME, extractorVersion } from './identity.node.ts';

/**
 * The extraction pipeline. A run (`extract`, or `update` with `incremental`) is five phases:
 *
 * 1. scan (phases/scan): walk the repository; reuse files whose size and mtime are as before,
 *    parse the rest on the worker pool;
 * 2. plan (phases/plan): what changed, and so the route: `reused` (same inputs: the outputs stand),
 *    else `positions` (edits that only moved lines: the previous graph with their lines moved,
 *    phases/link-positions), else `relink` (contents changed: link again only the files whose
 *    linking may differ, phases/link-facts), else `full`; a route whose conditions fail falls
 *    through to the next;
 * 3. link: the graph document;
 * 4. rank (phases/rank): communities and betweenness (cached under the hash of their inputs);
 * 5. write (phases/write): the outputs, in the order out/folder documents;
 * 6. store (store-phase): the member's shard (graph.shard, docs/store.md), after the graph files are
 *    committed (a failed store write is reported and loses nothing).
 *
 * Every route gives the outputs a full extract of the same tree gives, byte for byte. The work is
 * proportional to the change where the formats allow: only changed files are parsed, only changed
 * facts shards rewritten, only the affected files relinked, only changed records serialized.
 */

export interface ExtractOptions {
  /** Repository root. */
  root: string;
  /** Output folder; default `<root>/synaptic-out`. */
  outDir?: string;
  maxFileSize?: number;
  /** Parallel parse lanes (0: this thread only; see PoolOptions.workers); default by input size and cores. */
  workers?: number;
  /** Reuse the previous run's facts for unchanged files (`synaptic update`). */
  incremental?: boolean;
  /** Community seed (fixed default: deterministic output). */
  seed?: number;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
  /** Called when a later phase starts: `linking`, `communities`, `writing`. */
  onPhase?: (phase: string) => void;
  /** A keeper's memory of its previous outputs (`update --watch`, `serve --watch`): same results, read from memory. */
  kept?: KeptOutputs;
  /** TypeScript checker call edges for TS/JS files (`--precise`); default: what the previous run used. */
  precise?: boolean;
  /**
   * The shard store (graph.shard): `write` creates or updates it, `keep` (default) updates one the
   * folder has, `off` (`--no-store`) removes it.
   */
  store?: StoreMode;
}

/** Milliseconds per extraction phase (wall or CPU), and their total. */
export interface PhaseMs {
  walk: number;
  parse: number;
  link: number;
  communities: number;
  write: number;
  total: number;
}

export interface ExtractSummary {
  mode: 'full' | 'update';
  root: string;
  outDir: string;
  files: number;
  parsed: number;
  reused: number;
  added: number;
  changed: number;
  deleted: number;
  failed: number;
  skipped: number;
  nodes: number;
  links: number;
  communities: number;
  /** Lines of the files parsed in this run. */
  linesParsed: number;
  /** Lines of every extracted file. */
  lines: number;
  languages: Record<string, number>;
  /** How the graph was linked: `full`, `incremental` (relink), `positions` (lines moved), `reused` (same inputs). */
  linkMode: 'full' | 'incremental' | 'positions' | 'reused';
  /** Files linked in this run (all of them for `full`, 0 for `positions` and `reused`). */
  relinked: number;
  /** Wall-clock milliseconds per phase. */
  timingsMs: PhaseMs;
  /** CPU milliseconds per phase, all threads of the process (parse includes the workers). */
  cpuMs: PhaseMs;
  /** Peak resident set size of the process so far, in MB. */
  peakRssMb: number;
  /** CPU milliseconds of the whole process since it started (startup and module loading included). */
  processCpuMs: number;
  /** Set when a keeper (`update --watch`, `serve --watch`) did this update for a one-shot `synaptic update`: its pid. */
  watcherPid?: number;
  /** What this run found wrong with the output folder (left by an interrupted run, damaged) and did about it. */
  repairs: string[];
  /** Precise mode's checker pass (absent in default mode and when a positions-only update needed none). */
  precise?: PreciseSummary;
  /** What the run did to the shard store (absent: no shard, none asked for). Its time is not in timingsMs. */
  store?: StoreSummary;
  outputs: { graphJson: string; graphCbor: string; manifest: string; report: string; factsCache: string };
}

/** Run a full extraction, or an incremental update when `incremental` and a usable previous run exist. */
export async function runExtract(options: ExtractOptions): Promise<ExtractSummary> {
  const root = resolve(options.root);
  const folder = new OutputFolder(resolve(options.outDir ?? join(root, OUTPUT_DIR_NAME)), options.kept);
  // One writer per output folder at a time (update --watch, a one-shot update and the server's catch-up may meet there).
  const lock = await folder.lock();
  try {
    const stale = folder.removeStaleTemps();
    const summary = await extractOnce(root, folder, options);
    if (stale) summary.repairs.push(`removed ${stale} temp file${stale === 1 ? '' : 's'} an interrupted run left in ${folder.dir}`);
    return summary;
  } catch (err) {
    folder.forgetAll();
    throw err;
  } finally {
    lock.release();
  }
}

async function extractOnce(root: string, folder: OutputFolder, options: ExtractOptions): Promise<ExtractSummary> {
  const clock = new PhaseClock();
  // SYNAPTIC_DEBUG=steps: wall and CPU time of each step, on stderr (where an update spends its time).
  const step = stepTimer(process.env.SYNAPTIC_DEBUG === 'steps');
  const version = extractorVersion();
  const core = loadCore(); // compiles off this thread while the walk and the parse run
  const pool = {
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.onProgress ? { onProgress: (done: number, total: number, bytes: number) => options.onProgress!({ done, total, bytes }) } : {}),
  };
  const scanned = await scan({ root, incremental: options.incremental === true, pool, ...(options.maxFileSize !== undefined ? { maxFileSize: options.maxFileSize } : {}) }, folder, version, () => clock.mark('walk'));
  clock.mark('parse');
  step('scan');
  const repairs: string[] = [];
  const manifestProblem = options.incremental && !scanned.previous ? folder.manifestProblem() : null;
  if (manifestProblem) repairs.push(`${manifestProblem}: every file was extracted again`);
  const precise = options.precise ?? scanned.previous?.precise === true;
  const plan = planRun(scanned, folder, version, options.seed ?? 42, precise);
  if (plan.damage) repairs.push(`${plan.damage}: the graph was built again from every file's facts`);
  if (plan.route === 'reused') return withStore(reuseOutputs(folder, scanned, plan, clock), storePhase(folder, scanned, null, options.store, null));

  step('plan');
  options.onPhase?.('linking');
  const decoded: DecodedGraph = {};
  const linked = (plan.route === 'positions' ? linkPositions(scanned, plan, folder, decoded) : null)
    ?? await linkFacts(scanned, plan, folder, decoded, step);
  // A positions-only update moved the previous graph's lines, checker edges included.
  const checked = precise && linked.mode !== 'positions' ? await checkCalls(root, linked, folder, plan) : undefined;
  if (checked) step('precise');
  clock.mark('link');
  options.onPhase?.('communities');
  const ranked = rankGraph(linked, await core, plan.seed, folder, scanned.previous !== null, step);
  clock.mark('communities');
  options.onPhase?.('writing');
  const manifest = await writeOutputs(folder, scanned, plan, linked, ranked, decoded, step);
  clock.mark('write');
  const store = await storePhase(folder, scanned, linked, options.store, manifest);
  if (store) step(`store (${store.mode})`);
  const summary = summaryOf(folder, scanned, plan, clock, {
    linkMode: linked.mode, relinked: linked.relinked, failed: Object.keys(linked.failed).length, skipped: linked.skippedCount,
    nodes: linked.doc.nodes.length, links: linked.doc.links.length, communities: ranked.communities.communities.length, lines: linked.lines,
  }, repairs);
  return { ...summary, ...(checked ? { precise: checked } : {}), ...(store ? { store } : {}) };
}

/** A summary with the store phase's, run after the outputs (its CPU counted in processCpuMs). */
async function withStore(summary: ExtractSummary, run: Promise<StoreSummary | undefined>): Promise<ExtractSummary> {
  const store = await run;
  return store ? { ...summary, store, processCpuMs: Math.round(cpuNow()) } : summary;
}

/** Precise mode's pass over the linked graph (the compiler is loaded only for it). */
async function checkCalls(root: string, linked: Linked, folder: OutputFolder, plan: Plan): Promise<PreciseSummary> {
  const { applyPrecise } = await import('./precise/index.node.ts');
  const summary = await applyPrecise(root, linked.doc, { folder, hashes: plan.manifestFiles, version: plan.version });
  linked.reuse = null; // links were added and dropped: the previous rows no longer line up
  return summary;
}

/** Same inputs as the previous run (e.g. files touched but not changed): only the manifest's sizes and mtimes are refreshed. */
function reuseOutputs(folder: OutputFolder, scanned: Scan, plan: Plan, clock: PhaseClock): ExtractSummary {
  const previous = scanned.previous!;
  clock.skip('link');
  clock.skip('communities');
  folder.writeManifest({ ...previous, scanned_at_ms: scanned.startedAt, files: plan.manifestFiles });
  scanned.saveListings(folder);
  clock.mark('write');
  const s = previous.stats!;
  return summaryOf(folder, scanned, plan, clock, {
    linkMode: 'reused', relinked: 0, failed: s.failed, skipped: s.skipped, nodes: s.nodes, links: s.links, communities: s.communities, lines: s.lines!,
  });
}

type Outcome = Pick<ExtractSummary, 'linkMode' | 'relinked' | 'failed' | 'skipped' | 'nodes' | 'links' | 'communities' | 'lines'>;

function summaryOf(folder: OutputFolder, scanned: Scan, plan: Plan, clock: PhaseClock, outcome: Outcome, repairs: string[] = []): ExtractSummary {
  const { files } = scanned;
  const update = scanned.previous !== null;
  return {
    mode: update ? 'update' : 'full', root: scanned.root, outDir: folder.dir, files: plan.paths.length,
    parsed: files.parsed, reused: files.reusedCount, added: update ? plan.added : plan.paths.length, changed: plan.changed, deleted: plan.deleted,
    ...outcome, linesParsed: files.linesParsed, languages: sortedRecord(plan.languages),
    timingsMs: clock.wall(), cpuMs: clock.cpu(),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    processCpuMs: Math.round(cpuNow()),
    repairs,
    outputs: { graphJson: folder.graphJson, graphCbor: folder.graphCbor, manifest: folder.manifestFile, report: folder.report, factsCache: folder.path('.facts') },
  };
}

/**
 * A keeper's idle time (see OutputFolder.warm): load, one file a step, what its next update may read
 * from disk: the manifest, the listings, the facts shards, the link cache, graph.json and graph.cbor.
 */
export function warmKept(outDir: string, kept: KeptOutputs): Generator<void, void, void> {
  const folder = new OutputFolder(resolve(outDir), kept);
  const version = extractorVersion();
  function* caches(): Generator<void, void, void> {
    yield* warmFactsShards(folder);
    const linkCache = folder.graphState()?.link_cache;
    if (linkCache) loadLinkCache(folder, linkCache, version);
    yield;
  }
  return folder.warm(version, caches());
}

type Phase = 'walk' | 'parse' | 'link' | 'communities' | 'write';

function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Wall and CPU clock readings at the end of each phase. */
class PhaseClock {
  readonly #wall: number[] = [performance.now()];
  readonly #cpu: number[] = [cpuNow()];

  /** The end of `phase`. */
  mark(_phase: Phase): void {
    this.#wall.push(performance.now());
    this.#cpu.push(cpuNow());
  }

  /** `phase` did not run (it took no time). */
  skip(_phase: Phase): void {
    this.#wall.push(this.#wall.at(-1)!);
    this.#cpu.push(this.#cpu.at(-1)!);
  }

  wall(): PhaseMs {
    return phaseMs(this.#wall);
  }

  cpu(): PhaseMs {
    return phaseMs(this.#cpu);
  }
}

function phaseMs(t: number[]): PhaseMs {
  const r = Math.round;
  const [start, walk, parse, link, communities, write] = t as [number, number, number, number, number, number];
  return { walk: r(walk - start), parse: r(parse - walk), link: r(link - parse), communities: r(communities - link), write: r(write - communities), total: r(write - start) };
}

/** Logs the wall time since the previous call when enabled (a no-op otherwise). */
function stepTimer(enabled: boolean): (label: string) => void {
  if (!enabled) return () => {};
  let last = performance.now();
  let lastCpu = cpuNow();
  return (label) => {
    const now = performance.now();
    const cpu = cpuNow();
    console.error(`synaptic: ${label}: ${(now - last).toFixed(0)} ms (${(cpu - lastCpu).toFixed(0)} ms CPU)`);
    last = now;
    lastCpu = cpu;
  };
}
