import { relationMask, RELATIONS, type GraphDocument, type HazardSite, type NodeId } from '../graph/model.ts';
import { TestReach } from '../graph/test-reach.ts';
import { GraphIndex } from './graph-index.ts';
import { CALL_MASK, CHAIN_MASK, CROSS_LANGUAGE_RELATIONS, DESCRIBE_CALL_RELATIONS, IMPACT_MASK, IMPACT_RELATIONS, isStructural } from './relations.ts';
import { rankQuery, type RankOptions, type RankResult } from './rank.ts';
import { sanitize } from './sanitize.ts';
import { candidate, qualifiedRef, qualifiedRefsOfGroup, resolveName, type Resolution } from './resolve.ts';
import type { TraversalBackend } from './traversal.ts';
import type { EdgeColumns } from './snapshot-index.ts';
import { SLICE_ITEMS, Sliced, whole, type WarmStep } from './sliced.ts';
import { adoptRankScratch, rankWarmStep } from './rank.ts';
import { codeTiersWarmStep } from './code-tier.ts';
import { unpackPostings, type PackedPostings } from './postings.ts';

/** What a worker thread builds for query_graph from the same graph (see QueryEngine.rankIndexFrom). */
export interface RankIndexParts {
  postings: PackedPostings;
  /** The ranking scratch's typed arrays (rank.ts buildRankScratch). */
  scratch: Record<string, ArrayBufferView>;
}

/** One edge-neighbour in a caller / callee / reference / neighbour listing. */
export interface EdgeHit {
  node: NodeId;
  edge: number;
  relation: string;
  direction: 'in' | 'out';
}

export interface EdgeListing {
  seed: NodeId;
  /** Members folded in when the seed is a class/type (0 when not folded). */
  foldedMembers: number;
  hits: EdgeHit[];
  byRelation: Record<string, number>;
}

export interface AffectedHit {
  node: NodeId;
  depth: number;
  via: string;
}

export interface GraphStats {
  nodes: number;
  edges: number;
  communities: number;
  extracted: number;
  inferred: number;
  ambiguous: number;
  cross_repo: number;
  cross_language: number;
  dynamic_sites: number;
  dynamic_sites_opaque: number;
  dynamic_refs_linked: number;
}

export interface DynamicSite {
  repo?: string;
  file: string;
  line: number;
  kind: 'reflection' | 'dynamic_import' | 'eval';
  key?: string;
  host: string;
}

/** The graph-side services behind every graph tool. Built once per load; immutable afterwards. */
export class QueryEngine {
  readonly ix: GraphIndex;
  readonly traversal: TraversalBackend;
  readonly loadedAt = Date.now();
  private readonly statsIndex = new Sliced(() => this.countStats());
  private sitesCache?: DynamicSite[];
  private testReach?: TestReach;
  private godCache?: NodeId[];
  private unresolvedCache?: number;
  private qualifiedMemo?: Array<string | undefined>;
  private safeLabelMemo?: Array<string | undefined>;
  private safeQualifiedMemo?: Array<string | undefined>;
  private safeFileMemo?: Array<string | undefined>;
  private duplicate?: Uint8Array;

  /**
   * `traversal` builds the walks over the index: `coreTraversal(core)` (src/query/core-traversal.ts).
   * Optional in the type only so a caller whose core failed to load gets this clear error.
   */
  constructor(doc: GraphDocument, traversal?: (ix: GraphIndex) => TraversalBackend, options: { releaseLinks?: boolean; edges?: EdgeColumns } = {}) {
    if (!traversal) throw new Error('Cannot query the graph: no traversal backend; the WASM core (wasm/synaptic.wasm) must load (pass coreTraversal(core))');
    this.ix = new GraphIndex(doc, options);
    this.traversal = traversal(this.ix);
  }

  /**
   * Settles once the ranking index a worker thread builds (rankIndexFrom) is taken in or given up;
   * undefined when none was started. A call that ranks awaits it first.
   */
  rankIndexReady: Promise<void> | undefined;
  private rankIndexPending = false;

