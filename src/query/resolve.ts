import type { NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import { sanitize } from './sanitize.ts';
import { bareName } from './tokens.ts';
import { codeTiers } from './code-tier.ts';

/** One candidate of an ambiguous name, with a reference that resolves back to exactly it. */
export interface Candidate {
  id: string;
  label: string;
  source_file: string;
  kind: string;
  degree: number;
  qualified: string;
}

export type Resolution =
  | { status: 'found'; node: NodeId; via: 'id' | 'label' | 'bare' | 'file' | 'substring' }
  | { status: 'ambiguous'; query: string; candidates: Candidate[]; total: number }
  | { status: 'not_found'; query: string; similar?: Candidate[] };

const MAX_CANDIDATES = 20;

/**
 * Resolve a user-supplied name through the cascade: exact id, case-insensitive label, bare name,
 * source file, unique label substring. A `name@file-substring` qualifier narrows any step to nodes
 * whose source file contains the substring. Several matches come back as candidates (highest degree
 * first), never as a silent pick.
 */
export function resolveName(index: GraphIndex, rawQuery: string): Resolution {
  const query = rawQuery.trim();
  if (!query) return { status: 'not_found', query };
  const direct = cascade(index, query, undefined);
  if (direct.status !== 'not_found') return direct;
  const at = query.lastIndexOf('@');
  if (at > 0 && at < query.length - 1) {
    const name = query.slice(0, at).trim();
    const file = query.slice(at + 1).trim();
    const qualified = cascade(index, name, file);
    if (qualified.status !== 'not_found') return qualified;
  }
  const printed = printedNodes(index, query);
  if (printed.length) return printed.length === 1 ? { status: 'found', node: printed[0]!, via: 'label' } : ambiguous(index, query, printed);
  return direct;
}

/** The nodes a printed name stands for: the whole name, or a printed label `@` part of a printed file. */
function printedNodes(index: GraphIndex, query: string): NodeId[] {
  const names = printedNames(index);
  const whole = names.get(query.toLowerCase());
  if (whole) return whole;
  const at = query.lastIndexOf('@');
  if (at <= 0) return [];
  const file = query.slice(at + 1).trim().toLowerCase();
  const ids = names.get(query.slice(0, at).trim().toLowerCase()) ?? index.byLabel.get(query.slice(0, at).trim().toLowerCase()) ?? [];
  return ids.filter((v) => sanitize(index.node(v).source_file ?? '', 400).toLowerCase().includes(file));
}

const printedMemo = new WeakMap<GraphIndex, Map<string, NodeId[]>>();

/**
 * Nodes by the form output prints them in, for the names sanitize() changes (a label with `<`, a
 * control or bidi character, a file name with a line break): an agent copies a name from a listing
 * or a completion and passes it back. Built on the first name no other step resolves.
 */
function printedNames(index: GraphIndex): Map<string, NodeId[]> {
  let map = printedMemo.get(index);
  if (map) return map;
  map = new Map();
  const add = (raw: string, printed: string, v: NodeId): void => {
    if (printed === raw) return;
    const key = printed.toLowerCase();
    const list = map!.get(key);
    if (!list) map!.set(key, [v]);
    else if (list[list.length - 1] !== v) list.push(v);
  };
  for (let v = 0; v < index.n; v++) {
    const node = index.node(v);
    const label = index.label(v);
    add(label, sanitize(label), v);
    add(node.id, sanitize(node.id, 400), v);
    if (node.source_file) add(`${label}@${node.source_file}`, sanitize(`${label}@${node.source_file}`, 400), v);
  }
  printedMemo.set(index, map);
  return map;
}

function cascade(index: GraphIndex, query: string, fileSub: string | undefined): Resolution {
  const lower = query.toLowerCase();
  const fileLower = fileSub?.toLowerCase();
  const keep = (ids: readonly NodeId[] | undefined): NodeId[] => {
    if (!ids) return [];
    if (!fileLower) return [...ids];
    return ids.filter((v) => String(index.node(v).source_file ?? '').toLowerCase().includes(fileLower));
  };
  const pick = (ids: NodeId[], via: 'id' | 'label' | 'bare' | 'file' | 'substring', exactly?: (v: NodeId) => boolean): Resolution | undefined => {
    if (ids.length === 1) return { status: 'found', node: ids[0]!, via };
    if (ids.length > 1) {
      // The name as written (case-sensitive) beats its case variants: Command.Execute is not Command.execute.
      const exact = exactly ? ids.filter(exactly) : [];
      if (exact.length === 1) return { status: 'found', node: exact[0]!, via };
      return ambiguous(index, query, exact.length ? exact : ids);
    }
    return undefined;
  };
  const byId = index.g.idOf.get(query);
  if (byId !== undefined && keep([byId]).length === 1) return { status: 'found', node: byId, via: 'id' };
  const r1 = pick(keep(index.byLabel.get(lower)), 'label', (v) => index.label(v) === query);
  if (r1) return r1;
  const bare = query.replace(/\(\)$/, '');
  const r2 = pick(keep(index.byBare.get(bare.toLowerCase())), 'bare', (v) => bareName(index.label(v)) === bare);
  if (r2) return r2;
  const files = index.byFile.get(query) ?? index.byFile.get(query.replace(/^\.\//, ''));
  if (files && files.length) {
    const fileNode = files.find((v) => index.node(v).kind === 'file');
    if (fileNode !== undefined && keep([fileNode]).length === 1) return { status: 'found', node: fileNode, via: 'file' };
  }
  if (lower.length >= 2) {
    const hits: NodeId[] = [];
    const labels = index.lowerLabels;
    for (let v = 0; v < labels.length; v++) if (labels[v]!.includes(lower)) hits.push(v);
    const kept = keep(hits);
    if (kept.length === 1) return { status: 'found', node: kept[0]!, via: 'substring' };
    // Several names contain the query but none is it: other symbols, offered as similar names (each
    // by a reference that resolves to it), never as candidates for the name asked (`handle` is not `handler`).
    if (kept.length > 1) {
      const tiers = codeTiers(index);
      kept.sort((a, b) => tiers[a]! - tiers[b]! || index.degree[b]! - index.degree[a]! || cmp(index.node(a).id, index.node(b).id));
      return { status: 'not_found', query, similar: kept.slice(0, MAX_SIMILAR).map((v) => candidate(index, v)) };
    }
  }
  return { status: 'not_found', query };
}

const MAX_SIMILAR = 8;

function ambiguous(index: GraphIndex, query: string, ids: NodeId[]): Resolution {
  return { status: 'ambiguous', query, total: ids.length, candidates: ambiguousCandidates(index, ids, MAX_CANDIDATES) };
}

/** The first `max` of `ids` by degree (then id), as candidates. */
function ambiguousCandidates(index: GraphIndex, ids: readonly NodeId[], max: number): Candidate[] {
  const sorted = [...ids].sort((a, b) => index.degree[b]! - index.degree[a]! || cmp(index.node(a).id, index.node(b).id));
  return sorted.slice(0, max).map((v) => candidate(index, v));
}

/** Describe one node as a candidate with its copy-ready qualified reference. */
export function candidate(index: GraphIndex, v: NodeId): Candidate {
  const node = index.node(v);
  return {
    id: node.id,
    label: index.label(v),
    source_file: String(node.source_file ?? ''),
    kind: String(node.kind ?? ''),
    degree: index.degree[v]!,
    qualified: qualifiedRef(index, v),
  };
}

/**
 * A reference that resolves back to exactly node v: the bare label when it is unique, else
 * `label@source_file`, else the node id.
 */
export function qualifiedRef(index: GraphIndex, v: NodeId): string {
  const node = index.node(v);
  const label = index.label(v);
  const sameLabel = index.byLabel.get(label.toLowerCase());
  if (sameLabel && sameLabel.length === 1 && !index.g.idOf.has(label)) return `${label}@${node.source_file ?? ''}`.replace(/@$/, '');
  if (node.source_file) {
    const ref = `${label}@${node.source_file}`;
    const back = resolveQualifiedOnly(index, label, node.source_file);
    if (back.length === 1 && back[0] === v) return ref;
  }
  return node.id;
}

/**
 * {@link qualifiedRef} of every node of one label group (the ids `byLabel` lists for one lower-cased
 * label), computed together, with the same strings in `ids` order. A node keeps `label@file` when no
 * other member's file contains its file (what resolving the reference back checks). Each file is
 * lower-cased once, and the containment test looks only at files that can contain it: a file with a
 * middle path segment (`a/b/c`) can only sit inside files having that whole segment (`/b/` must
 * appear), so the rarest middle segment picks the candidates; other files are compared with every
 * longer file. Linear-ish instead of quadratic in the group's size (a thousand `fixture.ts`).
 */
export function qualifiedRefsOfGroup(index: GraphIndex, ids: readonly NodeId[]): string[] {
  if (ids.length === 1) return [qualifiedRef(index, ids[0]!)];
  const lowerFiles = ids.map((v) => String(index.node(v).source_file ?? '').toLowerCase());
  const counts = new Map<string, number>();
  for (const f of lowerFiles) counts.set(f, (counts.get(f) ?? 0) + 1);
  const distinct = [...counts.keys()];
  const segments = distinct.map((f) => f.split('/'));
  const bySegment = new Map<string, number[]>();
  for (let i = 0; i < distinct.length; i++) {
    for (const seg of new Set(segments[i])) {
      const list = bySegment.get(seg);
      if (list) list.push(i);
      else bySegment.set(seg, [i]);
    }
  }
  const unique = new Set<string>();
  for (let i = 0; i < distinct.length; i++) {
    const f = distinct[i]!;
    if (counts.get(f) !== 1) continue;
    const segs = segments[i]!;
    let candidates: number[] | undefined;
    for (let s = 1; s < segs.length - 1; s++) {
      const list = bySegment.get(segs[s]!)!;
      if (!candidates || list.length < candidates.length) candidates = list;
    }
    let contained = false;
    if (candidates) {
      for (const j of candidates) if (j !== i && distinct[j]!.length > f.length && distinct[j]!.includes(f)) contained = true;
    } else {
      for (let j = 0; j < distinct.length && !contained; j++) if (distinct[j]!.length > f.length && distinct[j]!.includes(f)) contained = true;
    }
    if (!contained) unique.add(f);
  }
  return ids.map((v, i) => {
    const node = index.node(v);
    return node.source_file && unique.has(lowerFiles[i]!) ? `${index.label(v)}@${node.source_file}` : node.id;
  });
}

function resolveQualifiedOnly(index: GraphIndex, label: string, file: string): NodeId[] {
  const fileLower = file.toLowerCase();
  const ids = index.byLabel.get(label.toLowerCase()) ?? [];
  return ids.filter((v) => String(index.node(v).source_file ?? '').toLowerCase().includes(fileLower));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
