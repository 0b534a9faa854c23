import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { Encoder, decode } from 'cbor-x';
import type { GraphDocument, GraphLink, GraphMeta, GraphNode, HazardSite } from '../graph/model.ts';
import { indexGraph } from '../graph/indexed-graph.ts';
import { Core } from '../core/index.ts';
import { encodeGraph } from '../graph/snapshot.ts';
import { MANIFEST_VERSION, parseManifest, stringifyManifest, type Manifest, type ManifestEntry } from '../graph/manifest.ts';
import { assignCommunities, nodeBetweenness, structuralEdges, type CommunityCore } from '../graph/communities.ts';
import { FACTS_VERSION, type FileFacts } from './facts.ts';
import { CONTEXT_FILE_NAMES, buildProjectContext } from './project-context.ts';
import { linkGraph } from './link/index.ts';
import { processFiles } from './pool.node.ts';
import type { FileResult, FileTask } from './process-file.node.ts';
import { walkRepository, DEFAULT_MAX_FILE_SIZE, type WalkedFile } from './walk.node.ts';
import { sortGraph, stringifyGraph } from './outputs/graph-json.ts';
import { renderReport } from './outputs/report.ts';

/**
 * The extraction pipeline: walk the repository, parse files on the worker pool (or reuse cached
 * facts for unchanged files), link all facts into one graph, assign communities, and write
 * synaptic-out/: graph.json, graph.cbor, .manifest.json, .facts/ (the facts cache), GRAPH_REPORT.md (each to a
 * temp file, then renamed).
 *
 * Incremental `update` is exact by construction: facts are per file, so it re-parses only files
 * whose bytes changed (size+mtime first, then the content hash), drops deleted ones, and re-links
 * everything: the output equals a full extraction of the same tree.
 */

export const OUTPUT_DIR_NAME = 'synaptic-out';
export const FACTS_CACHE_VERSION = 1;

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
  /** The WASM core for Leiden and betweenness; default: load it (null, or no wasm/ build: TS fallbacks). */
  core?: CommunityCore | null;
  onProgress?: (progress: { done: number; total: number; bytes: number }) => void;
  /** Called when a later phase starts: `linking`, `communities`, `writing`. */
  onPhase?: (phase: string) => void;
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
  /** Wall-clock milliseconds per phase. */
  timingsMs: { walk: number; parse: number; link: number; communities: number; write: number; total: number };
  /** CPU milliseconds per phase, all threads of the process (parse includes the workers). */
  cpuMs: { walk: number; parse: number; link: number; communities: number; write: number; total: number };
  /** Peak resident set size of the process so far, in MB. */
  peakRssMb: number;
  /** CPU milliseconds of the whole process since it started (startup and module loading included). */
  processCpuMs: number;
  outputs: { graphJson: string; graphCbor: string; manifest: string; report: string; factsCache: string };
}

interface CacheEntry {
  hash: string;
  lines: number;
  facts?: FileFacts;
  error?: string;
  skip?: string;
}

interface FactsCache {
  version: number;
  extractor_version: string;
  entries: Record<string, CacheEntry>;
}

/** Extractor version: package version + facts version (a change invalidates cached facts). */
export function extractorVersion(): string {
  let version = '0.0.0';
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'synaptic' && pkg.version) {
        version = pkg.version;
        break;
      }
    } catch {
      // try the next candidate
    }
  }
  return `synaptic-${version}+facts${FACTS_VERSION}`;
}

/** Commit of HEAD read from `.git` files (no git process), or null. */
export function readHeadCommit(root: string): string | null {
  try {
    let gitDir = join(root, '.git');
    const st = statSync(gitDir);
    if (st.isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, 'utf8'));
      if (!m) return null;
      gitDir = resolve(root, m[1]!.trim());
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref:\s*(.+)$/.exec(head)?.[1]?.trim();
    if (!ref) return null;
    const commonDir = existsSync(join(gitDir, 'commondir')) ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, commonDir]) {
      const loose = join(dir, ref);
      if (existsSync(loose)) {
        const sha = readFileSync(loose, 'utf8').trim();
        if (/^[0-9a-f]{40}$/.test(sha)) return sha;
      }
      const packed = join(dir, 'packed-refs');
      if (existsSync(packed)) {
        for (const line of readFileSync(packed, 'utf8').split('\n')) {
          const [sha, name] = line.trim().split(' ');
          if (name === ref && sha && /^[0-9a-f]{40}$/.test(sha)) return sha;
        }
      }
    }
  } catch {
    // no repository
  }
  return null;
}

/** Write a file atomically: a temp file in the same folder, then rename. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * The facts cache is split into shards by a hash of the path, so an update rewrites only the shards
 * holding changed files (a 640k-line repository has ~25 MB of facts).
 */