  /**
   * Take the ranking postings and scratch (query_graph's index, ~1 s of CPU on a 24k-node graph in a
   * fresh process) from a worker thread that builds them from the same graph: meanwhile the warm-up
   * skips them. When `parts` resolves to undefined (the worker failed) they are built here on first use.
   */
  rankIndexFrom(parts: Promise<RankIndexParts | undefined>): void {
    this.rankIndexPending = true;
    this.rankIndexReady = parts
      .then(
        (p) => {
          if (!p) return;
          this.ix.adoptPostings(unpackPostings(p.postings));
          adoptRankScratch(this.ix, p.scratch);
        },
        () => undefined,
      )
      .finally(() => {
        this.rankIndexPending = false;
      });
  }

  /**
   * Build the lazy indexes and the traversal's copy of the graph now (off the start-up path); with
   * `references`, every node's copy-ready reference too (a busy server: ~0.2 s and a few MB on a
   * 50k-node graph, instead of label groups computed on the calls that first print them).
   */
  warm(references = false): void {
    for (const step of this.warmSteps(references)) step(Infinity);
  }

  /**
   * What `warm` builds, as steps a server runs in idle time a slice at a time (LiveGraph): the
   * index's lookup maps, the code tiers (listings and name resolution), the traversal's graph copy,
   * the hub ranking with the test reach of the first page of hubs, the graph stats, the ranking
   * postings and scratch (query_graph only; the biggest builds, so every other tool is ready first;
   * skipped while a worker thread builds them, see rankIndexFrom), and with `references` every node
   * reference.
   */
  warmSteps(references = false): WarmStep[] {
    const steps = [...this.ix.warmSteps(), codeTiersWarmStep(this.ix), whole(() => this.traversal.prepare?.()), whole(() => this.godNodes())];
    let hub = 0;
    steps.push((deadline) => {
      const hubs = this.godNodes();
      const end = Math.min(GOD_PAGE, hubs.length);
      while (hub < end) {
        this.testCount(hubs[hub++]!);
        if (hub < end && performance.now() >= deadline) return false;
      }
      return true;
    });
    steps.push((deadline) => this.statsIndex.step(deadline), whole(() => this.isDuplicateLabel(0)), ...this.rankSteps());
    if (references) {
      let v = 0;
      steps.push((deadline) => {
        while (v < this.ix.n) {
          this.qualified(v++);
          if (v % 64 === 0 && v < this.ix.n && performance.now() >= deadline) return false;
        }
        return true;
      });
    }
    return steps;
  }

  /** The ranking postings and scratch as warm-up steps, skipped while a worker builds them. */
  private rankSteps(): WarmStep[] {
    return [this.ix.postingsWarmStep(), rankWarmStep(this.ix)].map((step) => (deadline: number) => this.rankIndexPending || step(deadline));
  }

  get doc(): GraphDocument {
    return this.ix.g.doc;
  }

  resolve(name: string): Resolution {
    return resolveName(this.ix, name);
  }

  /**
   * Copy-ready reference of a node. Memoized per node: it depends only on the (immutable) index,
   * and a name shared by thousands of nodes makes each computation scan all of them.
   */
  qualified(v: NodeId): string {
    const memo = (this.qualifiedMemo ??= new Array<string | undefined>(this.ix.n));
    const known = memo[v];
    if (known !== undefined) return known;
    // The whole label group at once: one node's answer needs every member's file anyway.
    const group = this.ix.byLabel.get(this.ix.lowerLabels[v]!) ?? [v];
    const refs = qualifiedRefsOfGroup(this.ix, group);
    for (let i = 0; i < group.length; i++) memo[group[i]!] = refs[i]!;
    return memo[v] ?? (memo[v] = qualifiedRef(this.ix, v));
  }

  /** `sanitize(label)` of a node, memoized (listings print the same hubs' labels call after call). */
  safeLabel(v: NodeId): string {
    const memo = (this.safeLabelMemo ??= new Array<string | undefined>(this.ix.n));
    return (memo[v] ??= sanitize(this.ix.label(v)));
  }

  /** `sanitize(source_file ?? '')` of a node, memoized (query_graph prints thirty files per answer). */
  safeFile(v: NodeId): string {
    const memo = (this.safeFileMemo ??= new Array<string | undefined>(this.ix.n));
    return (memo[v] ??= sanitize(this.ix.node(v).source_file ?? ''));
  }

  /** `sanitize(qualified(v), 400)`, memoized. */
  safeQualified(v: NodeId): string {
    const memo = (this.safeQualifiedMemo ??= new Array<string | undefined>(this.ix.n));
    return (memo[v] ??= sanitize(this.qualified(v), 400));
  }

