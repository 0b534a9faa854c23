/**
 * Incremental relinking for `synaptic update`: when some files' facts changed (same file set, same
 * project configuration), only files whose linking could now come out differently are linked again;
 * every other file's links, hazards and unresolved-call count are taken from the previous graph.
 *
 * Exact by construction: a file's linking is a function of the facts it reads and of the global
 * index entries it consults (see Resolver.beginUnit: memos start empty per file). The previous run
 * recorded both per file ({@link LinkDeps}); a file is relinked when it read a changed file, or
 * consulted an index entry a changed file contributes to (before or after the edit), or a
 * parameter-type guess it read changed. The result equals a full link of the new facts.
 * Browser-safe.
 */
import type { GraphLink, GraphNode, HazardSite } from '../../graph/model.ts';
import type { FileFacts } from '../facts.ts';
import type { ProjectContext } from '../project-context.ts';
import { dirOf } from '../project-context.ts';
import { Linker, type LinkDeps, type LinkResult } from './index.ts';
import { languageFamily, ownerScopeOf } from './resolver.ts';

/**
 * Every global index key (see Resolver `key` calls) a file's facts may contribute an entry to:
 * over-inclusive on purpose (all symbol names under every by-name index), never missing one.
 */
export function contributedKeys(f: FileFacts): string[] {
  const keys = new Set<string>();
  const fam = languageFamily(f.language);
  const pkgKeys: string[] = [];
  if (f.language === 'go') pkgKeys.push(`go:${dirOf(f.path)}`);
  if (f.packageName) for (const p of ['java', 'cs', 'php']) pkgKeys.push(`${p}:${f.packageName}`);
  for (const k of pkgKeys) keys.add(`P\0${k}`);
  for (const s of f.symbols) {
    keys.add(`g\0${s.name}`);
    keys.add(`m\0${fam}\0${s.name}`);
    keys.add(`n\0${s.name}`);
    for (const k of pkgKeys) keys.add(`p\0${k}\0${s.name}`);
    if (s.owner) keys.add(`o\0${ownerScopeOf(f)}`);
  }
  return [...keys];
}

export interface IncrementalInput {
  /** Facts of every linked file after the edit (any order). */
  facts: FileFacts[];
  context: ProjectContext;
  /** What the previous link read; its `paths` must be exactly the linked files now. */
  deps: LinkDeps;
  /** Changed files: path -> facts before the edit (after: in `facts`). */
  before: Map<string, FileFacts>;
  /** The previous graph's links, hazards and unresolved-call counts. */
  previous: { links: GraphLink[]; hazards: HazardSite[]; unresolvedCalls: Record<string, number> };
}