export const FACTS_DIR = '.facts';
const FACTS_SHARDS = 64;

function shardOf(path: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) % FACTS_SHARDS;
}

function shardFile(outDir: string, shard: number): string {
  return join(outDir, FACTS_DIR, `${String(shard).padStart(2, '0')}.cbor`);
}

function loadPrevious(outDir: string, version: string): { manifest: Manifest; cache: FactsCache } | null {
  try {
    const manifest = parseManifest(readFileSync(join(outDir, '.manifest.json'), 'utf8'));
    if (!manifest || manifest.extractor_version !== version) return null;
    const entries: Record<string, CacheEntry> = {};
    for (let shard = 0; shard < FACTS_SHARDS; shard++) {
      const part = decode(readFileSync(shardFile(outDir, shard))) as FactsCache;
      if (!part || part.version !== FACTS_CACHE_VERSION || part.extractor_version !== version || !part.entries) return null;
      Object.assign(entries, part.entries);
    }
    return { manifest, cache: { version: FACTS_CACHE_VERSION, extractor_version: version, entries } };
  } catch {
    return null; // no usable cache: a full extraction follows
  }
}

/** Write the shards of the facts cache that changed (all of them without a previous cache). */
function writeFactsCache(outDir: string, version: string, paths: string[], entries: Map<string, CacheEntry>, previous: FactsCache | null): void {
  mkdirSync(join(outDir, FACTS_DIR), { recursive: true });
  const shards: Record<string, CacheEntry>[] = Array.from({ length: FACTS_SHARDS }, () => ({}));
  const dirty = new Uint8Array(FACTS_SHARDS).fill(previous ? 0 : 1);
  for (const path of paths) {
    const shard = shardOf(path);
    const entry = entries.get(path)!;
    shards[shard]![path] = entry;
    if (previous && previous.entries[path] !== entry) dirty[shard] = 1;
  }
  if (previous) for (const path of Object.keys(previous.entries)) if (!entries.has(path)) dirty[shardOf(path)] = 1;
  const encoder = new Encoder({ useRecords: true });
  for (let shard = 0; shard < FACTS_SHARDS; shard++) {
    if (!dirty[shard]) continue;
    writeAtomic(shardFile(outDir, shard), encoder.encode({ version: FACTS_CACHE_VERSION, extractor_version: version, entries: shards[shard]! }));
  }
}

let coreOnce: Promise<CommunityCore | null> | null = null;

/** The WASM core, loaded once per process; null when wasm/ is not built (TS fallbacks run instead). */
function loadCore(): Promise<CommunityCore | null> {
  coreOnce ??= Core.load().then(
    (c) => c,
    (err: unknown) => {
      if (process.env.SYNAPTIC_DEBUG) console.error(err);
      return null;
    },
  );
  return coreOnce;
}

/** mtime granularity slack: a file modified this close to the previous scan is re-hashed. */
const RACY_MS = 2000;

function dropUndefined<T extends object>(obj: T): T {
  for (const key of Object.keys(obj)) if ((obj as Record<string, unknown>)[key] === undefined) delete (obj as Record<string, unknown>)[key];
  return obj;
}

function hazardOrder(a: HazardSite, b: HazardSite): number {
  const la = Number.parseInt(a.source_location.slice(1), 10) || 0;
  const lb = Number.parseInt(b.source_location.slice(1), 10) || 0;
  return a.source_file < b.source_file ? -1 : a.source_file > b.source_file ? 1
    : la - lb || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0)
    || (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0);
}

/** Hash of everything the outputs depend on (see Manifest.inputs_hash). */
function hashInputs(
  version: string, seed: number, communityEngine: string, commit: string | null, paths: string[],
  entries: Map<string, CacheEntry>, skipped: Record<string, string>, contextTexts: Record<string, string>,
): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([version, seed, communityEngine, commit]));
  for (const path of paths) {
    const e = entries.get(path)!;
    h.update(`\0${path}\0${e.hash}\0${e.facts ? 'ok' : ''}\0${e.error ?? ''}\0${e.skip ?? ''}`);
  }
  for (const path of Object.keys(skipped).sort()) h.update(`\x01${path}\0${skipped[path]}`);
  for (const path of Object.keys(contextTexts).sort()) h.update(`\x02${path}\0${contextTexts[path]}`);
  return 'sha256:' + h.digest('hex');
}

function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}