  candidate(v: NodeId) {
    return candidate(this.ix, v);
  }

  /** Is the label shared by several nodes (so output should carry a qualified reference)? */
  isDuplicateLabel(v: NodeId): boolean {
    if (!this.duplicate) {
      const dup = new Uint8Array(this.ix.n);
      const counts = this.ix.labelCount;
      for (let u = 0; u < dup.length; u++) if ((counts.get(this.ix.label(u)) ?? 0) > 1) dup[u] = 1;
      this.duplicate = dup;
    }
    return this.duplicate[v] === 1;
  }

  rank(question: string, options?: RankOptions): RankResult {
    return rankQuery(this.ix, question, options);
  }

  /** Seeds for a fold: the node, plus its members when it is a class/type. */
  private foldSeeds(v: NodeId): { seeds: NodeId[]; members: number } {
    if (!this.ix.isType(v)) return { seeds: [v], members: 0 };
    const members = this.ix.members(v);
    return { seeds: [v, ...members], members: members.length };
  }

  /** Incoming call-like edges (folding a type's members in; only external callers are kept). */
  callers(v: NodeId): EdgeListing {
    return this.edgeListing(v, 'in', (rel) => ((CALL_MASK >>> relId(rel)) & 1) === 1 && !isStructural(rel), true);
  }

  /** Outgoing call-like edges (folding a type's members in). */
  callees(v: NodeId): EdgeListing {
    return this.edgeListing(v, 'out', (rel) => ((CALL_MASK >>> relId(rel)) & 1) === 1 && !isStructural(rel), true);
  }

  /** Every incoming edge except structural ownership; never folds members. */
  references(v: NodeId): EdgeListing {
    return this.edgeListing(v, 'in', (rel) => !isStructural(rel), false);
  }

