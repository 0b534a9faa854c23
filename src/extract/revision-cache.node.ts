import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgetDiffIndex } from '../graph/graph-diff.ts';
import { parseGraphBytes } from '../graph/load.node.ts';
import { parseManifest, stringifyManifest } from '../graph/manifest.ts';
import type { GraphDocument } from '../graph/model.ts';
import { outputPaths } from './git-changes.node.ts';
import { LOCK_FILE } from './out/lock.node.ts';
import { runExtract, type ExtractSummary } from './pipeline.node.ts';
import { forgetGraph, recallGraph, rememberGraph, type TreeOutputs } from './revision-memory.node.ts';
import { withWorktree, type Repo, type SharedWorktree } from './worktree.node.ts';

/**
 * Graphs of past commits, cached per commit SHA in <outputs>/.revisions/<sha>/ (an output folder
 * like synaptic-out/ itself). A commit not cached yet is checked out into a throwaway worktree and
 * built as an update of its nearest cached neighbour (a copy of that folder: only files whose bytes
 * differ are parsed), or of the served outputs; a full extract only when there is neither.
 */

export const REVISIONS_DIR = '.revisions';
/** The working tree's own build, next to the per-SHA ones. */
const WORKING_DIR = 'working';
/** Cached revisions kept; the least recently used go first. */
const KEEP = 8;

export interface RevisionGraph {
  sha: string;
  doc: GraphDocument;
  /** cached: read from the cache; update: built from `from`; full: extracted from scratch. */
  how: 'cached' | 'update' | 'full';
  /** A cached graph this process still held (not read again), or an update of the kept worktree's outputs in place. */
  kept?: true;
  /** The neighbour an update started from (a SHA, or 'served outputs'). */
  from?: string;
  /** Files that differ between the neighbour and this commit. */
  distance?: number;
  ms: number;
  /** Files parsed by the build (the rest were reused from the neighbour). */
  parsed?: number;
  reused?: number;
  /** The build's phases (ms) and how it linked, for benchmarks. */
  phases?: ExtractSummary['timingsMs'];
  /** Wall ms of each step of getting this graph (neighbour, seed, checkout, stamps, extract, read), for benchmarks. */
  steps?: Record<string, number>;
  linkMode?: ExtractSummary['linkMode'];
}

export interface RevisionCacheOptions {
  /** The served output folder (synaptic-out/): the cache lives inside it, and it is a neighbour of the working tree. */
  outDir: string;
  /** Parse lanes for builds (tests pin this). */
  workers?: number;
  /** A worktree shared by the builds of one call (checked out from commit to commit); default: one per build. */
  tree?: SharedWorktree;
  /** With `tree`: the outputs of its last build, kept between calls (revision-memory.node.ts); builds happen there. */
  outputs?: TreeOutputs;
}

function readGraph(dir: string): GraphDocument {
  const path = join(dir, 'graph.json');
  return parseGraphBytes(readFileSync(path), path);
}

function cachedShas(cacheDir: string): string[] {
  if (!existsSync(cacheDir)) return [];
  return readdirSync(cacheDir).filter((name) => /^[0-9a-f]{40,64}$/.test(name) && existsSync(join(cacheDir, name, 'graph.json')));
}

/** Files that differ between two trees (`to` undefined: the working tree), or Infinity when git cannot say. */
function filesBetween(repo: Repo, from: string, to: string | undefined): number {
  const r = repo.git(['diff', '--name-only', '--no-renames', from, ...(to ? [to] : []), '--'], { timeoutMs: 30_000 });
  return r.ok ? r.stdout.split('\n').filter(Boolean).length : Infinity;
}

/** Drops the least recently used revisions past KEEP. */
function evict(cacheDir: string): void {
  const entries = cachedShas(cacheDir).map((sha) => ({ sha, used: statSync(join(cacheDir, sha)).mtimeMs })).sort((a, b) => b.used - a.used);
  for (const { sha } of entries.slice(KEEP)) rmSync(join(cacheDir, sha), { recursive: true, force: true });
}

/** Copies an output folder's reusable state (not its cache of revisions, not a lock). */
function seedFrom(neighbour: string, into: string): void {
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(neighbour)) {
    if (name === REVISIONS_DIR || name === LOCK_FILE || name.includes('.tmp')) continue;
    cpSync(join(neighbour, name), join(into, name), { recursive: true });
  }
}

