import type { Core } from '../core/index.ts';
import type { GraphDocument, GraphNode } from './model.ts';

/**
 * How the code graph changed between two builds (time_travel_diff): nodes and edges added and
 * removed, module (file) dependencies added and removed, public APIs removed, drift between folders,
 * dependency cycles that are new (strongly connected components from the WASM core) and the files
 * that changed most. Pure: both graphs in, plain data out. Browser-safe.
 */

/** Relations that make one file depend on another. */
const DEPENDENCY_RELATIONS = new Set(['imports', 'imports_from', 're_exports']);

export interface FileDependency {
  from: string;
  to: string;
}

export interface RemovedApi {
  id: string;
  label: string;
  kind: string;
  file: string;
  /** Set when the symbol is still there with a narrower visibility (e.g. `internal`). */
  now?: string;
}

export interface Drift {
  /** Folder of the depending files, e.g. `src/adapter`. */
  from: string;
  to: string;
  before: number;
  after: number;
}

export interface Hotspot {
  file: string;
  /** Nodes and edges of this file added or removed. */
  changes: number;
  nodes_added: number;
  nodes_removed: number;
  edges_added: number;
  edges_removed: number;
  /** Commits between the two revisions that touched the file (when git history applies). */
  commits?: number;
}

export interface GraphDiff {
  nodes_added: number;
  nodes_removed: number;
  edges_added: number;
  edges_removed: number;
  files_added: string[];
  files_removed: string[];
  dependencies_added: FileDependency[];
  dependencies_removed: FileDependency[];
  removed_apis: RemovedApi[];
  drift: Drift[];
  /** Each new cycle's files, sorted; cycles sorted by size (largest first). */
  new_cycles: string[][];
  hotspots: Hotspot[];
}

function edgeKey(l: { source: string; relation: string; target: string }): string {
  return `${l.source}\0${l.relation}\0${l.target}`;
}

/** The folder a file belongs to for drift: its first two path segments (`src/adapter/bun/x.ts` -> `src/adapter`). */
export function folderOf(file: string): string {
  const parts = file.split('/');
  return parts.length <= 1 ? '.' : parts.slice(0, Math.min(2, parts.length - 1)).join('/');
}

interface Side {
  nodes: Map<string, GraphNode>;
  /** Edge key -> index in the document's links (no object per edge: prisma has ~10^5 of them). */
  edges: Map<string, number>;
  deps: Map<string, FileDependency>;
}

/**
 * Each graph's indexes, made once per document: time_travel_diff keeps the graphs of recent
 * revisions in memory (revision-memory.node.ts), so a call next to the last one indexes only the
 * side that is new. A caller that changes a document it diffed before calls {@link forgetDiffIndex}.
 */
const sides = new WeakMap<GraphDocument, Side>();

/** Drops the indexes of `doc` (it is about to be changed in place). */
export function forgetDiffIndex(doc: GraphDocument): void {
  sides.delete(doc);
}

function side(doc: GraphDocument): Side {
  let s = sides.get(doc);
  if (!s) sides.set(doc, (s = indexSide(doc)));
  return s;
}

function indexSide(doc: GraphDocument): Side {
  const nodes = new Map<string, GraphNode>();
  for (const n of doc.nodes) nodes.set(n.id, n);
  const edges = new Map<string, number>();
  const deps = new Map<string, FileDependency>();
  const links = doc.links;
  for (let i = 0; i < links.length; i++) {
    const l = links[i]!;
    edges.set(edgeKey(l), i);
    if (!DEPENDENCY_RELATIONS.has(l.relation)) continue;
    const from = nodes.get(l.source)?.source_file;
    const to = nodes.get(l.target)?.source_file;
    if (from && to && from !== to) {
      const key = `${from}\0${to}`;
      if (!deps.has(key)) deps.set(key, { from, to });
    }
  }
  return { nodes, edges, deps };
}

/** The file an edge belongs to: its own source_file, else its source node's. */
function edgeFile(doc: GraphDocument, s: Side, i: number): string {
  const l = doc.links[i]!;
  return l.source_file || s.nodes.get(l.source)?.source_file || '';
}

/** Strongly connected file sets (2+ files) of a dependency graph, from the core. */
function cycles(core: Core, deps: Iterable<FileDependency>): string[][] {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const id = (f: string) => {
    let v = ids.get(f);
    if (v === undefined) ids.set(f, (v = names.push(f) - 1));
    return v;
  };
  const src: number[] = [];
  const dst: number[] = [];
  for (const d of deps) {
    src.push(id(d.from));
    dst.push(id(d.to));
  }
  if (!names.length) return [];
  const g = core.graph({ n: names.length, src, dst });
  try {
    const { label } = g.components('strong');
    const groups = new Map<number, string[]>();
    for (let v = 0; v < names.length; v++) {
      const list = groups.get(label[v]!);
      if (list) list.push(names[v]!);
      else groups.set(label[v]!, [names[v]!]);
    }
    return [...groups.values()].filter((c) => c.length > 1).map((c) => c.sort());
  } finally {
    g.free();
  }
}