  /** All edges of a node in both directions, optionally filtered by a relation substring. */
  neighbors(v: NodeId, relationFilter?: string): EdgeListing & { allByRelation: Record<string, number> } {
    const ix = this.ix;
    const hits: EdgeHit[] = [];
    const allByRelation: Record<string, number> = {};
    const byRelation: Record<string, number> = {};
    const f = relationFilter?.toLowerCase();
    const add = (e: number, node: NodeId, direction: 'in' | 'out') => {
      const relation = ix.relName(e);
      allByRelation[relation] = (allByRelation[relation] ?? 0) + 1;
      if (f && !relation.toLowerCase().includes(f)) return;
      byRelation[relation] = (byRelation[relation] ?? 0) + 1;
      hits.push({ node, edge: e, relation, direction });
    };
    for (let i = ix.outOff[v]!; i < ix.outOff[v + 1]!; i++) add(ix.outEdges[i]!, ix.g.dst[ix.outEdges[i]!]!, 'out');
    for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]!; i++) add(ix.inEdges[i]!, ix.g.src[ix.inEdges[i]!]!, 'in');
    return { seed: v, foldedMembers: 0, hits, byRelation, allByRelation };
  }

  private edgeListing(v: NodeId, dir: 'in' | 'out', keep: (rel: string) => boolean, fold: boolean): EdgeListing {
    const ix = this.ix;
    const { seeds, members } = fold ? this.foldSeeds(v) : { seeds: [v], members: 0 };
    const seedSet = new Set(seeds);
    const hits: EdgeHit[] = [];
    const byRelation: Record<string, number> = {};
    const seen = new Set<string>();
    for (const s of seeds) {
      const off = dir === 'in' ? ix.inOff : ix.outOff;
      const edges = dir === 'in' ? ix.inEdges : ix.outEdges;
      const other = dir === 'in' ? ix.g.src : ix.g.dst;
      for (let i = off[s]!; i < off[s + 1]!; i++) {
        const e = edges[i]!;
        const relation = ix.relName(e);
        if (!keep(relation)) continue;
        const u = other[e]!;
        if (members && seedSet.has(u)) continue; // internal to the folded type
        const key = `${u}:${relation}`;
        if (seen.has(key)) continue; // several call sites of the same pair: one hit
        seen.add(key);
        byRelation[relation] = (byRelation[relation] ?? 0) + 1;
        hits.push({ node: u, edge: e, relation, direction: dir });
      }
    }
    const order = ix.labelOrder; // (label, id) order
    hits.sort((a, b) => ix.degree[b.node]! - ix.degree[a.node]! || order[a.node]! - order[b.node]!);
    return { seed: v, foldedMembers: members, hits, byRelation };
  }

  /** Reverse-impact walk (blast radius), folding a type's members into the seeds. */
  affected(v: NodeId, depth: number, relations?: readonly string[]): { hits: AffectedHit[]; foldedMembers: number; byDepth: Record<string, number> } {
    const { seeds, members } = this.foldSeeds(v);
    const mask = relations && relations.length ? relationMask(relations) : IMPACT_MASK;
    const reach = this.traversal.reverseReach(seeds, depth, mask);
    const hits: AffectedHit[] = [];
    const byDepth: Record<string, number> = {};
    const seedSet = new Set(seeds);
    for (let i = 0; i < reach.nodes.length; i++) {
      const node = reach.nodes[i]!;
      if (seedSet.has(node)) continue;
      const d = reach.depth[i]!;
      byDepth[String(d)] = (byDepth[String(d)] ?? 0) + 1;
      hits.push({ node, depth: d, via: RELATIONS[reach.via[i]!] ?? 'other' });
    }
    const order = this.ix.labelOrder; // (label, id) order
    hits.sort((a, b) => a.depth - b.depth || order[a.node]! - order[b.node]!);
    return { hits, foldedMembers: members, byDepth };
  }

  /**
   * Shortest undirected connection, each step keeping the stored edge direction; with `directed`, the
   * shortest forward call chain (CHAIN_RELATIONS edges followed source to target only).
   */
  shortestPath(s: NodeId, t: NodeId, maxHops: number, directed = false): Array<{ from: NodeId; to: NodeId; edge: number; forward: boolean }> | null {
    const mask = directed ? CHAIN_MASK : 0xffffffff;
    const path = this.traversal.shortestPath(s, t, maxHops, mask, directed);
    if (!path) return null;
    const ix = this.ix;
    const steps: Array<{ from: NodeId; to: NodeId; edge: number; forward: boolean }> = [];
    for (let i = 0; i + 1 < path.length; i++) {
      const a = path[i]!;
      const b = path[i + 1]!;
      let edge = -1;
      let forward = true;
      for (let j = ix.outOff[a]!; j < ix.outOff[a + 1]!; j++) {
        const e = ix.outEdges[j]!;
        if (ix.g.dst[e] === b && ((mask >>> ix.g.rel[e]!) & 1) === 1 && (edge < 0 || e < edge)) edge = e;
      }
      if (edge < 0) {
        forward = false;
        for (let j = ix.inOff[a]!; j < ix.inOff[a + 1]!; j++) {
          const e = ix.inEdges[j]!;
          if (ix.g.src[e] === b && (edge < 0 || e < edge)) edge = e;
        }
      }
      steps.push({ from: a, to: b, edge, forward });
    }
    return steps;
  }

  stats(): GraphStats {
    return this.statsIndex.get();
  }

  private *countStats(): Generator<void, GraphStats> {
    const ix = this.ix;
    let extracted = 0;
    let inferred = 0;
    let ambiguous = 0;
    let crossRepo = 0;
    let crossLanguage = 0;
    let dynamicRefs = 0;
    for (let e = 0; e < ix.m; e++) {
      if (e % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
      const conf = ix.edgeConf[e]!;
      if (conf === 1) inferred++;
      else if (conf === 2) ambiguous++;
      else extracted++;
      const rel = ix.relName(e);
      if (CROSS_LANGUAGE_RELATIONS.has(rel)) crossLanguage++;
      if (rel === 'dynamic_ref') dynamicRefs++;
      const ra = ix.node(ix.g.src[e]!).repo;
      const rb = ix.node(ix.g.dst[e]!).repo;
      if (ra !== undefined && rb !== undefined && ra !== rb) crossRepo++;
    }
    const sites = this.dynamicSites();
    return {
      nodes: ix.n,
      edges: ix.m,
      communities: ix.communities.size,
      extracted,
      inferred,
      ambiguous,
      cross_repo: crossRepo,
      cross_language: crossLanguage,
      dynamic_sites: sites.length,
      dynamic_sites_opaque: sites.filter((s) => s.key === undefined).length,
      dynamic_refs_linked: dynamicRefs,
    };
  }

  /** Reflection / dynamic-dispatch sites recorded by extraction (unresolved plain calls excluded). */
  dynamicSites(): DynamicSite[] {
    if (this.sitesCache) return this.sitesCache;
    const hazards = (Array.isArray(this.doc.graph?.hazards) ? this.doc.graph.hazards : []) as HazardSite[];
    const out: DynamicSite[] = [];
    for (const h of hazards) {
      const kind = siteKind(h.kind);
      if (!kind) continue;
      const extra = h as unknown as Record<string, unknown>;
      const key = typeof extra.key === 'string' ? extra.key : literalKey(String(h.text ?? ''));
      const hostId = this.ix.g.idOf.get(h.scope);
      const site: DynamicSite = {
        file: String(h.source_file ?? ''),
        line: lineOf(h.source_location),
        kind,
        host: hostId !== undefined ? this.ix.label(hostId) : String(h.scope ?? ''),
      };
      if (typeof extra.repo === 'string') site.repo = extra.repo;
      if (key !== undefined) site.key = key;
      out.push(site);
    }
    out.sort((a, b) => cmpStr(a.file, b.file) || a.line - b.line);
    this.sitesCache = out;
    return out;
  }

  /**
   * The dynamic-dispatch sites that could reach node v (what dynamic_hazards' target filter lists,
   * and the module around it): sites whose literal key is v's bare name, opaque sites in v's file,
   * and opaque sites in other files of v's folder (its module or package).
   */
  dynamicScope(v: NodeId): { name: string; keyed: DynamicSite[]; inFile: DynamicSite[]; inModule: DynamicSite[]; module: string } {
    const file = String(this.ix.node(v).source_file ?? '');
    const module = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    const name = this.ix.label(v).replace(/\(\)$/, '').replace(/^.*[.:#]/, '');
    const keyed: DynamicSite[] = [];
    const inFile: DynamicSite[] = [];
    const inModule: DynamicSite[] = [];
    for (const s of this.dynamicSites()) {
      if (s.key !== undefined) {
        if (s.key === name) keyed.push(s);
      } else if (file && s.file === file) inFile.push(s);
      else if (file && s.file.startsWith(module) && !s.file.includes('/', module.length)) inModule.push(s);
    }
    return { name, keyed, inFile, inModule, module };
  }

  /**
   * Why "no static dependent" is not proof that node v is dead code, when dynamic dispatch in its
   * scope could reach it (spec: dynamic_hazards): the sites that name it, else the opaque sites in its
   * file, else those in its module, each with a count and the first location. Undefined when none.
   */
  dynamicCaveat(v: NodeId): string | undefined {
    const { name, keyed, inFile, inModule, module } = this.dynamicScope(v);
    const first = (s: DynamicSite) => `first ${s.file}:${s.line}, ${s.kind} in ${s.host}`;
    const parts: string[] = [];
    if (keyed.length) parts.push(`${plural(keyed.length, 'dynamic-dispatch site')} name${keyed.length === 1 ? 's' : ''} '${sanitize(name)}' (${sanitize(first(keyed[0]!))})`);
    if (inFile.length) parts.push(`${plural(inFile.length, 'opaque dynamic-dispatch site')} in its file (${sanitize(first(inFile[0]!))})`);
    else if (inModule.length) parts.push(`${plural(inModule.length, 'opaque dynamic-dispatch site')} in its module ${sanitize(module || './')} (${sanitize(first(inModule[0]!))})`);
    if (!parts.length) return undefined;
    const see = inFile.length || !inModule.length ? `dynamic_hazards target=${this.safeQualified(v)}` : `dynamic_hazards path_glob=${sanitize(module)}*`;
    return `no static dependent is not proof of dead code: ${parts.join('; ')} could reach it at run time (see ${see})`;
  }

  /** Does anything outside node v (and, for a type, its members) depend on it along an impact edge? */
  hasStaticDependents(v: NodeId): boolean {
    const ix = this.ix;
    const { seeds } = this.foldSeeds(v);
    const own = new Set(seeds);
    for (const s of seeds) {
      for (let i = ix.inOff[s]!; i < ix.inOff[s + 1]!; i++) {
        const e = ix.inEdges[i]!;
        if (((IMPACT_MASK >>> ix.g.rel[e]!) & 1) === 1 && !own.has(ix.g.src[e]!)) return true;
      }
    }
    return false;
  }

  /** Call sites the extractor could not resolve, over the whole graph (computed once). */
  unresolvedTotal(): number {
    if (this.unresolvedCache === undefined) {
      let total = 0;
      const per = this.doc.graph?.unresolved_calls;
      if (per) for (const k in per) total += Number(per[k] || 0);
      this.unresolvedCache = total;
    }
    return this.unresolvedCache;
  }

  /** Test files that reach a hub (graph/test-reach.ts: the definition GRAPH_REPORT.md uses too). */
  testCount(v: NodeId): number {
    return (this.testReach ??= new TestReach(this.ix.g, this.ix)).count(v);
  }

  /** Nodes ranked by total degree (computed once per graph). */
  godNodes(): NodeId[] {
    return (this.godCache ??= this.rankByDegree());
  }

  private rankByDegree(): NodeId[] {
    const ix = this.ix;
    const ids: NodeId[] = [];
    for (let v = 0; v < ix.n; v++) if (ix.node(v).kind !== 'file') ids.push(v);
    const order = ix.labelOrder; // (label, id) order: ties sort without comparing strings
    ids.sort((a, b) => ix.degree[b]! - ix.degree[a]! || order[a]! - order[b]!);
    return ids;
  }

  /** Outgoing call targets for describe_node. */
  describeCallees(v: NodeId): NodeId[] {
    const ix = this.ix;
    const seeds = [v];
    const out: NodeId[] = [];
    const seen = new Set<NodeId>();
    for (const s of seeds) {
      for (let i = ix.outOff[s]!; i < ix.outOff[s + 1]!; i++) {
        const e = ix.outEdges[i]!;
        if (!DESCRIBE_CALL_RELATIONS.has(ix.relName(e))) continue;
        const u = ix.g.dst[e]!;
        if (!seen.has(u)) {
          seen.add(u);
          out.push(u);
        }
      }
    }
    return out;
  }

  /** Repo tags of a federated graph (node `repo` field), with node and edge counts. */
  repos(): Array<{ repo: string; nodes: number; edges: number }> {
    const ix = this.ix;
    const nodes = new Map<string, number>();
    for (let v = 0; v < ix.n; v++) {
      const r = ix.node(v).repo;
      if (typeof r === 'string' && r) nodes.set(r, (nodes.get(r) ?? 0) + 1);
    }
    if (!nodes.size) return [];
    const edges = new Map<string, number>();
    for (let e = 0; e < ix.m; e++) {
      const r = ix.node(ix.g.src[e]!).repo;
      if (typeof r === 'string' && r) edges.set(r, (edges.get(r) ?? 0) + 1);
    }
    return [...nodes.keys()].sort().map((repo) => ({ repo, nodes: nodes.get(repo)!, edges: edges.get(repo) ?? 0 }));
  }

  /** Nodes whose span encloses a line of a file, innermost first. */
  enclosing(file: string, line: number): NodeId | undefined {
    const ids = this.ix.byFile.get(file);
    if (!ids) return undefined;
    let best: NodeId | undefined;
    let bestSize = Infinity;
    for (const v of ids) {
      const span = this.ix.node(v).span;
      if (!span || this.ix.node(v).kind === 'file') continue;
      if (line >= span.start_line && line <= span.end_line) {
        const size = span.end_line - span.start_line;
        if (size < bestSize) {
          best = v;
          bestSize = size;
        }
      }
    }
    return best;
  }
}

/** Hubs whose test reach is computed ahead (the first page of god_nodes, its default size or more). */
const GOD_PAGE = 20;

function siteKind(kind: string): DynamicSite['kind'] | undefined {
  switch (kind) {
    case 'eval':
      return 'eval';
    case 'dynamic_import':
      return 'dynamic_import';
    case 'reflection':
    case 'dynamic_call':
    case 'computed_member':
      return 'reflection';
    default:
      return undefined;
  }
}

function literalKey(text: string): string | undefined {
  const m = /\[\s*(['"`])([^'"`]+)\1\s*\]|\(\s*(['"`])([^'"`]+)\3/.exec(text);
  return m ? (m[2] ?? m[4]) : undefined;
}

/** `L42` -> 42 (0 when absent). */
export function lineOf(location: unknown): number {
  const m = /(\d+)/.exec(String(location ?? ''));
  return m ? Number(m[1]) : 0;
}

function relId(rel: string): number {
  const i = (RELATIONS as readonly string[]).indexOf(rel);
  return i < 0 ? 31 : i;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export { IMPACT_RELATIONS };
