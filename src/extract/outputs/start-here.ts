import type { CommunityStats } from '../../graph/communities.ts';
import type { SymbolUse } from '../../graph/community-names.ts';
import { NAME_TIERS, USE_MASK } from '../../graph/community-names.ts';
import type { EdgeCsr, IndexedGraph } from '../../graph/indexed-graph.ts';
import { relationMask, type NodeId } from '../../graph/model.ts';

/**
 * "Start reading here" for GRAPH_REPORT.md: the handful of files and symbols a newcomer opens first.
 * Entry points (a file named like a module's front door, index / main / __init__ / mod / lib,
 * nearest the root, that imports or re-exports several files), then the most used public function,
 * class or method named in each of the largest communities with code, most used first. Browser-safe.
 */

/** File stems that conventionally open a module or program. */
const ENTRY_STEMS: ReadonlySet<string> = new Set(['index', 'main', '__init__', '__main__', 'mod', 'lib']);
const IMPORT_MASK = relationMask(['imports', 'imports_from', 're_exports']);
const RE_EXPORT_MASK = relationMask(['re_exports']);
const MAX_ENTRIES = 2;
/** An entry point imports or re-exports at least this many files. */
const MIN_FAN_OUT = 2;
export const MAX_ITEMS = 6;
/** A hub is listed when it is used from at least this many places in other files. */
const MIN_HUB_USES = 3;

export interface ReadingItem {
  node: NodeId;
  /** One line on why to open it (unsanitized names: the caller prints through its sanitizer). */
  why: string;
  /** For a symbol: the community it centers (the caller names it after `why`). */
  community?: CommunityStats;
}

function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function depthOf(path: string): number {
  let d = 0;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47) d++;
  return d;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Entry files and community hubs, at most MAX_ITEMS. */
export function startReading(
  ig: Pick<IndexedGraph, 'nodes' | 'src' | 'dst' | 'rel'>, csr: EdgeCsr, communities: readonly CommunityStats[], use: SymbolUse,
): ReadingItem[] {
  const { nodes } = ig;
  const { fileOf, test } = use;
  // Entry files: the files each entry-named file imports or re-exports from.
  const reached = new Map<NodeId, Set<number>>();
  const reExported = new Map<NodeId, Set<number>>();
  for (let v = 0; v < nodes.length; v++) {
    if (nodes[v]!.kind !== 'file' || test[v] || !ENTRY_STEMS.has(stemOf(String(nodes[v]!.id)))) continue;
    for (let k = csr.outOff[v]!; k < csr.outOff[v + 1]!; k++) {
      const e = csr.outEdges[k]!;
      if (((IMPORT_MASK >>> ig.rel[e]!) & 1) === 0) continue;
      const f = fileOf[ig.dst[e]!]!;
      if (f < 0 || f === fileOf[v]) continue;
      let set = reached.get(v);
      if (!set) reached.set(v, (set = new Set()));
      set.add(f);
      if ((RE_EXPORT_MASK >>> ig.rel[e]!) & 1) {
        let rx = reExported.get(v);
        if (!rx) reExported.set(v, (rx = new Set()));
        rx.add(f);
      }
    }
  }
  const entries = [...reached.entries()]
    .filter(([, files]) => files.size >= MIN_FAN_OUT)
    .sort(([a, fa], [b, fb]) => depthOf(String(nodes[a]!.id)) - depthOf(String(nodes[b]!.id)) || fb.size - fa.size || (nodes[a]!.id < nodes[b]!.id ? -1 : 1))
    .slice(0, MAX_ENTRIES);
  const items: ReadingItem[] = [];
  const listedFiles = new Set<number>();
  for (const [v, files] of entries) {
    const rx = reExported.get(v)?.size ?? 0;
    items.push({
      node: v,
      why: `entry point (${stemOf(String(nodes[v]!.id))} file near the root): imports from ${plural(files.size, 'file')}${rx ? `, re-exports from ${rx}` : ''}`,
    });
    listedFiles.add(fileOf[v]!);
  }

  // Community hubs: the first-named symbol of the largest communities with code (a community of
  // mostly tests is named by its code too), when it is used from elsewhere (tests count: a library's
  // front door is used by its tests and its users).
  const hubs: { v: NodeId; c: CommunityStats }[] = [];
  const bySize = [...communities].filter((c) => !c.testOnly && c.hubs.length).sort((a, b) => b.size - a.size || a.id - b.id);
  for (const c of bySize) {
    if (items.length + hubs.length >= MAX_ITEMS) break;
    // The community's most used public code (a type or an error says less where to start).
    const v = c.hubs.find((h) => use.tier[h] === NAME_TIERS.code);
    if (v === undefined || listedFiles.has(fileOf[v]!) || use.fromAny[v]! < MIN_HUB_USES) continue;
    listedFiles.add(fileOf[v]!);
    hubs.push({ v, c });
  }
  hubs.sort((a, b) => use.fromAny[b.v]! - use.fromAny[a.v]! || a.v - b.v);
  // The files each hub (or a member of it) is used from, for the line that says so (counted as
  // symbolUse counts: a use from the hub's own file is none).
  const slot = new Map(hubs.map((h, i) => [h.v, i]));
  const usedFrom = hubs.map(() => new Set<number>());
  const countUses = (target: NodeId, i: number): void => {
    const home = fileOf[hubs[i]!.v]!;
    for (let k = csr.inOff[target]!; k < csr.inOff[target + 1]!; k++) {
      const e = csr.inEdges[k]!;
      const s = ig.src[e]!;
      if ((USE_MASK >>> ig.rel[e]!) & 1 && fileOf[s] !== home) usedFrom[i]!.add(fileOf[s]!);
    }
  };
  hubs.forEach((h, i) => countUses(h.v, i));
  for (let v = 0; v < nodes.length; v++) {
    const i = use.owner[v]! >= 0 ? slot.get(use.owner[v]!) : undefined;
    if (i !== undefined) countUses(v, i);
  }
  hubs.forEach(({ v, c }, i) => {
    const files = [...usedFrom[i]!];
    const tests = files.filter((f) => use.testFile[f]).length;
    items.push({
      node: v,
      community: c,
      why: `${String(nodes[v]!.kind).replace(/_/g, ' ')} used from ${plural(use.fromAny[v]!, 'place')} in ${plural(files.length, 'other file')}${tests ? ` (${tests} of them tests)` : ''}; the most used code of community`,
    });
  });
  return items;
}