function folderCounts(deps: Iterable<FileDependency>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of deps) {
    const a = folderOf(d.from);
    const b = folderOf(d.to);
    if (a === b) continue;
    const key = `${a}\0${b}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const API_KINDS = new Set(['class', 'struct', 'interface', 'trait', 'enum', 'type_alias', 'function', 'method', 'constructor', 'variable', 'constant', 'field', 'namespace', 'module']);

/** The diff of `after` against `before`; `commits` (file -> commits touching it) ranks hotspots further. */
export function diffGraphs(core: Core, before: GraphDocument, after: GraphDocument, commits: ReadonlyMap<string, number> = new Map()): GraphDiff {
  const a = side(before);
  const b = side(after);
  const spots = new Map<string, Hotspot>();
  const spot = (file: string) => {
    let h = spots.get(file);
    if (!h) spots.set(file, (h = { file, changes: 0, nodes_added: 0, nodes_removed: 0, edges_added: 0, edges_removed: 0 }));
    return h;
  };
  let nodesAdded = 0;
  let nodesRemoved = 0;
  const filesAdded: string[] = [];
  const filesRemoved: string[] = [];
  const removedApis: RemovedApi[] = [];
  for (const [id, n] of b.nodes) {
    if (a.nodes.has(id)) continue;
    nodesAdded++;
    spot(n.source_file).nodes_added++;
    if (n.kind === 'file') filesAdded.push(n.source_file);
  }
  for (const [id, n] of a.nodes) {
    const still = b.nodes.get(id);
    // An API is removed when its public symbol is gone or no longer public (un-exported, made private).
    const api = n.visibility === 'public' && API_KINDS.has(n.kind) && n.is_test !== true;
    if (api && still?.visibility !== 'public') removedApis.push({ id, label: n.label, kind: n.kind, file: n.source_file, ...(still ? { now: still.visibility ?? 'unexported' } : {}) });
    if (still) continue;
    nodesRemoved++;
    spot(n.source_file).nodes_removed++;
    if (n.kind === 'file') filesRemoved.push(n.source_file);
  }
  let edgesAdded = 0;
  let edgesRemoved = 0;
  for (const [key, i] of b.edges) {
    if (a.edges.has(key)) continue;
    edgesAdded++;
    const file = edgeFile(after, b, i);
    if (file) spot(file).edges_added++;
  }
  for (const [key, i] of a.edges) {
    if (b.edges.has(key)) continue;
    edgesRemoved++;
    const file = edgeFile(before, a, i);
    if (file) spot(file).edges_removed++;
  }
  const depsAdded = [...b.deps].filter(([k]) => !a.deps.has(k)).map(([, d]) => d);
  const depsRemoved = [...a.deps].filter(([k]) => !b.deps.has(k)).map(([, d]) => d);

  const countsBefore = folderCounts(a.deps.values());
  const countsAfter = folderCounts(b.deps.values());
  const drift: Drift[] = [];
  for (const key of new Set([...countsBefore.keys(), ...countsAfter.keys()])) {
    const was = countsBefore.get(key) ?? 0;
    const now = countsAfter.get(key) ?? 0;
    if (was === now) continue;
    const [from, to] = key.split('\0') as [string, string];
    drift.push({ from, to, before: was, after: now });
  }
  drift.sort((x, y) => Math.abs(y.after - y.before) - Math.abs(x.after - x.before) || x.from.localeCompare(y.from) || x.to.localeCompare(y.to));

  // A cycle is new when its files were not all in one cycle before.
  const oldCycleOf = new Map<string, number>();
  cycles(core, a.deps.values()).forEach((c, i) => c.forEach((f) => oldCycleOf.set(f, i)));
  const newCycles = cycles(core, b.deps.values())
    .filter((c) => {
      const first = oldCycleOf.get(c[0]!);
      return first === undefined || c.some((f) => oldCycleOf.get(f) !== first);
    })
    .sort((x, y) => y.length - x.length || x[0]!.localeCompare(y[0]!));

  for (const h of spots.values()) h.changes = h.nodes_added + h.nodes_removed + h.edges_added + h.edges_removed;
  for (const [file, n] of commits) if (spots.has(file)) spots.get(file)!.commits = n;
  const hotspots = [...spots.values()]
    .filter((h) => h.file && h.changes > 0)
    .sort((x, y) => y.changes - x.changes || (y.commits ?? 0) - (x.commits ?? 0) || x.file.localeCompare(y.file));
  const byDep = (x: FileDependency, y: FileDependency) => x.from.localeCompare(y.from) || x.to.localeCompare(y.to);
  return {
    nodes_added: nodesAdded,
    nodes_removed: nodesRemoved,
    edges_added: edgesAdded,
    edges_removed: edgesRemoved,
    files_added: filesAdded.sort(),
    files_removed: filesRemoved.sort(),
    dependencies_added: depsAdded.sort(byDep),
    dependencies_removed: depsRemoved.sort(byDep),
    removed_apis: removedApis.sort((x, y) => x.file.localeCompare(y.file) || x.label.localeCompare(y.label)),
    drift,
    new_cycles: newCycles,
    hotspots,
  };
}
