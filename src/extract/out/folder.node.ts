import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { GraphDocument } from '../../graph/model.ts';
import { SHARD_FILE } from '../../graph/store/names.ts';
import { parseManifest, stringifyManifest, type Manifest } from '../../graph/manifest.ts';
import { decodeSnapshot, snapshotToDocument } from '../../graph/snapshot.ts';
import { EncodeMemo } from '../../graph/snapshot-encode.ts';
import { COMMUNITY_CACHE_FILE, FACTS_DIR } from '../facts-cache.node.ts';
import { LINK_CACHE_FILE } from '../link-cache.node.ts';
import { PRECISE_CACHE_FILE } from '../precise/cache.node.ts';
import { writeAtomic } from '../repo-files.node.ts';
import { loadListings, type DirListing } from '../walk.node.ts';
import { checkOutputFolder } from './check.node.ts';
import { crashPoint } from './crash-point.node.ts';
import { fileStamp, KeptOutputs } from './kept.node.ts';
import { alive, lockOutDir, type OutLock } from './lock.node.ts';
import { checkGraphCbor, checkGraphJson, type WrittenFile } from './verify.node.ts';

/**
 * The output folder (synaptic-out/): the one module that knows its file names, the order a run
 * writes them in, and what a folder caught between two runs means.
 *
 * | file | what | written |
 * |---|---|---|
 * | `.facts/NN.cbor` | per-file facts (the facts cache, 256 shards) | 1st: only changed shards |
 * | `.communities.cbor` | partition + betweenness under the hash of their inputs | 2nd |
 * | `.link.cbor` | what linking each file read (for the incremental relink) | 3rd |
 * | `.manifest.json` | per-file size, mtime, hash, status; the inputs hash; stats | 4th |
 * | `graph.json`, `graph.cbor` | the graph (NetworkX node-link; columnar snapshot) | 5th, renamed in this order |
 * | `GRAPH_REPORT.md` | the human report | with the graph (renamed just before graph.json) |
 * | `.graph-state.json` | the inputs hash (and link cache id) the graph on disk was built from; size, checksum and stamp of graph.json and graph.cbor | last |
 * | `.walk.cbor` | folder listings of the last walk (only a speed-up) | after the state |
 * | `graph.shard` | the shard store: the graph as indexed SQLite rows (docs/store.md; `--no-store`: none) | after everything else (store-phase): a failure there loses no graph |
 * | `.lock` | the pid of the run writing the folder | held for the run |
 *
 * Every file is replaced atomically (a temp file, then a rename), except the state file (one
 * in-place write of a fixed size, see {@link writeGraphState}). A run that dies part-way (a crash, a
 * kill -9) leaves the old or the new version of each file, and temp files the next run removes. The
 * state file, written last, is the commit record: it names the inputs the graph was built from and
 * what graph.json and graph.cbor were when renamed into place. So an update trusts the previous
 * graph (to keep it as it is, or for its shortcuts: positions-only update, incremental relink) only
 * when {@link checkGraph} finds the state matching the manifest and both files as recorded; else it
 * says why and links every file again (from the facts cache). A reader between two runs sees each
 * graph file whole: graph.cbor is used only when at least as new as graph.json and intact (its own
 * length and checksum). The caches carry their own version and keys and are only ever a speed-up.
 *
 * A keeper (a long-lived `update --watch` / `serve --watch`) passes its {@link KeptOutputs}: reads
 * then come from memory while the file on disk is the one that was kept.
 */
export class OutputFolder {
  readonly graphJson: string;
  readonly graphCbor: string;
  readonly manifestFile: string;
  readonly report: string;
  readonly listingsFile: string;
  readonly stateFile: string;
  readonly shard: string;

  constructor(readonly dir: string, readonly kept?: KeptOutputs) {
    this.graphJson = join(dir, 'graph.json');
    this.graphCbor = join(dir, 'graph.cbor');
    this.manifestFile = join(dir, '.manifest.json');
    this.report = join(dir, 'GRAPH_REPORT.md');
    this.listingsFile = join(dir, '.walk.cbor');
    this.stateFile = join(dir, GRAPH_STATE_FILE);
    this.shard = join(dir, SHARD_FILE);
  }

  /** A file of the folder by name (the caches name their own files). */
  path(name: string): string {
    return join(this.dir, name);
  }

  /** One writer per output folder at a time (see lock.node.ts); refused when the folder is not a real one of ours. */
  lock(): Promise<OutLock> {
    checkOutputFolder(this.dir);
    return lockOutDir(this.dir);
  }

