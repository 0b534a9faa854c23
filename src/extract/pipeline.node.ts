import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import type { GraphDocument, GraphLink, GraphMeta, GraphNode, HazardSite } from '../graph/model.ts';
import { indexGraph } from '../graph/indexed-graph.ts';
import { Core } from '../core/index.ts';
import { decodeSnapshot, snapshotToDocument } from '../graph/snapshot.ts';
import { EncodeMemo, encodeGraph } from '../graph/snapshot-encode.ts';
import { MANIFEST_VERSION, stringifyManifest, type Manifest, type ManifestEntry } from '../graph/manifest.ts';
import { assignCommunities, nodeBetweenness, structuralEdges, type CommunityCore } from '../graph/communities.ts';
import type { FileFacts } from './facts.ts';
import { extractorVersion, OUTPUT_DIR_NAME } from './identity.node.ts';
import { CONTEXT_FILE_NAMES, buildProjectContext } from './project-context.ts';
import { linkGraph, type LinkDeps } from './link/index.ts';
import { relink, type RelinkResult } from './link/incremental.ts';
import { loadLinkCache, writeLinkCache } from './link-cache.node.ts';
import { processFiles } from './pool.node.ts';
import type { FileResult, FileTask } from './process-file.node.ts';
import { encodeListings, loadListings, walkRepository, DEFAULT_MAX_FILE_SIZE, type ListingCache, type WalkResult, type WalkedFile } from './walk.node.ts';
import { sortGraph, stringifyGraph } from './outputs/graph-json.ts';
import { reuseGraphText } from './outputs/graph-json-reuse.node.ts';
import { renderReport } from './outputs/report.ts';
import {
  FACTS_DIR, communityCacheKey, loadCommunityCache, loadFactsCache, loadFactsShards, loadPreviousManifest, shardEntry, warmFactsShards, writeCommunityCache,
  writeFactsCache, writeFactsShards, type CacheEntry,
} from './facts-cache.node.ts';
import { inLinkKeyOrder, lineMap, positionFreeShape, shiftFilePositions } from './line-shift.ts';
import { readHeadCommit, stageAtomic, stagedRename, writeAtomic, type StagedWrite } from './repo-files.node.ts';
import { readKept, takeKept, type ResidentOutputs } from './resident.node.ts';
import { lockOutDir } from './out-lock.node.ts';
import { runtimeFor } from './parser.ts';
import { LANGUAGE_IDS, type LanguageId } from './languages.ts';
import { graphTextJob, type GraphTextWorker } from './outputs/graph-text.node.ts';

export { readHeadCommit, writeAtomic } from './repo-files.node.ts';
export { FACTS_DIR } from './facts-cache.node.ts';

/**
 * The extraction pipeline: walk the repository, parse files on the worker pool (or reuse cached
 * facts for unchanged files), link all facts into one graph, assign communities, and write
 * synaptic-out/: graph.json, graph.cbor, .manifest.json, .facts/ (the facts cache), GRAPH_REPORT.md (each to a
 * temp file, then renamed).
 *
 * Incremental `update` is exact by construction: facts are per file, so it re-parses only files
 * whose bytes changed (size+mtime first, then the content hash), drops deleted ones, and re-links
 * what may have changed: nothing but positions when the edits only moved lines (line-shift.ts),
 * else the files whose linking read a changed file or index entry (link/incremental.ts), else
 * everything. The output equals a full extraction of the same tree.
 */

export { OUTPUT_DIR_NAME, extractorVersion } from './identity.node.ts';

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
  /**
   * Decoded outputs kept by a long-lived process across runs (`update --watch`, the server's catch-up):
   * the update reads its previous outputs from memory while their files are unchanged. Same results.
   */
  resident?: ResidentOutputs;
  /** With `resident`: an update's graph.json is built and written on this worker thread meanwhile. */
  graphText?: GraphTextWorker;
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

/** Phase durations from the clock readings at the start and at the end of each phase. */
function phaseMs(start: number, walk: number, parse: number, link: number, communities: number, write: number): PhaseMs {
  const r = Math.round;
  return { walk: r(walk - start), parse: r(parse - walk), link: r(link - parse), communities: r(communities - link), write: r(write - communities), total: r(write - start) };
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
  /**
   * How the graph was linked: `full` (every file's facts), `incremental` (only the files whose
   * linking inputs changed, see link/incremental.ts), `positions` (edited files moved only in
   * positions: the previous graph with their lines moved, see line-shift.ts), `reused` (same inputs).
   */
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
  /** Set when a running `update --watch` did this update for a one-shot `synaptic update`: its pid. */
  watcherPid?: number;
  outputs: { graphJson: string; graphCbor: string; manifest: string; report: string; factsCache: string };
}


let coreOnce: Promise<{ core: CommunityCore | null; engine: string | null }> | null = null;

/**
 * The WASM core, loaded once per process, with an identity for its engine (`core:<sha256 of the
 * .wasm>`) so cached community results are only reused with the very same binary; core null when
 * wasm/ is not built (TS fallbacks run instead); engine null when the binary is unknown.
 */
function loadCore(): Promise<{ core: CommunityCore | null; engine: string | null }> {
  coreOnce ??= (async () => {
    const debug = (err: unknown): void => {
      if (process.env.SYNAPTIC_DEBUG) console.error(err);
    };
    for (const rel of ['../../wasm/synaptic.wasm', '../../../wasm/synaptic.wasm']) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(new URL(rel, import.meta.url));
      } catch {
        continue;
      }
      try {
        return { core: await Core.load({ bytes }), engine: `core:${createHash('sha256').update(bytes).digest('hex')}` };
      } catch (err) {
        debug(err);
        break;
      }
    }
    try {
      return { core: await Core.load(), engine: null };
    } catch (err) {
      debug(err);
      return { core: null, engine: null };
    }
  })();
  return coreOnce;
}

