/**
 * What one query_graph answer holds once its nodes are scored: a file's nodes past the second rank
 * a little lower, and an overloaded name takes one slot. Split from rank.ts, which scores the graph.
 * Browser-safe.
 */
import type { GraphIndex } from './graph-index.ts';
import type { RankedNode } from './rank.ts';

/**
 * An answer's nodes past the first FILE_FREE of one file score FILE_REPEAT times less for each one
 * before them: five functions of one file (a shell's completion generators) crowd out the code in
 * other files that does the work.
 */
const FILE_FREE = 2;
const FILE_REPEAT = 0.9;

/** Lower the scores of a file's nodes past its first FILE_FREE (in score order); `selected` is sorted. */
export function spreadAcrossFiles(ix: GraphIndex, selected: RankedNode[]): void {
  selected.sort((a, b) => b.score - a.score || a.depth - b.depth || a.node - b.node);
  const perFile = new Map<string, number>();
  for (const r of selected) {
    const file = String(ix.node(r.node).source_file ?? '');
    const k = perFile.get(file) ?? 0;
    perFile.set(file, k + 1);
    if (k >= FILE_FREE) r.score *= FILE_REPEAT ** (k - FILE_FREE + 1);
  }
}

/**
 * Keep one node per (file, label): the overloads of a method (`parseBody`, `parseBody~2`, ...) say
 * the same thing to a reader, and each took a slot of the answer.
 */
export function dropOverloadRepeats(ix: GraphIndex, selected: RankedNode[]): void {
  const kept = new Map<string, RankedNode>();
  let w = 0;
  for (const r of selected) {
    const key = `${String(ix.node(r.node).source_file ?? '')}\0${ix.label(r.node)}`;
    const first = kept.get(key);
    if (first) {
      // The slot keeps the best score and names the first declaration (`parseBody`, not `parseBody~3`).
      if (OVERLOAD_SUFFIX.test(ix.node(first.node).id) && !OVERLOAD_SUFFIX.test(ix.node(r.node).id)) first.node = r.node;
      continue;
    }
    kept.set(key, r);
    selected[w++] = r;
  }
  selected.length = w;
}

const OVERLOAD_SUFFIX = /~\d+$/;