  /**
   * Remove the temp files of our outputs that a run which died left behind (`<file>.tmp-<pid>-<ms>`
   * of a process that is gone, or of this one: its failed runs remove their own). Called holding the
   * lock; returns how many were removed.
   */
  removeStaleTemps(): number {
    let removed = 0;
    for (const [dir, owned] of [[this.dir, (name: string) => OWN_FILES.has(name)], [join(this.dir, FACTS_DIR), (name: string) => name.endsWith('.cbor')]] as const) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const m = TEMP_NAME.exec(name);
        if (!m || !owned(m[1]!)) continue;
        const pid = Number(m[2]);
        if (pid !== process.pid && alive(pid)) continue;
        rmSync(join(dir, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** The decoded value of `path`: the keeper's copy while the file is unchanged, else `load()`. */
  read<T>(path: string, load: () => T): T {
    return this.kept ? this.kept.read(path, load) : load();
  }

  /** Like {@link read}, for a caller that changes the value: a keeper no longer keeps it. */
  take<T>(path: string, load: () => T): T {
    return this.kept ? this.kept.take(path, load) : load();
  }

  /** Replace `path` atomically with `bytes`; a keeper keeps `value` as its decoded form. */
  write(path: string, bytes: string | Uint8Array, value?: unknown): void {
    mkdirSync(this.dir, { recursive: true });
    writeAtomic(path, bytes);
    if (value !== undefined) this.kept?.wrote(path, value);
    this.placed(path);
  }

  /** `path` is in place (tests: see crash-point.node.ts). */
  placed(path: string): void {
    crashPoint(relative(this.dir, path));
  }

  /** Record `value` as the decoded form of `path`, just written by other means. */
  wrote(path: string, value: unknown): void {
    this.kept?.wrote(path, value);
  }

  /** After a failed run: the outputs may be half-way between two runs, so read them from disk again. */
  forgetAll(): void {
    this.kept?.clear();
  }

  /**
   * Why the graph on disk cannot stand for the previous run whose manifest has `inputsHash` (null:
   * it can): an output missing; a state that does not match the manifest (a run stopped between
   * writing its manifest and its state: the graph is older, or half of it is); no record to check
   * against (written by an older synaptic); graph.json or graph.cbor not as the run that wrote them
   * left them (see verify.node.ts). A stat per file when nothing happened to them.
   */
  checkGraph(inputsHash: string | undefined): string | null {
    const missing = [this.graphJson, this.graphCbor, this.report].filter((f) => !existsSync(f));
    if (missing.length) return `${missing.map((f) => basename(f)).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} missing`;
    const state = this.graphState();
    if (!inputsHash || state?.inputs_hash !== inputsHash) return 'a run stopped before it finished writing the outputs (.manifest.json is newer than the graph)';
    if (!state.graph_json || !state.graph_cbor) return 'the graph was written by an older synaptic (no checksums to check it by)';
    const json = checkGraphJson(this.graphJson, state.graph_json);
    if (json.problem !== null) return json.problem;
    const cbor = checkGraphCbor(this.graphCbor, state.graph_cbor);
    if (cbor.problem !== null) return cbor.problem;
    // Same bytes under a new stamp (a copied folder, a touch): record it, so the next check is a stat again.
    if (json.restamp || cbor.restamp) {
      this.writeState({ ...state, graph_json: { ...state.graph_json, stamp: fileStamp(this.graphJson) }, graph_cbor: { ...state.graph_cbor, stamp: fileStamp(this.graphCbor) } });
    }
    return null;
  }

  /** Why a manifest file exists but cannot be read (null: missing, readable, or of another extractor version). */
  manifestProblem(): string | null {
    let text: string;
    try {
      text = readFileSync(this.manifestFile, 'utf8');
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : `.manifest.json cannot be read (${(err as NodeJS.ErrnoException).code})`;
    }
    if (parseManifest(text)) return null;
    try {
      const value = JSON.parse(text) as { extractor_version?: unknown } | null;
      if (value && typeof value === 'object' && typeof value.extractor_version === 'string') return null;
    } catch {
      // not JSON: damaged
    }
    return '.manifest.json is damaged (not a manifest)';
  }

  /** The previous run's manifest when it exists and matches this extractor version. */
  manifest(version: string): Manifest | null {
    try {
      const manifest = this.read(this.manifestFile, () => parseManifest(readFileSync(this.manifestFile, 'utf8')));
      return manifest && manifest.extractor_version === version ? manifest : null;
    } catch {
      return null;
    }
  }

  writeManifest(manifest: Manifest): void {
    this.write(this.manifestFile, stringifyManifest(manifest), manifest);
  }

  /** Folder listings of the previous walk (see walk.node.ts ListingCache). */
  listings(): { scannedAtMs: number; listings: Map<string, DirListing> } | null {
    return this.read(this.listingsFile, () => loadListings(this.listingsFile));
  }

  /** The inputs hash (and link cache id) of the graph on disk; null when unknown. */
  graphState(): GraphState | null {
    try {
      return JSON.parse(readFileSync(this.stateFile, 'utf8')) as GraphState;
    } catch {
      return null;
    }
  }

  /**
   * Record which inputs (and which link cache) the graph now on disk was built from, and what
   * graph.json and graph.cbor are (size, checksum `sums`, stamp), last in a run: the commit record
   * the next run checks the folder by ({@link checkGraph}). A missing, stale or unreadable state sends
   * it down the full path. The file is rewritten in place by one write of a fixed size, not through a
   * temp file and a rename: right after graph.json and graph.cbor replaced their 60 MB, a rename over
   * the state file waited 30-40 ms for the file system's journal (ext4), while an in-place write of
   * allocated blocks does not. A process dying mid-run leaves the old state or a new one, never a torn
   * one (one write within one page).
   */
  writeGraphState(inputsHash: string, linkCache: string | null, sums: { json: { bytes: number; sum: number }; cbor: { bytes: number; sum: number } }): void {
    this.writeState({
      inputs_hash: inputsHash, ...(linkCache ? { link_cache: linkCache } : {}),
      graph_json: { ...sums.json, stamp: fileStamp(this.graphJson) },
      graph_cbor: { ...sums.cbor, stamp: fileStamp(this.graphCbor) },
    });
    this.placed(this.stateFile);
  }

  private writeState(state: GraphState): void {
    const text = JSON.stringify(state);
    if (Buffer.byteLength(text) >= GRAPH_STATE_BYTES) {
      writeAtomic(this.stateFile, text + '\n');
      return;
    }
    const bytes = Buffer.alloc(GRAPH_STATE_BYTES, 0x20);
    bytes.write(text);
    bytes[GRAPH_STATE_BYTES - 1] = 0x0a;
    let fd: number | undefined;
    try {
      fd = openSync(this.stateFile, 'r+');
      if (fstatSync(fd).size !== GRAPH_STATE_BYTES) throw new Error('not a fixed-size state file');
      writeSync(fd, bytes, 0, bytes.length, 0);
    } catch {
      // First run, or a file of another size (an older extractor): replaced once.
      writeAtomic(this.stateFile, bytes);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /**
   * The previous run's graph (graph.cbor) for the caller to change: a keeper hands over the one it
   * wrote. Read from disk, its columns can also become an encode memo (`decoded`), so the new
   * graph.cbor copies the rows the update keeps instead of encoding them again.
   */
  previousGraph(decoded: DecodedGraph): GraphDocument {
    return this.take(this.graphCbor, () => {
      const { doc, makeMemo } = readGraphSnapshot(this.graphCbor);
      decoded.make = makeMemo;
      return doc;
    });
  }

  /** The previous graph.json's bytes (an update copies the lines of records that did not change). */
  graphJsonBytes(): Uint8Array {
    return this.read(this.graphJson, () => readFileSync(this.graphJson));
  }

  /**
   * A keeper's idle time: load what its next update may read from disk, one file a step (the caller
   * runs a step per event-loop turn and stops when an update starts). After an update most of it is
   * kept already, and a step costs a stat.
   */
  *warm(version: string, steps: Iterable<void>): Generator<void, void, void> {
    if (!this.kept) return;
    this.manifest(version);
    this.listings();
    yield;
    yield* steps;
    if (existsSync(this.graphJson)) this.graphJsonBytes();
    yield;
    if (!existsSync(this.graphCbor)) return;
    const kept = this.kept;
    kept.read(this.graphCbor, () => {
      const { doc, makeMemo } = readGraphSnapshot(this.graphCbor);
      // The next update copies the rows it keeps from these columns (see previousGraph).
      kept.encodeMemo = makeMemo();
      return doc;
    });
  }
}

export interface GraphState {
  inputs_hash?: string;
  link_cache?: string;
  graph_json?: WrittenFile;
  graph_cbor?: WrittenFile;
}

/**
 * The previous graph as read from disk (see OutputFolder.previousGraph): its columns, made into an
 * encode memo only when the update goes on to copy rows from them (building one numbers every string).
 */
export interface DecodedGraph {
  make?: () => EncodeMemo;
  memo?: EncodeMemo;
}

export function decodedMemo(decoded: DecodedGraph): EncodeMemo | undefined {
  return (decoded.memo ??= decoded.make?.());
}

const GRAPH_STATE_FILE = '.graph-state.json';

/** The state file's fixed size: it is rewritten in place, padded with spaces (valid JSON). */
const GRAPH_STATE_BYTES = 512;

/** The output folder's own files (whose temp files a later run may remove). */
const OWN_FILES = new Set(['graph.json', 'graph.cbor', '.manifest.json', 'GRAPH_REPORT.md', GRAPH_STATE_FILE, '.walk.cbor', COMMUNITY_CACHE_FILE, LINK_CACHE_FILE, PRECISE_CACHE_FILE, SHARD_FILE]);

/** writeAtomic's and stageAtomic's temp names: `<file>.tmp-<pid>-<ms>`. */
const TEMP_NAME = /^(.+)\.tmp-(\d+)-\d+$/;

/** graph.cbor decoded, and how to make an encode memo of its columns (which numbers every string). */
function readGraphSnapshot(file: string): { doc: GraphDocument; makeMemo: () => EncodeMemo } {
  const snap = decodeSnapshot(readFileSync(file));
  const doc = snapshotToDocument(snap);
  // The rows as decoded (the caller may change the document's arrays before the memo is made).
  const rows = { nodes: doc.nodes.slice(), links: doc.links.slice() };
  return { doc, makeMemo: () => EncodeMemo.fromDecoded(snap, rows) };
}

export { KeptOutputs };