/** Run a full extraction, or an incremental update when `incremental` and a usable previous run exist. */
export async function runExtract(options: ExtractOptions): Promise<ExtractSummary> {
  const t0 = performance.now();
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const c0 = cpu();
  const root = resolve(options.root);
  const outDir = resolve(options.outDir ?? join(root, OUTPUT_DIR_NAME));
  const version = extractorVersion();
  const scanStarted = Date.now();

  const walk = walkRepository(root, {
    maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
    contextFileNames: CONTEXT_FILE_NAMES,
    excludeAbs: [outDir],
  });
  const tWalk = performance.now();
  const cWalk = cpu();

  const previous = options.incremental ? loadPrevious(outDir, version) : null;
  const entries = new Map<string, CacheEntry>();
  const tasks: FileTask[] = [];
  let reused = 0;
  for (const f of walk.files) {
    const prevEntry = previous?.cache.entries[f.path];
    const prevMeta = previous?.manifest.files[f.path];
    if (prevEntry && prevMeta && prevMeta.size === f.size && prevMeta.mtime_ms === f.mtimeMs
      && f.mtimeMs < previous!.manifest.scanned_at_ms - RACY_MS) {
      entries.set(f.path, prevEntry);
      reused++;
      continue;
    }
    tasks.push({ path: f.path, abs: f.abs, language: f.language, size: f.size, ...(prevEntry ? { knownHash: prevEntry.hash } : {}) });
  }
  const results: FileResult[] = tasks.length
    ? await processFiles(tasks, {
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.onProgress ? { onProgress: (done, total, bytes) => options.onProgress!({ done, total, bytes }) } : {}),
    })
    : [];
  let parsed = 0;
  let linesParsed = 0;
  for (const r of results) {
    if (r.unchanged) {
      entries.set(r.path, previous!.cache.entries[r.path]!);
      reused++;
      continue;
    }
    parsed++;
    linesParsed += r.lines;
    const entry: CacheEntry = { hash: r.hash, lines: r.lines };
    if (r.facts) entry.facts = r.facts;
    if (r.error !== undefined) entry.error = r.error;
    if (r.skip !== undefined) entry.skip = r.skip;
    entries.set(r.path, entry);
  }
  const tParse = performance.now();
  const cParse = cpu();

  // Link every file's facts (sorted by path) with the project context.
  options.onPhase?.('linking');
  const contextTexts: Record<string, string> = {};
  for (const rel of walk.contextFiles) {
    try {
      contextTexts[rel] = readFileSync(join(root, rel), 'utf8');
    } catch {
      // vanished since the walk: ignore
    }
  }
  const byPath = [...entries.keys()].sort();
  const facts: FileFacts[] = [];
  const failed: Record<string, string> = {};
  const skipped: Record<string, string> = { ...walk.skipped };
  const languages: Record<string, number> = {};
  let lines = 0;
  const walkedByPath = new Map<string, WalkedFile>(walk.files.map((f) => [f.path, f]));
  for (const path of byPath) {
    const e = entries.get(path)!;
    if (e.skip) {
      skipped[path] = e.skip;
      continue;
    }
    if (e.error !== undefined) failed[path] = e.error;
    if (!e.facts) continue;
    facts.push(e.facts);
    lines += e.lines;
    const lang = walkedByPath.get(path)!.language;
    languages[lang] = (languages[lang] ?? 0) + 1;
    const syntax = (e.facts as FileFacts & { syntaxErrors?: { line: number }[] }).syntaxErrors;
    if (Array.isArray(syntax) && syntax.length && failed[path] === undefined) {
      failed[path] = `syntax error at line ${syntax[0]!.line} (partially extracted)`;
    }
  }
  const commit = readHeadCommit(root);
  const core = options.core !== undefined ? options.core : await loadCore();
  const seed = options.seed ?? 42;
  const outputs = {
    graphJson: join(outDir, 'graph.json'),
    graphCbor: join(outDir, 'graph.cbor'),
    manifest: join(outDir, '.manifest.json'),
    report: join(outDir, 'GRAPH_REPORT.md'),
    factsCache: join(outDir, FACTS_DIR),
  };
  const inputsHash = hashInputs(version, seed, core ? 'core' : 'ts', commit, byPath, entries, skipped, contextTexts);
  const manifestFiles: Record<string, ManifestEntry> = {};
  for (const path of byPath) {
    const e = entries.get(path)!;
    const w = walkedByPath.get(path)!;
    manifestFiles[path] = { hash: e.hash, size: w.size, mtime_ms: w.mtimeMs, language: w.language, status: e.skip ? 'skipped' : e.facts ? 'ok' : 'failed' };
  }
  const prevFiles = previous?.manifest.files ?? {};
  let added = 0;
  let changed = 0;
  for (const path of byPath) {
    const before = prevFiles[path];
    if (!before) added++;
    else if (before.hash !== entries.get(path)!.hash) changed++;
  }
  const deleted = Object.keys(prevFiles).filter((p) => !entries.has(p)).length;

  // Same inputs as the previous run (e.g. files touched but not changed): the outputs stand; only the
  // manifest's sizes and mtimes are refreshed.
  const prevStats = previous?.manifest.stats;
  if (previous && prevStats && previous.manifest.inputs_hash === inputsHash
    && [outputs.graphJson, outputs.graphCbor, outputs.report].every((f) => existsSync(f))) {
    writeAtomic(outputs.manifest, stringifyManifest({ ...previous.manifest, scanned_at_ms: scanStarted, files: manifestFiles }));
    const tEnd = performance.now();
    const cEnd = cpu();
    return {
      mode: 'update', root, outDir, files: byPath.length, parsed, reused, added, changed, deleted,
      failed: Object.keys(failed).length, skipped: Object.keys(skipped).length, nodes: prevStats.nodes, links: prevStats.links,
      communities: prevStats.communities, linesParsed, lines, languages: sortedRecord(languages),
      timingsMs: { walk: Math.round(tWalk - t0), parse: Math.round(tParse - tWalk), link: 0, communities: 0, write: Math.round(tEnd - tParse), total: Math.round(tEnd - t0) },
      cpuMs: { walk: Math.round(cWalk - c0), parse: Math.round(cParse - cWalk), link: 0, communities: 0, write: Math.round(cEnd - cParse), total: Math.round(cEnd - c0) },
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      processCpuMs: Math.round(cEnd),
      outputs,
    };
  }

  const linked = linkGraph(facts, buildProjectContext(contextTexts));
  const meta: GraphMeta = {
    name: basename(root),
    extractor_version: version,
    languages: sortedRecord(languages),
    failed_files: sortedRecord(failed),
    skipped_files: sortedRecord(skipped),
    hazards: [...linked.hazards].sort(hazardOrder),
    unresolved_calls: sortedRecord(linked.unresolvedCalls),
  };
  const doc: GraphDocument = {
    directed: true,
    multigraph: true,
    graph: meta,
    nodes: linked.nodes.map((n: GraphNode) => dropUndefined({ ...n })),
    links: linked.links.map((l: GraphLink) => dropUndefined({ ...l })),
    hyperedges: [],
    built_at_commit: commit,
  };
  sortGraph(doc);
  const tLink = performance.now();
  const cLink = cpu();

  options.onPhase?.('communities');
  const indexed = indexGraph(doc);
  const communities = assignCommunities(doc, { indexed, seed, core });
  meta.community_algorithm = communities.algorithm;
  const betweenness = nodeBetweenness(structuralEdges(indexed), {
    samples: indexed.nodes.length > 20000 ? 64 : 256,
    seed,
    core,
  });
  const tCommunities = performance.now();
  const cCommunities = cpu();

  // Outputs.
  options.onPhase?.('writing');
  mkdirSync(outDir, { recursive: true });
  const manifest: Manifest = {
    manifest_version: MANIFEST_VERSION,
    extractor_version: version,
    scanned_at_ms: scanStarted,
    files: manifestFiles,
    inputs_hash: inputsHash,
    stats: { nodes: doc.nodes.length, links: doc.links.length, communities: communities.communities.length },
  };
  // The facts cache and manifest go first: graph.json's mtime then marks a complete run.
  writeFactsCache(outDir, version, byPath, entries, previous?.cache ?? null);
  writeAtomic(outputs.manifest, stringifyManifest(manifest));
  writeAtomic(outputs.graphCbor, encodeGraph(doc));
  writeAtomic(outputs.report, renderReport({ doc, indexed, communities: communities.communities, betweenness, algorithm: communities.algorithm }));
  writeAtomic(outputs.graphJson, stringifyGraph(doc));
  const tWrite = performance.now();
  const cWrite = cpu();

  return {
    mode: previous ? 'update' : 'full',
    root,
    outDir,
    files: byPath.length,
    parsed,
    reused,
    added: previous ? added : byPath.length,
    changed,
    deleted,
    failed: Object.keys(failed).length,
    skipped: Object.keys(skipped).length,
    nodes: doc.nodes.length,
    links: doc.links.length,
    communities: communities.communities.length,
    linesParsed,
    lines,
    languages: meta.languages!,
    timingsMs: {
      walk: Math.round(tWalk - t0),
      parse: Math.round(tParse - tWalk),
      link: Math.round(tLink - tParse),
      communities: Math.round(tCommunities - tLink),
      write: Math.round(tWrite - tCommunities),
      total: Math.round(tWrite - t0),
    },
    cpuMs: {
      walk: Math.round(cWalk - c0),
      parse: Math.round(cParse - cWalk),
      link: Math.round(cLink - cParse),
      communities: Math.round(cCommunities - cLink),
      write: Math.round(cWrite - cCommunities),
      total: Math.round(cWrite - c0),
    },
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    processCpuMs: Math.round(cpu()),
    outputs,
  };
}