/** The folder listings of the last walk (see walk.node.ts ListingCache). */
const LISTINGS_FILE = '.walk.cbor';

/** mtime granularity slack: a file modified this close to the previous scan is re-hashed. */
const RACY_MS = 2000;

/**
 * A copy without the keys whose value is undefined, built key by key: deleting keys instead would
 * turn the object into a slow dictionary-mode one, and every later pass (encoding, serializing) pays.
 */
function definedCopy<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const key in obj) {
    const value = (obj as Record<string, unknown>)[key];
    if (value !== undefined && Object.hasOwn(obj, key)) out[key] = value;
  }
  return out as T;
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
  version: string, seed: number, communityEngine: string, commit: string | null, files: Record<string, ManifestEntry>,
  walkSkipped: Record<string, string>, contextTexts: Record<string, string>,
): string {
  // One text hashed at once (the same bytes as hashing its parts in turn; a call per file cost more).
  let text = JSON.stringify([version, seed, communityEngine, commit]);
  for (const path of Object.keys(files).sort()) text += `\0${path}\0${files[path]!.hash}\0${files[path]!.status}`;
  for (const path of Object.keys(walkSkipped).sort()) text += `\x01${path}\0${walkSkipped[path]}`;
  for (const path of Object.keys(contextTexts).sort()) text += `\x02${path}\0${contextTexts[path]}`;
  return 'sha256:' + createHash('sha256').update(text).digest('hex');
}

/**
 * graph.cbor's own record of the run that wrote it (synaptic-out/.graph-state.json, written after
 * every output): the manifest's inputs hash of that run. The positions-only path trusts the previous
 * graph.cbor only when this matches the previous manifest (a crash between writes leaves them apart).
 */
const GRAPH_STATE_FILE = '.graph-state.json';

/** The state file's fixed size: it is rewritten in place, padded with spaces (valid JSON). */
const GRAPH_STATE_BYTES = 512;

/**
 * Record which inputs (and which link cache) the graph now on disk was built from, last in a run.
 * Only a hint for the next run: a missing, stale or unreadable state sends it down the full path.
 * So the file is rewritten in place by one write of a fixed size, not through a temp file and a
 * rename: right after graph.json and graph.cbor replaced their 60 MB, a rename over the state file
 * waited 30-40 ms for the file system's journal (ext4), while an in-place write of allocated blocks
 * does not. A process dying mid-run leaves the old state or a new one, never a torn one (one write).
 */
