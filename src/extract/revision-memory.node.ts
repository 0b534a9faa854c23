import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphDocument } from '../graph/model.ts';
import { fileStamp, KeptOutputs } from './out/kept.node.ts';
import { dropParked, removeAtExit, withSharedWorktree, type ParkedTree, type Repo, type SharedWorktree } from './worktree.node.ts';
import { alive } from './out/lock.node.ts';

/**
 * What time_travel_diff keeps in the process between calls, so that a call near the previous one
 * costs what differs:
 * - the graphs of the last revisions it read or built, by cache folder, while that folder's
 *   graph.json is still the file they came from (a cached revision is not parsed again);
 * - the worktree of the last build, parked between calls (worktree.node.ts), and that build's
 *   outputs in <outputs>/.revisions/.tree-<pid>/ with their decoded form (KeptOutputs, as a keeper
 *   keeps its own): a revision whose nearest neighbour is that build checks out only the files that
 *   differ and updates those outputs in place, reading the unchanged state from memory.
 * All of it is dropped after {@link IDLE_MS} without a call, and at exit. One call at a time uses
 * it; a concurrent call builds as before (its own worktree, outputs copied from the neighbour).
 */

/** Idle time after which the kept worktree, outputs and graphs are dropped. */
export const IDLE_MS = 3 * 60_000;
/** Graphs kept (a call reads two). */
const GRAPHS = 2;

const graphs = new Map<string, { stamp: string; doc: GraphDocument }>();

/** The graph read or built last time for the cache folder `folder`, if its graph.json is unchanged since. */
export function recallGraph(folder: string): GraphDocument | undefined {
  const entry = graphs.get(folder);
  if (!entry) return undefined;
  graphs.delete(folder);
  if (fileStamp(join(folder, 'graph.json')) !== entry.stamp) return undefined;
  graphs.set(folder, entry);
  return entry.doc;
}

/** Keeps `doc` as the graph of the cache folder `folder` (the least recently used past GRAPHS go). */
export function rememberGraph(folder: string, doc: GraphDocument): void {
  const stamp = fileStamp(join(folder, 'graph.json'));
  graphs.delete(folder);
  if (stamp === null) return;
  graphs.set(folder, { stamp, doc });
  for (const key of graphs.keys()) {
    if (graphs.size <= GRAPHS) break;
    graphs.delete(key);
  }
}

/** Drops `doc` wherever it is kept (an in-place update is about to change it). */
export function forgetGraph(doc: GraphDocument): void {
  for (const [key, entry] of graphs) if (entry.doc === doc) graphs.delete(key);
}

/** The outputs of the kept worktree's last build (see the module comment). */
export interface TreeOutputs {
  dir: string;
  /** The commit they describe, built from the worktree's files as they are now (undefined: none, or not usable). */
  sha?: string;
  kept: KeptOutputs;
  /** Graphs the current call still needs (an in-place update must not take them over). */
  holding: Set<GraphDocument>;
}

interface State {
  root: string;
  outDir: string;
  parked?: ParkedTree;
  outputs: TreeOutputs;
  timer?: NodeJS.Timeout;
  /** Takes the outputs folder off the exit/signal cleanup. */
  unhook: () => void;
}

let state: State | undefined;
let busy = false;

function start(repo: Repo, revisions: string): State {
  // Outputs a killed process kept.
  for (const name of existsSync(revisions) ? readdirSync(revisions) : []) {
    const m = /^\.tree-(\d+)$/.exec(name);
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(join(revisions, name), { recursive: true, force: true });
  }
  const dir = join(revisions, `.tree-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  return { root: repo.root, outDir: revisions, outputs: { dir, kept: new KeptOutputs(), holding: new Set() }, unhook: removeAtExit(dir) };
}

/** Drops everything kept (idle, another repository, tests). */
export function releaseRevisionMemory(): void {
  const s = state;
  state = undefined;
  graphs.clear();
  if (!s) return;
  clearTimeout(s.timer);
  if (s.parked) dropParked(s.parked, false);
  s.outputs.kept.clear();
  rmSync(s.outputs.dir, { recursive: true, force: true });
  s.unhook();
}

/**
 * Runs one time_travel_diff call's builds with the kept worktree and outputs of `revisions` (the
 * cache folder), parking the worktree afterwards when its files are what the kept outputs describe.
 */
export async function withRevisionTree<T>(repo: Repo, revisions: string, fn: (tree: SharedWorktree, outputs: TreeOutputs | undefined) => Promise<T>): Promise<T> {
  if (busy) return withSharedWorktree(repo, (tree) => fn(tree, undefined));
  busy = true;
  if (state && (state.root !== repo.root || state.outDir !== revisions)) releaseRevisionMemory();
  const s = (state ??= start(repo, revisions));
  clearTimeout(s.timer);
  const parked = s.parked;
  s.parked = undefined;
  try {
    return await withSharedWorktree(repo, (tree) => fn(tree, s.outputs), {
      ...(parked ? { parked } : {}),
      park: (current) => (s.outputs.sha !== undefined && s.outputs.sha === current ? current : undefined),
      onParked: (p) => {
        s.parked = p;
      },
    });
  } finally {
    s.outputs.holding.clear();
    // Outputs whose worktree is gone no longer match any files' stat: not a neighbour to update in place.
    if (!s.parked) s.outputs.sha = undefined;
    busy = false;
    if (state === s) s.timer = setTimeout(releaseRevisionMemory, IDLE_MS).unref();
  }
}
