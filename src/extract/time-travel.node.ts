import type { Core } from '../core/index.ts';
import { diffGraphs, type GraphDiff } from '../graph/graph-diff.ts';
import { revisionGraph, revisionsDir, workingTreeGraph, type RevisionGraph } from './revision-cache.node.ts';
import { withRevisionTree } from './revision-memory.node.ts';
import { openRepo, resolveCommit, sweepWorktrees, type Repo } from './worktree.node.ts';

/**
 * time_travel_diff's engine: resolve both revisions, get each one's graph (cached per SHA, built in
 * a throwaway worktree otherwise; the working tree is the served graph), count commits per file
 * between them and diff the two graphs.
 */

export interface TimeTravelOptions {
  /** A folder inside the repository (the graph's root). */
  dir: string;
  /** The served output folder (synaptic-out/): the revision cache lives in it. */
  outDir: string;
  rev1: string;
  /** Undefined: the working tree, i.e. the served graph. */
  rev2?: string;
  core: Core;
  workers?: number;
}

export interface TimeTravelResult {
  rev1: { rev: string; sha: string; build: BuildNote };
  rev2: { rev: string; sha?: string; build?: BuildNote };
  diff: GraphDiff;
  /** Commits from rev1 to rev2 (to HEAD for the working tree). */
  commits: number;
  /** Wall ms of the call's steps (resolve, graphs, history, diff), for benchmarks. */
  steps: Record<string, number>;
}

/** How one side's graph was obtained, for the summary line. */
export interface BuildNote {
  how: RevisionGraph['how'];
  /** Held in memory (cached), or an update in place of the kept worktree's outputs. */
  kept?: true;
  from?: string;
  /** Files the build parsed. */
  parsed?: number;
  ms: number;
  /** Wall ms per step (RevisionGraph.steps), for benchmarks. */
  steps?: Record<string, number>;
}

function note(g: RevisionGraph): BuildNote {
  return { how: g.how, ...(g.kept ? { kept: true } : {}), ...(g.from ? { from: g.from } : {}), ...(g.parsed !== undefined ? { parsed: g.parsed } : {}), ms: Math.round(g.ms), ...(g.steps ? { steps: g.steps } : {}) };
}

/** Commits in `range` and, per file, how many of them touched it. */
function history(repo: Repo, from: string, to: string): { commits: number; perFile: Map<string, number> } {
  const perFile = new Map<string, number>();
  const r = repo.git(['log', '--format=%x00', '--name-only', '--no-renames', `${from}..${to}`, '--'], { timeoutMs: 30_000 });
  let commits = 0;
  for (const line of r.ok ? r.stdout.split('\n') : []) {
    if (line === '\0') commits++;
    else if (line) perFile.set(line, (perFile.get(line) ?? 0) + 1);
  }
  return { commits, perFile };
}

export async function timeTravel(options: TimeTravelOptions): Promise<TimeTravelResult> {
  const steps: Record<string, number> = {};
  let last = performance.now();
  const mark = (step: string) => {
    const now = performance.now();
    steps[step] = Math.round(now - last);
    last = now;
  };
  const repo = openRepo(options.dir);
  // A worktree a killed run left is removed even when every graph asked for is cached.
  sweepWorktrees(repo);
  const sha1 = resolveCommit(repo, options.rev1);
  const sha2 = options.rev2 === undefined ? undefined : resolveCommit(repo, options.rev2);
  mark('resolve');
  // Both revisions share one worktree (added only if one must be built, or the one the last call
  // kept): a build checks its commit out in place, so only the files that differ are written and
  // the rest keep their stat (revision-memory.node.ts).
  const [before, second] = await withRevisionTree(repo, revisionsDir(options.outDir), async (tree, outputs) => {
    const cache = { outDir: options.outDir, tree, ...(outputs ? { outputs } : {}), ...(options.workers !== undefined ? { workers: options.workers } : {}) };
    const first = await revisionGraph(repo, sha1, cache);
    return [first, sha2 === undefined ? await workingTreeGraph(repo, cache) : await revisionGraph(repo, sha2, cache)] as const;
  });
  mark('graphs');
  const { commits, perFile } = history(repo, sha1, sha2 ?? 'HEAD');
  mark('history');
  const diff = diffGraphs(options.core, before.doc, second.doc, perFile);
  mark('diff');
  return {
    rev1: { rev: options.rev1, sha: sha1, build: note(before) },
    rev2: { rev: options.rev2 ?? 'working tree', ...(sha2 ? { sha: sha2 } : {}), build: note(second) },
    diff,
    commits,
    steps,
  };
}