function writeGraphState(outDir: string, inputsHash: string, linkCache: string | null): void {
  const text = JSON.stringify({ inputs_hash: inputsHash, ...(linkCache ? { link_cache: linkCache } : {}) });
  const path = join(outDir, GRAPH_STATE_FILE);
  if (Buffer.byteLength(text) >= GRAPH_STATE_BYTES) {
    writeAtomic(path, text + '\n');
    return;
  }
  const bytes = Buffer.alloc(GRAPH_STATE_BYTES, 0x20);
  bytes.write(text);
  bytes[GRAPH_STATE_BYTES - 1] = 0x0a;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r+');
    if (fstatSync(fd).size !== GRAPH_STATE_BYTES) throw new Error('not a fixed-size state file');
    writeSync(fd, bytes, 0, bytes.length, 0);
  } catch {
    // First run, or a file of another size (an older extractor): replaced once.
    writeAtomic(path, bytes);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Also names the link cache (.link.cbor id) that describes the same graph, when there is one. */
function readGraphState(outDir: string): { inputs_hash?: string; link_cache?: string } | null {
  try {
    return JSON.parse(readFileSync(join(outDir, GRAPH_STATE_FILE), 'utf8')) as { inputs_hash?: string; link_cache?: string };
  } catch {
    return null;
  }
}

/** Most changed files the incremental relink takes on. */
const RELINK_MAX_FILES = 256;

function noRelink(reason: string): null {
  if (process.env.SYNAPTIC_DEBUG) console.error(`synaptic: incremental relink not taken (${reason}): linking every file`);
  return null;
}

function noShift(reason: string): null {
  if (process.env.SYNAPTIC_DEBUG) console.error(`synaptic: positions-only update not taken (check ${reason}): relinking`);
  return null;
}

/** Most edited files the positions-only path takes on (beyond it a relink is as cheap). */
const SHIFT_MAX_FILES = 64;

/**
 * The positions-only update (see line-shift.ts): when every edited file's new facts equal its
 * cached facts but for positions, and nothing else that the outputs depend on changed (same file
 * set, statuses, context files, commit, skipped files, seed, engine: checked through the inputs
 * hash), the previous graph (graph.cbor) with those files' positions moved IS the linked graph of
 * the new tree. Returns null whenever any condition fails: the caller then relinks everything.
 */
function shiftEditedPositions(input: {
  outDir: string; version: string; previous: Manifest; entries: Map<string, CacheEntry>;
  manifestFiles: Record<string, ManifestEntry>; root: string; commit: string | null; languages: Record<string, number>;
  inputsMatch: (files: Record<string, ManifestEntry>) => boolean; resident: ResidentOutputs | undefined; decoded: DecodedMemo;
}): {
  doc: GraphDocument; shards: Map<number, Record<string, CacheEntry>>; lines: number;
  /** Nodes and links whose text changed; each node's community in the previous graph. */
  touched: { nodes: number[]; links: number[] }; previousCommunity: (number | undefined)[];
} | null {
  const { outDir, version, previous, entries } = input;
  if (entries.size > SHIFT_MAX_FILES || typeof previous.stats?.lines !== 'number') return noShift('1');
  if (!previous.inputs_hash || readGraphState(outDir)?.inputs_hash !== previous.inputs_hash) return noShift('2');
  const asBefore: Record<string, ManifestEntry> = { ...input.manifestFiles };
  for (const [path, e] of entries) {
    const prev = previous.files[path];
    if (!prev || prev.status !== 'ok' || !e.facts || e.error !== undefined || e.skip !== undefined) return noShift('3');
    asBefore[path] = { ...asBefore[path]!, hash: prev.hash, status: prev.status };
  }
  if (!input.inputsMatch(asBefore)) return noShift('4');
  const shards = loadFactsShards(outDir, version, entries.keys(), input.resident);
  if (!shards) return noShift('5');
  const edits: { before: FileFacts; after: FileFacts; map: Map<number, number> }[] = [];
  let lines = previous.stats.lines;
  for (const [path, e] of entries) {
    const old = shardEntry(shards, path);
    if (!old || old.hash !== previous.files[path]!.hash || !old.facts || old.error !== undefined || old.skip !== undefined) return noShift('6');
    const before = old.facts;
    const after = e.facts!;
    // Go and Java files hang off package nodes by a line-1 link that does not move with the file.
    if ((before.packageName || after.packageName) && ['go', 'java'].includes(after.language)) return noShift('7');
    const shapeBefore = positionFreeShape(before);
    const shapeAfter = positionFreeShape(after);
    if (shapeBefore !== shapeAfter) {
      if (process.env.SYNAPTIC_DEBUG) {
        let i = 0;
        while (shapeBefore[i] === shapeAfter[i]) i++;
        console.error(`synaptic: ${path} facts differ beyond positions at: ${shapeBefore.slice(Math.max(0, i - 120), i + 80)}\n  now: ${shapeAfter.slice(Math.max(0, i - 120), i + 80)}`);
      }
      return noShift('8');
    }
    const map = lineMap(before, after);
    if (!map) return noShift('9');
    edits.push({ before, after, map });
    lines += e.lines - old.lines;
  }
  let doc: GraphDocument;
  try {
    doc = previousGraph(outDir, input.resident, input.decoded);
  } catch {
    return noShift('10');
  }
  const nodes = inLinkKeyOrder(doc.nodes);
  if (!nodes) return noShift('11');
  // (re-keyed copies of the same records: graph.cbor still copies their rows)
  (decodedMemo(input.decoded) ?? input.resident?.encodeMemo)?.replaceNodes(doc.nodes, nodes);
  doc.nodes = nodes;
  const nodeIndex = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) nodeIndex.set(nodes[i]!.id, i);
  const touched = { nodes: [] as number[], links: [] as number[] };
  for (const { before, after, map } of edits) if (!shiftFilePositions(doc, nodeIndex, before, after, map, touched)) return noShift('12');
  const meta = doc.graph;
  const failed = { ...(meta.failed_files ?? {}) };
  for (const { after } of edits) {
    delete failed[after.path];
    const syntax = after.syntaxErrors;
    if (Array.isArray(syntax) && syntax.length) failed[after.path] = `syntax error at line ${syntax[0]!.line} (partially extracted)`;
  }
  meta.name = basename(input.root);
  meta.languages = sortedRecord(input.languages);
  meta.failed_files = sortedRecord(failed);
  if (meta.hazards) meta.hazards.sort(hazardOrder);
  doc.built_at_commit = input.commit;
  return { doc, shards, lines, touched, previousCommunity: nodes.map((n) => n.community) };
}

/**
 * The incremental relink (see link/incremental.ts): when only files' contents changed (same file set,
 * every changed file extracted before and now, same configuration: checked through the inputs
 * hash), link again only the files whose linking may come out differently and take the rest from
 * the previous graph (graph.cbor), which the link cache must describe. Null when a condition fails:
 * the caller then links everything.
 */
function relinkChanged(input: {
  outDir: string; version: string; previous: Manifest; prevCache: Record<string, CacheEntry> | null; entries: Map<string, CacheEntry>;
  changedPaths: string[]; manifestFiles: Record<string, ManifestEntry>; facts: FileFacts[]; context: ReturnType<typeof buildProjectContext>;
  inputsMatch: (files: Record<string, ManifestEntry>) => boolean; resident: ResidentOutputs | undefined; decoded: DecodedMemo;
}): (RelinkResult & { previousNodes: GraphNode[] }) | null {
  const { outDir, version, previous, prevCache, entries, changedPaths } = input;
  if (changedPaths.length > RELINK_MAX_FILES) return noRelink('too many changed files');
  if (!prevCache) return noRelink('no facts cache');
  const state = readGraphState(outDir);
  if (!previous.inputs_hash || state?.inputs_hash !== previous.inputs_hash || !state.link_cache) return noRelink('graph state');
  const asBefore: Record<string, ManifestEntry> = { ...input.manifestFiles };
  const before = new Map<string, FileFacts>();
  for (const path of changedPaths) {
    const prev = previous.files[path];
    const old = prevCache[path];
    const now = entries.get(path);
    if (!prev || prev.status !== 'ok' || !old?.facts || old.hash !== prev.hash || !now?.facts || now.skip !== undefined) return noRelink(`status of ${path}`);
    asBefore[path] = { ...asBefore[path]!, hash: prev.hash, status: prev.status };
    before.set(path, old.facts);
  }
  if (!input.inputsMatch(asBefore)) return noRelink('inputs beyond the changed files');
  const deps = loadLinkCache(outDir, state.link_cache, version, input.resident);
  if (!deps) return noRelink('link cache');
  let doc: GraphDocument;
  try {
    doc = previousGraph(outDir, input.resident, input.decoded);
  } catch {
    return noRelink('graph.cbor');
  }
  const result = relink({
    facts: input.facts, context: input.context, deps, before,
    previous: { links: doc.links, hazards: doc.graph.hazards ?? [], unresolvedCalls: doc.graph.unresolved_calls ?? {} },
  });
  // (Object.assign keeps the result's lazily built `nodes` lazy; a spread would build them.)
  return result ? Object.assign(result, { previousNodes: doc.nodes }) : noRelink('linked files differ');
}