/** Paths that differ between a commit and the working tree, untracked files included (undefined when git cannot say). */
function changedSinceWorkingTree(repo: Repo, sha: string): Set<string> | undefined {
  const diff = repo.git(['diff', '--name-only', '--no-renames', sha, '--'], { timeoutMs: 30_000 });
  const untracked = repo.git(['ls-files', '--others', '--exclude-standard'], { timeoutMs: 30_000 });
  if (!diff.ok || !untracked.ok) return undefined;
  return new Set([...diff.stdout.split('\n'), ...untracked.stdout.split('\n')].filter(Boolean));
}

/**
 * Gives the worktree's files that git says are identical to the neighbour's an old mtime and
 * records their exact stat (size, mtime) in the seeded manifest, so the update reuses them by a
 * stat (as `synaptic update` does in place) instead of reading and hashing every file of a fresh
 * checkout. (Setting the manifest's own mtime on the file does not work: utimes takes a double of
 * seconds or a Date, so a nanosecond mtime never comes back equal.) For the served outputs a file
 * is carried only while the working tree still has the stamp the manifest recorded (an edit since
 * the served extract is parsed anew). Returns how many files were carried.
 */
function carryStamps(repo: Repo, neighbour: { dir: string; label: string }, sha: string, seed: string, worktree: string): number {
  const manifestFile = join(seed, '.manifest.json');
  const manifest = parseManifest(readFileSync(manifestFile, 'utf8'));
  if (!manifest) return 0;
  const served = neighbour.label === 'served outputs';
  const changed = served ? changedSinceWorkingTree(repo, sha) : diffNames(repo, neighbour.label, sha);
  if (!changed) return 0;
  // Well before the seeded scan, so the update's racy-mtime guard trusts the stat.
  const when = new Date(Math.floor(manifest.scanned_at_ms) - 60_000);
  let carried = 0;
  for (const [path, entry] of Object.entries(manifest.files)) {
    if (changed.has(path)) continue;
    const file = join(worktree, path);
    try {
      const st = statSync(file);
      if (st.size !== entry.size || !st.isFile()) continue;
      if (served) {
        const live = statSync(join(repo.root, path));
        if (live.size !== entry.size || live.mtimeMs !== entry.mtime_ms) continue;
      }
      utimesSync(file, when, when);
      entry.mtime_ms = statSync(file).mtimeMs;
      carried++;
    } catch {
      // not in this commit (or not readable): the walk decides
    }
  }
  if (carried) {
    const tmp = `${manifestFile}.carry-${process.pid}`;
    writeFileSync(tmp, stringifyManifest(manifest));
    renameSync(tmp, manifestFile);
  }
  return carried;
}