export interface RelinkResult extends LinkResult {
  /** Files linked again. */
  relinked: number;
  /** `links` are already in canonical order (unique source/target/relation, see outputs/graph-json.ts sortGraph). */
  sorted: true;
  /** Per link: its index in `previous.links` when taken from there (then identical), else -1. */
  linkFrom: Int32Array;
  /** The nodes of the files `only` accepts, and every package node, in id order. */
  nodesOf(only: (f: FileFacts) => boolean): GraphNode[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const linkOrder = (a: GraphLink, b: GraphLink): number => cmp(a.source, b.source) || cmp(a.target, b.target) || cmp(a.relation, b.relation);

/**
 * Link lists this module built and found in canonical order as it merged them (a relink's `links`),
 * with their length then: a keeper's next relink takes the previous graph's very list back, and its
 * order need not be checked link by link again (~110,000 string compares on prisma) when it is still
 * that list. A list from anywhere else (graph.cbor read from disk) is checked.
 */
const CHECKED_ORDER = new WeakMap<readonly GraphLink[], number>();

/** Whether `links` is a list {@link relink} returned, as long as it was then (nothing in the pipeline changes a graph's list in place). */
export function checkedOrder(links: readonly GraphLink[]): boolean {
  return CHECKED_ORDER.get(links) === links.length;
}

/**
 * The linked graph of `facts` (as {@link linkGraph} gives it, links sorted), relinking only what
 * may differ; null when the inputs do not fit. `previous.links` must be in canonical order (as
 * graph.cbor stores them).
 */
export function relink(input: IncrementalInput): RelinkResult | null {
  const { deps } = input;
  const sorted = [...input.facts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const n = sorted.length;
  if (n !== deps.paths.length || deps.reads.length !== n || deps.keys.length !== n) return null;
  const gd = deps.guessData;
  if (gd.contrib.length !== n || gd.reads.length !== n || gd.keys.length !== n) return null;
  for (let i = 0; i < n; i++) if (sorted[i]!.path !== deps.paths[i]) return null;
  const changed = new Uint8Array(n);
  const invalid = new Set<string>();
  const index = new Map(sorted.map((f, i) => [f.path, i]));
  for (const [path, old] of input.before) {
    const i = index.get(path);
    if (i === undefined) return null;
    changed[i] = 1;
    for (const k of contributedKeys(old)) invalid.add(k);
    for (const k of contributedKeys(sorted[i]!)) invalid.add(k);
  }
  // A unit (a file's links, or its parameter-type contributions) must be redone when it read a
  // changed file or a global index entry a changed file contributes to.
  const stale = (reads: number[], keys: string[]): boolean => reads.some((r) => changed[r] === 1) || keys.some((k) => invalid.has(k));
  const linker = new Linker(sorted, input.context, { data: gd, dirty: (fi) => changed[fi] === 1 || stale(gd.reads[fi]!, gd.keys[fi]!) });
  const files = linker.files;
  const guesses = linker.guesses();
  for (const [name, v] of guesses) if (deps.guesses.get(name) !== v) invalid.add(`q\0${name}`);
  for (const [name, v] of deps.guesses) if (!guesses.has(name) && v !== null) invalid.add(`q\0${name}`);
  const redo = new Uint8Array(files.length);
  for (let i = 0; i < files.length; i++) {
    if (changed[i]) { redo[i] = 1; continue; }
    if (stale(deps.reads[i]!, deps.keys[i]!)) redo[i] = 1;
  }
  const redoPaths = new Set<string>();
  for (let i = 0; i < files.length; i++) if (redo[i]) redoPaths.add(files[i]!.path);
  const hazards: HazardSite[] = input.previous.hazards.filter((h) => !redoPaths.has(h.source_file));
  const unresolvedCalls: Record<string, number> = {};
  for (const [path, n] of Object.entries(input.previous.unresolvedCalls)) if (!redoPaths.has(path)) unresolvedCalls[path] = n;
  const out: LinkDeps = { paths: deps.paths, reads: [...deps.reads], keys: [...deps.keys], guesses, guessData: linker.R.guessInputs() };
  const fresh: GraphLink[] = [];
  for (let i = 0; i < files.length; i++) {
    if (!redo[i]) continue;
    const r = linker.linkFile(i);
    for (const l of r.links) fresh.push(l);
    for (const h of r.hazards) hazards.push(h);
    if (r.unresolved) unresolvedCalls[files[i]!.path] = r.unresolved;
    out.reads[i] = r.reads;
    out.keys[i] = r.keys;
  }
  // Merge the kept links (in order) with the new ones (sorted): the canonical order, no full sort.
  fresh.sort(linkOrder);
  const prev = input.previous.links;
  const links: GraphLink[] = [];
  const from: number[] = [];
  // Where each fresh link goes among the previous ones, by binary search: the previous links in
  // between are copied without comparing each one with the fresh links.
  const insertAt = (l: GraphLink): number => {
    let lo = 0;
    let hi = prev.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (linkOrder(prev[mid]!, l) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let k = 0;
  let nextAt = fresh.length ? insertAt(fresh[0]!) : prev.length;
  let last: GraphLink | undefined;
  // Kept links of a list already checked follow each other in order (a subsequence of an increasing
  // list): only the pairs a fresh link is part of are compared.
  const prevChecked = checkedOrder(prev);
  let lastFresh = false;
  for (let j = 0; j <= prev.length; j++) {
    while (k < fresh.length && nextAt <= j) {
      const f = fresh[k++]!;
      if (last && linkOrder(last, f) >= 0) return null; // two links with one key, or out of order: not canonical
      links.push((last = f));
      lastFresh = true;
      from.push(-1);
      if (k < fresh.length) nextAt = insertAt(fresh[k]!);
    }
    if (j === prev.length) break;
    const l = prev[j]!;
    if (redoPaths.has(l.source_file)) continue;
    // Previous links out of order (or equal to a fresh one): not canonical. Consecutive links mostly
    // share their source string, so this compare is cheap.
    if (last && (lastFresh || !prevChecked) && linkOrder(last, l) >= 0) return null;
    links.push((last = l));
    lastFresh = false;
    from.push(j);
  }
  CHECKED_ORDER.set(links, links.length);
  let nodes: GraphNode[] | undefined;
  return {
    // Built on first read: an update that keeps the previous graph's nodes asks only for some (nodesOf).
    get nodes() {
      return (nodes ??= linker.nodes());
    },
    nodesOf: (only) => linker.nodes(only),
    links, hazards, unresolvedCalls, deps: out, relinked: redoPaths.size, sorted: true, linkFrom: Int32Array.from(from),
  };
}