/** Row i taken from row i (a typed array filled in a loop: `from` with a map function iterates slowly). */
function identityRows(n: number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}

/**
 * An incremental update's nodes: a node depends only on its own file's facts (package nodes on the
 * files of their package), so the previous graph's nodes of unchanged files are kept as they are
 * (encodeGraph reads fields in a fixed order: same bytes) and only the changed files' and the package
 * nodes are built; both lists are in id order and are merged. Equal ids in both lists would need the
 * full build's tie order: then every node is built.
 */
function keptNodes(incremental: RelinkResult & { previousNodes: GraphNode[] }, changedFiles: ReadonlySet<string>): GraphNode[] {
  const fresh = incremental.nodesOf((f) => changedFiles.has(f.path)).map((n) => definedCopy(n));
  const kept = incremental.previousNodes.filter((n) => n.kind !== 'package' && !changedFiles.has(n.source_file));
  const out: GraphNode[] = new Array(fresh.length + kept.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    if (j >= kept.length || (i < fresh.length && fresh[i]!.id < kept[j]!.id)) out[k] = fresh[i++]!;
    else if (i < fresh.length && fresh[i]!.id === kept[j]!.id) return incremental.nodes.map((n) => definedCopy(n));
    else out[k] = kept[j++]!;
  }
  return out;
}

/**
 * The previous graph as read from disk (see previousGraph): its columns, made into an encode memo
 * only when the update goes on to copy rows from them (building one numbers every string).
 */
interface DecodedMemo {
  make?: () => EncodeMemo;
  memo?: EncodeMemo;
}

function decodedMemo(decoded: DecodedMemo): EncodeMemo | undefined {
  return (decoded.memo ??= decoded.make?.());
}

/**
 * The previous run's graph (graph.cbor) for the caller to change: a resident process hands over the
 * one it wrote. Read from disk, its columns can also become an encode memo (`decoded`), so the new
 * graph.cbor copies the rows the update keeps instead of encoding them again.
 */
function previousGraph(outDir: string, resident: ResidentOutputs | undefined, decoded: DecodedMemo): GraphDocument {
  const file = join(outDir, 'graph.cbor');
  return takeKept(resident, file, () => {
    const { doc, makeMemo } = readGraphSnapshot(file);
    decoded.make = makeMemo;
    return doc;
  });
}

/** graph.cbor decoded, and how to make an encode memo of its columns (which numbers every string). */
function readGraphSnapshot(file: string): { doc: GraphDocument; makeMemo: () => EncodeMemo } {
  const snap = decodeSnapshot(readFileSync(file));
  const doc = snapshotToDocument(snap);
  // The rows as decoded (the caller may change the document's arrays before the memo is made).
  const rows = { nodes: doc.nodes.slice(), links: doc.links.slice() };
  return { doc, makeMemo: () => EncodeMemo.fromDecoded(snap, rows) };
}

/** The walk of a run over `root`, reusing the folder listings `saved` by the previous run. */
function walkWith(root: string, outDir: string, maxFileSize: number | undefined, saved: ReturnType<typeof loadListings>): { walk: WalkResult; listings: ListingCache } {
  const listings: ListingCache = { previous: saved?.listings ?? null, trustBefore: saved ? saved.scannedAtMs - RACY_MS : 0, next: new Map(), changed: false };
  const walk = walkRepository(root, { maxFileSize: maxFileSize ?? DEFAULT_MAX_FILE_SIZE, contextFileNames: CONTEXT_FILE_NAMES, excludeAbs: [outDir], listings });
  return { walk, listings };
}

/**
 * Load into `resident`, one file a step, what the next update of `outDir` may read from disk: the
 * manifest, the folder listings (planned by a walk with `extract`'s options, when given), every
 * facts cache shard, the link cache, graph.json's bytes (into `graphText`'s worker, when given) and
 * graph.cbor (decoded, with the encode memo made of its columns). A keeper runs the steps while idle, so
 * its next update finds them in memory whichever way it goes (a line shift reads a few shards and the
 * graph; a relink all shards and the link cache). After an update most are kept already, and a step
 * costs a stat.
 */
export function* warmResident(outDir: string, resident: ResidentOutputs, graphText?: GraphTextWorker, extract?: Pick<ExtractOptions, 'root' | 'maxFileSize'>): Generator<void, void, void> {
  const version = extractorVersion();
  const manifest = loadPreviousManifest(outDir, version, resident);
  // The parsers of the repository's main languages (a grammar and its tags query compile in ~50-200 ms).
  for (const language of mainLanguages(manifest)) {
    runtimeFor(language).catch(() => {}); // a failure is the update's to report
    yield;
  }
  const listingsFile = join(outDir, LISTINGS_FILE);
  const saved = readKept(resident, listingsFile, () => loadListings(listingsFile));
  yield;
  // A walk with the run's options: each kept folder listing gets its plan (what the walk does with
  // each entry under the ignore rules), so the next walk only stats the files. Its result is dropped.
  if (extract) {
    walkWith(resolve(extract.root), outDir, extract.maxFileSize, saved);
    yield;
  }
  yield* warmFactsShards(outDir, resident);
  const linkCache = readGraphState(outDir)?.link_cache;
  if (linkCache) loadLinkCache(outDir, linkCache, version, resident);
  yield;
  const graphJson = join(outDir, 'graph.json');
  if (existsSync(graphJson)) {
    if (!graphText) readKept(resident, graphJson, () => readFileSync(graphJson));
    else if (!graphText.keeps(graphJson)) {
      resident.forget(graphJson);
      graphText.keepFile(graphJson);
    }
  }
  yield;
  const graphCbor = join(outDir, 'graph.cbor');
  if (!existsSync(graphCbor)) return;
  resident.read(graphCbor, () => {
    const { doc, makeMemo } = readGraphSnapshot(graphCbor);
    // The next update copies the rows it keeps from these columns (see previousGraph).
    resident.encodeMemo = makeMemo();
    return doc;
  });
}