/** The served outputs describe the working tree as it is: no untracked file, every file the stamp its manifest recorded. */
function servedIsFresh(repo: Repo, outDir: string): boolean {
  const untracked = repo.git(['ls-files', '--others', '--exclude-standard'], { timeoutMs: 30_000 });
  if (!untracked.ok) return false;
  const files = untracked.stdout.split('\n').filter(Boolean);
  const outputs = new Set(outputPaths(repo.root, files));
  if (files.some((f) => !outputs.has(f))) return false;
  const manifest = parseManifest(readFileSync(join(outDir, '.manifest.json'), 'utf8'));
  if (!manifest) return false;
  for (const [path, entry] of Object.entries(manifest.files)) {
    try {
      const st = statSync(join(repo.root, path));
      if (st.size !== entry.size || st.mtimeMs !== entry.mtime_ms) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function diffNames(repo: Repo, from: string, to: string): Set<string> | undefined {
  const r = repo.git(['diff', '--name-only', '--no-renames', from, to, '--'], { timeoutMs: 30_000 });
  return r.ok ? new Set(r.stdout.split('\n').filter(Boolean)) : undefined;
}

/** Wall ms per step, in order. */
function stepClock(): { steps: Record<string, number>; mark(step: string): void } {
  const steps: Record<string, number> = {};
  let last = performance.now();
  return {
    steps,
    mark(step) {
      const now = performance.now();
      steps[step] = Math.round((steps[step] ?? 0) + now - last);
      last = now;
    },
  };
}

/** The graph of commit `sha`, from the cache or built (see the module comment). */
export async function revisionGraph(repo: Repo, sha: string, options: RevisionCacheOptions): Promise<RevisionGraph> {
  const started = performance.now();
  const clock = stepClock();
  const cacheDir = join(options.outDir, REVISIONS_DIR);
  const hit = join(cacheDir, sha);
  if (existsSync(join(hit, 'graph.json'))) {
    const now = new Date();
    utimesSync(hit, now, now);
    const held = recallGraph(hit);
    const doc = held ?? readGraph(hit);
    if (!held) rememberGraph(hit, doc);
    clock.mark(held ? 'memory' : 'read');
    options.outputs?.holding.add(doc);
    return { sha, doc, how: 'cached', ...(held ? { kept: true as const } : {}), ms: performance.now() - started, steps: clock.steps };
  }
  // The nearest neighbour by files that differ: a cached commit, or the served outputs (the working tree).
  let best: { dir: string; label: string; distance: number; inPlace?: true } | undefined;
  for (const other of cachedShas(cacheDir)) {
    const distance = filesBetween(repo, other, sha);
    if (!best || distance < best.distance) best = { dir: join(cacheDir, other), label: other, distance };
  }
  if (existsSync(join(options.outDir, '.manifest.json'))) {
    const distance = filesBetween(repo, sha, undefined);
    if (!best || distance < best.distance) best = { dir: options.outDir, label: 'served outputs', distance };
  }
  // The kept worktree's last build, at no more files than the nearest: updated in place.
  const kept = options.tree ? options.outputs : undefined;
  if (kept?.sha && existsSync(join(kept.dir, '.manifest.json'))) {
    const distance = kept.sha === best?.label ? best.distance : filesBetween(repo, kept.sha, sha);
    if (!best || distance <= best.distance) best = { dir: kept.dir, label: kept.sha, distance, inPlace: true };
  }
  clock.mark('neighbour');
  mkdirSync(cacheDir, { recursive: true });
  const building = join(cacheDir, `.building-${sha}-${process.pid}-${Date.now()}`);
  // The same tree as the neighbour (a cached commit, or fresh served outputs of a clean working tree):
  // its outputs are this commit's graph as they are; nothing is checked out or extracted.
  if (best && best.distance === 0 && (best.label !== 'served outputs' || servedIsFresh(repo, options.outDir))) {
    try {
      seedFrom(best.dir, building);
      if (!existsSync(join(hit, 'graph.json'))) renameSync(building, hit);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
    evict(cacheDir);
    clock.mark('copy');
    const doc = readGraph(hit);
    rememberGraph(hit, doc);
    options.outputs?.holding.add(doc);
    clock.mark('read');
    return { sha, doc, how: 'update', from: best.label, distance: 0, parsed: 0, reused: 0, ms: performance.now() - started, steps: clock.steps };
  }
  if (kept && options.tree) return buildInTree(repo, sha, options.tree, kept, best, { hit, building, cacheDir, workers: options.workers, started, clock });
  let summary: ExtractSummary;
  const build = async (dir: string): Promise<ExtractSummary> => {
    clock.mark('checkout');
    if (best) carryStamps(repo, best, sha, building, dir);
    clock.mark('stamps');
    const s = await runExtract({ root: dir, outDir: building, incremental: best !== undefined, ...(options.workers !== undefined ? { workers: options.workers } : {}) });
    clock.mark('extract');
    return s;
  };
  try {
    if (best) seedFrom(best.dir, building);
    clock.mark('seed');
    summary = options.tree ? await build(options.tree.at(sha)) : await withWorktree(repo, sha, build);
    // Another call may have built it meanwhile: theirs is as good as ours.
    if (!existsSync(join(hit, 'graph.json'))) {
      rmSync(hit, { recursive: true, force: true });
      renameSync(building, hit);
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  evict(cacheDir);
  clock.mark('cleanup');
  const doc = readGraph(hit);
  rememberGraph(hit, doc);
  clock.mark('read');
  const counts = { parsed: summary.parsed, reused: summary.reused, ms: performance.now() - started, phases: summary.timingsMs, linkMode: summary.linkMode, steps: clock.steps };
  return best ? { sha, doc, how: 'update', from: best.label, distance: best.distance, ...counts } : { sha, doc, how: 'full', ...counts };
}

interface BuildPlace {
  hit: string;
  building: string;
  cacheDir: string;
  workers: number | undefined;
  started: number;
  clock: ReturnType<typeof stepClock>;
}

/**
 * Builds `sha` in the kept worktree's outputs (revision-memory.node.ts): in place when they are the
 * nearest neighbour (the checkout rewrites only the files that differ, the rest keep the stat those
 * outputs recorded, and the update reads the unchanged state from memory), else after seeding them
 * from the nearest neighbour; then copies them into the cache. The graph comes from memory too.
 */
async function buildInTree(repo: Repo, sha: string, tree: SharedWorktree, out: TreeOutputs, best: { dir: string; label: string; distance: number; inPlace?: true } | undefined, place: BuildPlace): Promise<RevisionGraph> {
  const { clock, hit, building } = place;
  const graphCbor = join(out.dir, 'graph.cbor');
  if (best?.inPlace) {
    // The update takes the previous graph over and changes it: not a graph this call still holds
    // (then it is decoded from disk), nor one a later call would recall.
    const previous = out.kept.read<GraphDocument | null>(graphCbor, () => null);
    if (previous && out.holding.has(previous)) out.kept.take(graphCbor, () => null);
    else if (previous) {
      forgetGraph(previous);
      forgetDiffIndex(previous);
    }
  } else {
    out.kept.clear();
    rmSync(out.dir, { recursive: true, force: true });
    if (best) seedFrom(best.dir, out.dir);
  }
  out.sha = undefined;
  clock.mark('seed');
  let summary: ExtractSummary;
  try {
    const dir = tree.at(sha);
    clock.mark('checkout');
    if (best && !best.inPlace) carryStamps(repo, best, sha, out.dir, dir);
    clock.mark('stamps');
    summary = await runExtract({ root: dir, outDir: out.dir, incremental: best !== undefined, kept: out.kept, ...(place.workers !== undefined ? { workers: place.workers } : {}) });
    clock.mark('extract');
    out.sha = sha;
    try {
      seedFrom(out.dir, building);
      // Another call may have built it meanwhile: theirs is as good as ours.
      if (!existsSync(join(hit, 'graph.json'))) {
        rmSync(hit, { recursive: true, force: true });
        renameSync(building, hit);
      }
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
  } catch (err) {
    out.kept.clear();
    throw err;
  }
  evict(place.cacheDir);
  clock.mark('copy');
  const doc = out.kept.read<GraphDocument | null>(graphCbor, () => null) ?? readGraph(hit);
  rememberGraph(hit, doc);
  out.holding.add(doc);
  clock.mark('read');
  const counts = { parsed: summary.parsed, reused: summary.reused, ms: performance.now() - place.started, phases: summary.timingsMs, linkMode: summary.linkMode, steps: clock.steps };
  if (!best) return { sha, doc, how: 'full', ...counts };
  return { sha, doc, how: 'update', from: best.label, distance: best.distance, ...(best.inPlace ? { kept: true as const } : {}), ...counts };
}

/**
 * The graph of the working tree as it is now (uncommitted and untracked files included), without
 * touching the served outputs: <outputs>/.revisions/working/ is kept as an incremental update of the
 * repository root (seeded from the served outputs once; same root, so unchanged files are a stat).
 */
export async function workingTreeGraph(repo: Repo, options: RevisionCacheOptions): Promise<RevisionGraph & { sha: '' }> {
  const started = performance.now();
  const dir = join(options.outDir, REVISIONS_DIR, WORKING_DIR);
  if (!existsSync(join(dir, '.manifest.json')) && existsSync(join(options.outDir, '.manifest.json'))) {
    rmSync(dir, { recursive: true, force: true });
    seedFrom(options.outDir, dir);
  }
  const summary = await runExtract({ root: repo.root, outDir: dir, incremental: true, ...(options.workers !== undefined ? { workers: options.workers } : {}) });
  return { sha: '', doc: readGraph(dir), how: 'update', from: 'served outputs', parsed: summary.parsed, reused: summary.reused, ms: performance.now() - started };
}

/** The cache folder of an output folder (for messages and tests). */
export function revisionsDir(outDir: string): string {
  return join(outDir, REVISIONS_DIR);
}