/** Languages of at least 1% of a manifest's parsed files (at most 4), most files first. */
function mainLanguages(manifest: Manifest | null): LanguageId[] {
  if (!manifest) return [];
  const counts = new Map<string, number>();
  let total = 0;
  for (const entry of Object.values(manifest.files)) {
    if (entry.status !== 'ok') continue;
    counts.set(entry.language, (counts.get(entry.language) ?? 0) + 1);
    total++;
  }
  return [...counts].filter(([language, n]) => n >= total / 100 && (LANGUAGE_IDS as readonly string[]).includes(language))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 4).map(([language]) => language as LanguageId);
}

/** Logs the wall time since the previous call when enabled (a no-op otherwise). */
function stepTimer(enabled: boolean): (label: string) => void {
  if (!enabled) return () => {};
  let last = performance.now();
  return (label) => {
    const now = performance.now();
    console.error(`synaptic: ${label}: ${(now - last).toFixed(0)} ms`);
    last = now;
  };
}

function sortedRecord<V>(record: Record<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key]!;
  return out;
}

/** Run a full extraction, or an incremental update when `incremental` and a usable previous run exist. */
export async function runExtract(options: ExtractOptions): Promise<ExtractSummary> {
  // One writer per output folder at a time (update --watch, a one-shot update and the server's
  // catch-up may meet there).
  const outDir = resolve(options.outDir ?? join(resolve(options.root), OUTPUT_DIR_NAME));
  const lock = await lockOutDir(outDir);
  try {
    return await extractOnce({ ...options, outDir });
  } catch (err) {
    // Outputs may be half-way between two runs: the next run reads them from disk again.
    options.resident?.clear();
    throw err;
  } finally {
    lock.release();
  }
}

async function extractOnce(options: ExtractOptions): Promise<ExtractSummary> {
  const t0 = performance.now();
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const c0 = cpu();
  const root = resolve(options.root);
  const outDir = resolve(options.outDir ?? join(root, OUTPUT_DIR_NAME));
  const version = extractorVersion();
  // The WASM core compiles off this thread while the walk and the parse run.
  const coreLoading = options.core !== undefined ? null : loadCore();
  const scanStarted = Date.now();

  // Folder listings of the previous walk: unchanged folders (same mtime) are not read again.
  const listingsFile = join(outDir, LISTINGS_FILE);
  const resident = options.resident;
  const saved = options.incremental ? readKept(resident, listingsFile, () => loadListings(listingsFile)) : null;
  const { walk, listings } = walkWith(root, outDir, options.maxFileSize, saved);
  const saveListings = (): void => {
    if (!listings.changed && saved) return;
    try {
      mkdirSync(outDir, { recursive: true });
      writeAtomic(listingsFile, encodeListings(scanStarted, listings.next));
      resident?.wrote(listingsFile, { scannedAtMs: scanStarted, listings: listings.next });
    } catch {
      // only a cache: the next walk reads every folder
    }
  };
  const tWalk = performance.now();
  const cWalk = cpu();

  // Files whose size and mtime match the previous manifest are reused without reading them; their
  // cached facts are loaded only if the graph must be relinked.
  const previous = options.incremental ? loadPreviousManifest(outDir, version, resident) : null;
  const entries = new Map<string, CacheEntry>();
  const reusedMeta = new Map<string, ManifestEntry>();
  const tasks: FileTask[] = [];
  let reused = 0;
  for (const f of walk.files) {
    const prevMeta = previous?.files[f.path];
    if (prevMeta && prevMeta.size === f.size && prevMeta.mtime_ms === f.mtimeMs && f.mtimeMs < previous!.scanned_at_ms - RACY_MS) {
      reusedMeta.set(f.path, prevMeta);
      reused++;
      continue;
    }
    tasks.push({ path: f.path, abs: f.abs, language: f.language, size: f.size, ...(prevMeta ? { knownHash: prevMeta.hash } : {}) });
  }
  const poolOptions = {
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.onProgress ? { onProgress: (done: number, total: number, bytes: number) => options.onProgress!({ done, total, bytes }) } : {}),
  };
  let parsed = 0;
  let linesParsed = 0;
  const take = (results: FileResult[]): void => {
    for (const r of results) {
      if (r.unchanged) {
        reusedMeta.set(r.path, previous!.files[r.path]!);
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
  };
  take(tasks.length ? await processFiles(tasks, poolOptions) : []);
  const tParse = performance.now();
  const cParse = cpu();

  const contextTexts: Record<string, string> = {};
  for (const rel of walk.contextFiles) {
    try {
      contextTexts[rel] = readFileSync(join(root, rel), 'utf8');
    } catch {
      // vanished since the walk: ignore
    }
  }
  const byPath = [...entries.keys(), ...reusedMeta.keys()].sort();
  const walkedByPath = new Map<string, WalkedFile>(walk.files.map((f) => [f.path, f]));
  const statusOf = (path: string): ManifestEntry['status'] => {
    const e = entries.get(path);
    return e ? (e.skip ? 'skipped' : e.facts ? 'ok' : 'failed') : reusedMeta.get(path)!.status;
  };
  const hashOf = (path: string): string => entries.get(path)?.hash ?? reusedMeta.get(path)!.hash;
  const commit = readHeadCommit(root);
  const loaded = options.core !== undefined ? { core: options.core, engine: null } : await coreLoading!;
  const core = loaded.core;
  const seed = options.seed ?? 42;
  const outputs = {
    graphJson: join(outDir, 'graph.json'),
    graphCbor: join(outDir, 'graph.cbor'),
    manifest: join(outDir, '.manifest.json'),
    report: join(outDir, 'GRAPH_REPORT.md'),
    factsCache: join(outDir, FACTS_DIR),
  };
  const writeManifest = (manifest: Manifest): void => {
    writeAtomic(outputs.manifest, stringifyManifest(manifest));
    resident?.wrote(outputs.manifest, manifest);
  };
  const manifestFiles: Record<string, ManifestEntry> = {};
  const languages: Record<string, number> = {};
  for (const path of byPath) {
    const w = walkedByPath.get(path)!;
    const status = statusOf(path);
    manifestFiles[path] = { hash: hashOf(path), size: w.size, mtime_ms: w.mtimeMs, language: w.language, status };
    if (status === 'ok') languages[w.language] = (languages[w.language] ?? 0) + 1;
  }
  const inputsHash = hashInputs(version, seed, core ? 'core' : 'ts', commit, manifestFiles, walk.skipped, contextTexts);
  const prevFiles = previous?.files ?? {};
  let added = 0;
  let changed = 0;
  for (const path of byPath) {
    const before = prevFiles[path];
    if (!before) added++;
    else if (before.hash !== manifestFiles[path]!.hash) changed++;
  }
  const deleted = Object.keys(prevFiles).filter((p) => !manifestFiles[p]).length;

  // Same inputs as the previous run (e.g. files touched but not changed): the outputs stand; only the
  // manifest's sizes and mtimes are refreshed, and no cached facts are even read.
  const prevStats = previous?.stats;
  if (previous && prevStats && typeof prevStats.lines === 'number' && previous.inputs_hash === inputsHash
    && [outputs.graphJson, outputs.graphCbor, outputs.report].every((f) => existsSync(f))) {
    writeManifest({ ...previous, scanned_at_ms: scanStarted, files: manifestFiles });
    saveListings();
    const tEnd = performance.now();
    const cEnd = cpu();
    return {
      mode: 'update', root, outDir, files: byPath.length, parsed, reused, added, changed, deleted,
      failed: prevStats.failed, skipped: prevStats.skipped, nodes: prevStats.nodes, links: prevStats.links,
      communities: prevStats.communities, linesParsed, lines: prevStats.lines, languages: sortedRecord(languages), linkMode: 'reused', relinked: 0,
      timingsMs: { walk: Math.round(tWalk - t0), parse: Math.round(tParse - tWalk), link: 0, communities: 0, write: Math.round(tEnd - tParse), total: Math.round(tEnd - t0) },
      cpuMs: { walk: Math.round(cWalk - c0), parse: Math.round(cParse - cWalk), link: 0, communities: 0, write: Math.round(cEnd - cParse), total: Math.round(cEnd - c0) },
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      processCpuMs: Math.round(cEnd),
      outputs,
    };
  }

  options.onPhase?.('linking');
  // SYNAPTIC_DEBUG=steps: wall time of each step from here on, on stderr (where an update spends its time).
  const step = stepTimer(process.env.SYNAPTIC_DEBUG === 'steps');
  /** Set when the previous graph is read from disk below. */
  const decoded: DecodedMemo = {};
  // A few files edited in positions only: move their positions in the previous graph, no relink.
  const shifted = previous && added === 0 && deleted === 0 && entries.size > 0 && reusedMeta.size > 0
    ? shiftEditedPositions({ outDir, version, previous, entries, manifestFiles, root, commit, languages, resident, decoded, inputsMatch: (files) =>
      hashInputs(version, seed, core ? 'core' : 'ts', commit, files, walk.skipped, contextTexts) === previous.inputs_hash })
    : null;
  let prevCache: Record<string, CacheEntry> | null = null;
  let deps: LinkDeps | null = null;
  let relinked = 0;
  let linkCacheId: string | null = null;
  let incrementalLink = false;
  /** Which graph.json records equal a previous one (index in the previous text, -1: new), before communities. */
  let reuse: { nodes: Int32Array; links: Int32Array; previousCommunity: (number | undefined)[] } | null = null;
  const redo: FileTask[] = [];
  let failed: Record<string, string> = {};
  let skippedCount = 0;
  let lines = 0;
  let doc: GraphDocument;
  let meta: GraphMeta;
  if (shifted) {
    doc = shifted.doc;
    meta = doc.graph;
    failed = meta.failed_files ?? {};
    skippedCount = Object.keys(meta.skipped_files ?? {}).length;
    lines = shifted.lines;
    const nodes = identityRows(doc.nodes.length);
    const links = identityRows(doc.links.length);
    for (const i of shifted.touched.nodes) nodes[i] = -1;
    for (const j of shifted.touched.links) links[j] = -1;
    reuse = { nodes, links, previousCommunity: shifted.previousCommunity };
    linkCacheId = readGraphState(outDir)?.link_cache ?? null; // same facts but positions: same link dependencies
  } else {
    const changedPaths = [...entries.keys()];
    // Relink: bring in the cached facts of reused files (re-parsing any the cache cannot vouch for).
    prevCache = reusedMeta.size ? loadFactsCache(outDir, version, resident) : null;
    step('load facts cache');
    for (const [path, meta] of reusedMeta) {
      const cached = prevCache?.[path];
      if (cached && cached.hash === meta.hash) entries.set(path, cached);
      else {
        const w = walkedByPath.get(path)!;
        redo.push({ path, abs: w.abs, language: w.language, size: w.size });
        reused--;
      }
    }
    if (redo.length) {
      reusedMeta.clear();
      take(await processFiles(redo, poolOptions));
      for (const path of byPath) {
        const e = entries.get(path)!;
        manifestFiles[path] = { ...manifestFiles[path]!, hash: e.hash, status: e.skip ? 'skipped' : e.facts ? 'ok' : 'failed' };
      }
    }
    const facts: FileFacts[] = [];
    const skipped: Record<string, string> = { ...walk.skipped };
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
      const syntax = (e.facts as FileFacts & { syntaxErrors?: { line: number }[] }).syntaxErrors;
      if (Array.isArray(syntax) && syntax.length && failed[path] === undefined) {
        failed[path] = `syntax error at line ${syntax[0]!.line} (partially extracted)`;
      }
    }
    const context = buildProjectContext(contextTexts);
    step('collect facts');
    const incremental = previous && added === 0 && deleted === 0 && redo.length === 0 && changedPaths.length > 0
      ? relinkChanged({
        outDir, version, previous, prevCache, entries, changedPaths, manifestFiles, facts, context, resident, decoded, inputsMatch: (files) =>
          hashInputs(version, seed, core ? 'core' : 'ts', commit, files, walk.skipped, contextTexts) === previous.inputs_hash,
      })
      : null;
    const linked = incremental ?? linkGraph(facts, context);
    step(incremental ? 'relink' : 'link');
    deps = linked.deps;
    relinked = incremental ? incremental.relinked : facts.length;
    incrementalLink = incremental !== null;
    meta = {
      name: basename(root),
      extractor_version: version,
      languages: sortedRecord(languages),
      failed_files: sortedRecord(failed),
      skipped_files: sortedRecord(skipped),
      hazards: [...linked.hazards].sort(hazardOrder),
      unresolved_calls: sortedRecord(linked.unresolvedCalls),
    };
    doc = {
      directed: true,
      multigraph: true,
      graph: meta,
      nodes: incremental ? keptNodes(incremental, new Set(changedPaths)) : linked.nodes.map((n: GraphNode) => definedCopy(n)),
      // Relinked links come merged in canonical order: the previous graph's objects and fresh ones.
      links: incremental ? linked.links : linked.links.map((l: GraphLink) => definedCopy(l)),
      hyperedges: [],
      built_at_commit: commit,
    };
    skippedCount = Object.keys(skipped).length;
    if (incremental) {
      doc.nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const changedFiles = new Set(changedPaths);
      // graph.json lines to copy: links taken from the previous graph, nodes of unchanged files
      // (checked again for their community once it is known). Both node lists are in id order: one
      // walk pairs them (an id it does not find is simply serialized again).
      const prevNodes = incremental.previousNodes;
      let p = 0;
      const sameNode = (n: GraphNode): number => {
        while (p < prevNodes.length && prevNodes[p]!.id < n.id) p++;
        return p < prevNodes.length && prevNodes[p]!.id === n.id ? p : -1;
      };
      const nodeFrom = new Int32Array(doc.nodes.length);
      for (let i = 0; i < nodeFrom.length; i++) {
        const n = doc.nodes[i]!;
        const at = sameNode(n);
        nodeFrom[i] = n.kind === 'package' || changedFiles.has(n.source_file) ? -1 : at;
      }
      reuse = {
        nodes: nodeFrom,
        links: incremental.linkFrom,
        previousCommunity: incremental.previousNodes.map((n) => n.community),
      };
    } else sortGraph(doc);
  }
  step('graph document');
  const tLink = performance.now();
  const cLink = cpu();

  options.onPhase?.('communities');
  const indexed = indexGraph(doc);
  // Leiden and betweenness depend only on the structural edge arrays, the seed and the engine: an
  // update whose edits leave those arrays as they were reuses the previous results (exact).
  const structural = structuralEdges(indexed);
  step('index');
  const samples = indexed.nodes.length > 20000 ? 64 : 256;
  // Only with a core binary known by its hash (a rebuilt core may partition differently).
  const communityKey = loaded.engine ? communityCacheKey(structural, seed, samples, loaded.engine) : null;
  const cachedCommunities = previous && communityKey ? loadCommunityCache(outDir, communityKey) : null;
  // A positions-only update with the cached partition: nodes, files and partition are the previous
  // graph's, so are its community labels (their name tokens are not counted again).
  const previousLabels = shifted && cachedCommunities ? doc.graph.community_labels : undefined;
  const communities = assignCommunities(doc, {
    indexed, seed, core, ...(cachedCommunities ? { partition: cachedCommunities.partition } : {}), ...(previousLabels ? { labels: previousLabels } : {}),
  });
  meta.community_algorithm = communities.algorithm;
  step(cachedCommunities ? 'communities (cached partition)' : 'communities');
  const betweenness = cachedCommunities?.betweenness ?? nodeBetweenness(structural, { samples, seed, core });
  step(cachedCommunities ? 'betweenness (cached)' : 'betweenness');
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
    inputs_hash: redo.length ? hashInputs(version, seed, core ? 'core' : 'ts', commit, manifestFiles, walk.skipped, contextTexts) : inputsHash,
    stats: {
      nodes: doc.nodes.length, links: doc.links.length, communities: communities.communities.length,
      failed: Object.keys(failed).length, skipped: skippedCount, lines,
    },
  };
  // The facts cache and manifest go first: graph.json's (then graph.cbor's) mtime marks a complete run.
  if (shifted) writeFactsShards(outDir, version, shifted.shards, entries, resident);
  else writeFactsCache(outDir, version, byPath, entries, prevCache, resident);
  if (communityKey && !cachedCommunities) writeCommunityCache(outDir, communityKey, communities.rawMembership, communities.algorithm, betweenness);
  if (deps) {
    linkCacheId = manifest.inputs_hash!;
    writeLinkCache(outDir, linkCacheId, version, deps, resident);
  }
  writeManifest(manifest);
  step('facts, link cache, manifest');
  // An update copies the lines of records that did not change (content; the community number is
  // written anew) from the previous graph.json and serializes only the others: here, or on the
  // graph.json worker thread (resident updates) while this thread encodes graph.cbor and the report.
  let graphText: Uint8Array | null = null;
  let rendering: Promise<boolean> | null = null;
  const renderedTmp = `${outputs.graphJson}.tmp-${process.pid}-${Date.now()}-w`;
  if (reuse) {
    const { nodes, previousCommunity } = reuse;
    // Communities are numbered again after most edits: such nodes' lines are copied but for the number.
    const newCommunity = new Uint8Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) if (nodes[i]! >= 0 && previousCommunity[nodes[i]!] !== doc.nodes[i]!.community) newCommunity[i] = 1;
    try {
      if (options.graphText) {
        // The worker keeps the text it wrote last; else the file's bytes are moved to it (no longer
        // this process's copy: taken out of the resident outputs).
        const previousText = options.graphText.keeps(outputs.graphJson) ? null : takeKept(resident, outputs.graphJson, () => readFileSync(outputs.graphJson));
        rendering = options.graphText.render(graphTextJob(doc, previousText, renderedTmp, nodes, reuse.links, newCommunity)).catch((err: unknown) => {
          if (process.env.SYNAPTIC_DEBUG) console.error(`synaptic: ${err instanceof Error ? err.message : String(err)}`);
          return false;
        });
      } else graphText = reuseGraphText(readKept(resident, outputs.graphJson, () => readFileSync(outputs.graphJson)), doc, nodes, reuse.links, newCommunity);
    } catch {
      graphText = null;
    }
    if (!graphText && !rendering && process.env.SYNAPTIC_DEBUG) console.error('synaptic: graph.json lines not reusable: serializing in full');
  }
  let graphBytes: Uint8Array | null = rendering ? null : graphText ?? Buffer.from(stringifyGraph(doc));
  step(rendering ? 'graph.json (handed to its worker)' : graphText ? 'graph.json (lines reused)' : 'graph.json');
  // The big files go to their temp files off this thread (the I/O pool, or the graph.json worker)
  // while graph.cbor is encoded and the report rendered; then graph.json is renamed into place, and
  // graph.cbor right after it (a snapshot at least as new as graph.json is what readers take as fresh).
  let jsonWrite: StagedWrite | null = graphBytes ? stageAtomic(outputs.graphJson, graphBytes) : null;
  let cborWrite: StagedWrite | null = null;
  try {
    // indexGraph's endpoints stand for the id lookups when ids are unique and no link dangles.
    // The rows the update did not touch are copied from the previous graph.cbor's columns: those of a
    // resident process's last encode, or of the file just read.
    const fromDisk = reuse ? decodedMemo(decoded) : undefined;
    if (resident && fromDisk) resident.encodeMemo = fromDisk;
    const memo = fromDisk ?? resident?.encodeMemo;
    const snapshotBytes = encodeGraph(
      doc, indexed.danglingLinks === 0 && indexed.idOf.size === doc.nodes.length ? indexed : undefined,
      memo ? { memo, ...(reuse ? { nodeFrom: reuse.nodes, linkFrom: reuse.links } : {}) } : undefined,
    );
    cborWrite = stageAtomic(outputs.graphCbor, snapshotBytes);
    step('encode graph.cbor');
    writeAtomic(outputs.report, renderReport({ doc, indexed, communities: communities.communities, betweenness, algorithm: communities.algorithm }));
    step('report');
    const rendered = rendering ? await rendering : false;
    if (rendering) {
      if (rendered) jsonWrite = stagedRename(renderedTmp, outputs.graphJson);
      else jsonWrite = stageAtomic(outputs.graphJson, (graphBytes = Buffer.from(stringifyGraph(doc))));
      step('graph.json from its worker');
    }
    await jsonWrite!.commit();
    // The text is kept once: by the graph.json worker when it wrote it, else here.
    if (rendered) {
      options.graphText!.committed(outputs.graphJson);
      resident?.forget(outputs.graphJson);
    } else {
      options.graphText?.forget();
      resident?.wrote(outputs.graphJson, graphBytes);
    }
    await cborWrite.commit();
    resident?.wrote(outputs.graphCbor, doc);
  } catch (err) {
    await Promise.all([jsonWrite?.abort(), cborWrite?.abort()]);
    if (rendering) {
      await rendering; // it may still be writing its temp file
      await rm(renderedTmp, { force: true });
    }
    throw err;
  }
  writeGraphState(outDir, manifest.inputs_hash!, linkCacheId);
  saveListings();
  step('write graph.json, graph.cbor');
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
    skipped: skippedCount,
    nodes: doc.nodes.length,
    links: doc.links.length,
    communities: communities.communities.length,
    linesParsed,
    lines,
    languages: meta.languages!,
    linkMode: shifted ? 'positions' : incrementalLink ? 'incremental' : 'full',
    relinked,
    timingsMs: phaseMs(t0, tWalk, tParse, tLink, tCommunities, tWrite),
    cpuMs: phaseMs(c0, cWalk, cParse, cLink, cCommunities, cWrite),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    processCpuMs: Math.round(cpu()),
    outputs,
  };
}
