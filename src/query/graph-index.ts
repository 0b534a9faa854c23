import { edgeCsr, indexGraph, type IndexedGraph } from '../graph/indexed-graph.ts';
import { membersOf, TYPE_KINDS } from '../graph/members.ts';
import { OTHER_RELATION_ID, RELATIONS, type GraphDocument, type GraphNode, type NodeId } from '../graph/model.ts';
import { buildPostings, type PostingList, type Postings } from './postings.ts';
import { bareName } from './tokens.ts';
import type { EdgeColumns } from './snapshot-index.ts';
import { SLICE_ITEMS, Sliced, type WarmStep } from './sliced.ts';

/**
 * Everything the query engine needs, built once per graph load: out/in CSR over edge ids, degrees,
 * name lookup maps, and the token postings used by `query_graph` ranking. Plain typed arrays and maps,
 * so a call never re-reads or re-parses the document. Browser-safe.
 */
export class GraphIndex {
  readonly g: IndexedGraph;
  readonly n: number;
  readonly m: number;
  /** outOff[v]..outOff[v+1] indexes outEdges: edge ids whose source is v. */
  readonly outOff: Uint32Array;
  readonly outEdges: Uint32Array;
  readonly inOff: Uint32Array;
  readonly inEdges: Uint32Array;
  /** Total degree with multiplicity (every relation, members included). */
  readonly degree: Uint32Array;
  /** Lower-cased label -> node ids. */
  readonly byLabel = new IdsByKey<string>();
  /** Lower-cased labels by id, for substring search. */
  readonly lowerLabels: string[];
  /** Community of each node, -1 when none. */
  readonly community: Int32Array;
  private sortedCache: string[] | undefined;
  // The lazy indexes: built on first use, or slice by slice in idle time (`warmSteps`).
  private readonly bareIndex = new Sliced(() => this.buildBare());
  private readonly byFileIndex = new Sliced(() => this.buildByFile());
  private readonly postingsIndex = new Sliced(() => this.buildPostings());
  private readonly labelCountIndex = new Sliced(() => this.buildLabelCount());
  private readonly communitiesIndex = new Sliced(() => this.buildCommunities());
  private readonly labelOrderIndex = new Sliced(() => this.buildLabelOrder());
  /** Per edge: confidence (0 EXTRACTED, 1 INFERRED, 2 AMBIGUOUS) and the line of the call/reference site. */
  readonly edgeConf: Uint8Array;
  readonly edgeLine: Uint32Array;
  /** Edges whose site file differs from their source node's file. */
  private readonly edgeFile: Map<number, string> = new Map();
  /** Relation names outside RELATIONS (stored as `other` in the rel column). */
  private readonly otherRel: Map<number, string> = new Map();

  /**
   * @param options.releaseLinks drop the per-link objects after their fields are copied into
   *   columns (the server does, to keep resident memory near the graph's size); `g.links` is then empty.
   */
  constructor(doc: GraphDocument, options: { releaseLinks?: boolean; edges?: EdgeColumns } = {}) {
    const g = options.edges?.indexed ?? indexGraph(doc);
    this.g = g;
    const n = g.nodes.length;
    const m = g.src.length;
    this.n = n;
    this.m = m;
    this.edgeConf = options.edges?.edgeConf ?? new Uint8Array(m);
    this.edgeLine = options.edges?.edgeLine ?? new Uint32Array(m);
    if (options.edges) {
      this.edgeFile = options.edges.edgeFile;
      this.otherRel = options.edges.otherRel;
    }
    for (let e = 0; e < (options.edges ? 0 : m); e++) {
      const link = g.links[e]!;
      this.edgeConf[e] = link.confidence === 'INFERRED' ? 1 : link.confidence === 'AMBIGUOUS' ? 2 : 0;
      const loc = link.source_location;
      if (loc) {
        const match = /(\d+)/.exec(String(loc));
        if (match) this.edgeLine[e] = Number(match[1]);
      }
      const srcFile = g.nodes[g.src[e]!]!.source_file;
      if (link.source_file && link.source_file !== srcFile) this.edgeFile.set(e, String(link.source_file));
      if (g.rel[e] === OTHER_RELATION_ID && link.relation !== 'other') this.otherRel.set(e, String(link.relation));
    }
    if (options.releaseLinks) {
      g.links = [];
      doc.links = [];
    }
    const csr = options.edges?.csr ?? edgeCsr(n, g.src, g.dst);
    this.outOff = csr.outOff;
    this.outEdges = csr.outEdges;
    this.inOff = csr.inOff;
    this.inEdges = csr.inEdges;
    const degree = new Uint32Array(n);
    for (let v = 0; v < n; v++) degree[v] = this.outOff[v + 1]! - this.outOff[v]! + this.inOff[v + 1]! - this.inOff[v]!;
    this.degree = degree;

    this.community = new Int32Array(n).fill(-1);
    this.lowerLabels = new Array<string>(n);
    for (let v = 0; v < n; v++) {
      const node = g.nodes[v]!;
      const lower = String(node.label ?? node.id).toLowerCase();
      this.lowerLabels[v] = lower;
      this.byLabel.add(lower, v);
      const community = node.community;
      if (typeof community === 'number') this.community[v] = community;
    }
  }

  /** Source file -> node ids defined in it (the file node first when there is one). Built on first use. */
  get byFile(): Map<string, NodeId[]> {
    return this.byFileIndex.get();
  }

  private *buildByFile(): Generator<void, Map<string, NodeId[]>> {
    const map = new Map<string, NodeId[]>();
    // Nodes come grouped by file, so the previous file's list usually takes the next node.
    let lastFile: string | undefined;
    let lastList: NodeId[] | undefined;
    for (let v = 0; v < this.n; v++) {
      if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
      const node = this.g.nodes[v]!;
      const file = node.source_file;
      if (!file) continue;
      let list = file === lastFile ? lastList : map.get(file);
      if (!list) map.set(file, (list = []));
      if (node.kind === 'file') list.unshift(v);
      else list.push(v);
      lastFile = file;
      lastList = list;
    }
    return map;
  }

  /** Community id -> members. Built on first use. */
  get communities(): Map<number, NodeId[]> {
    return this.communitiesIndex.get();
  }

  private *buildCommunities(): Generator<void, Map<number, NodeId[]>> {
    const map = new Map<number, NodeId[]>();
    for (let v = 0; v < this.n; v++) {
      if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
      if (this.community[v]! >= 0) push(map, this.community[v]!, v);
    }
    return map;
  }

  /** Lower-cased bare name -> node ids (where it differs from the label). Built on first use. */
  get byBare(): Map<string, NodeId[]> {
    return this.bareIndex.get();
  }

  private *buildBare(): Generator<void, Map<string, NodeId[]>> {
    const map = new Map<string, NodeId[]>();
    for (let v = 0; v < this.n; v++) {
      if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
      const bare = bareName(this.label(v)).toLowerCase();
      if (bare && bare !== this.lowerLabels[v]) push(map, bare, v);
    }
    return map;
  }

  /** Count of nodes sharing each exact label, to mark duplicates. Built on first use. */
  get labelCount(): Map<string, number> {
    return this.labelCountIndex.get();
  }

  private *buildLabelCount(): Generator<void, Map<string, number>> {
    const map = new Map<string, number>();
    for (let v = 0; v < this.n; v++) {
      if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
      const label = this.label(v);
      map.set(label, (map.get(label) ?? 0) + 1);
    }
    return map;
  }

  /** Sorted distinct labels (original case) for completions. Built on first use. */
  get sortedLabels(): string[] {
    return (this.sortedCache ??= [...this.labelCount.keys()].sort());
  }

  /**
   * Each node's place in the order (label by UTF-16 code units, then id): comparing two places
   * compares the labels, so listings sort by label without a string comparison per step. Built on
   * first use (or in idle time).
   */
  get labelOrder(): Uint32Array {
    return this.labelOrderIndex.get();
  }

  /**
   * The node ids sorted by (label, id) in slices: runs of SLICE_ITEMS sorted whole, then bottom-up
   * merges (stable, so equal labels keep id order).
   */
  private *buildLabelOrder(): Generator<void, Uint32Array> {
    const n = this.n;
    const labels = new Array<string>(n);
    let src = new Uint32Array(n);
    for (let v = 0; v < n; v++) {
      if (v % SLICE_ITEMS === SLICE_ITEMS - 1) yield;
      labels[v] = this.label(v);
      src[v] = v;
    }
    const byLabel = (a: number, b: number) => (labels[a]! < labels[b]! ? -1 : labels[a]! > labels[b]! ? 1 : a - b);
    for (let lo = 0; lo < n; lo += SLICE_ITEMS) {
      src.subarray(lo, Math.min(n, lo + SLICE_ITEMS)).sort(byLabel);
      yield;
    }
    let dst = new Uint32Array(n);
    let work = 0;
    for (let width = SLICE_ITEMS; width < n; width *= 2) {
      for (let lo = 0; lo < n; lo += 2 * width) {
        const mid = Math.min(lo + width, n);
        const hi = Math.min(lo + 2 * width, n);
        let i = lo;
        let j = mid;
        let k = lo;
        while (i < mid && j < hi) dst[k++] = labels[src[j]!]! < labels[src[i]!]! ? src[j++]! : src[i++]!;
        while (i < mid) dst[k++] = src[i++]!;
        while (j < hi) dst[k++] = src[j++]!;
        work += hi - lo;
        if (work >= SLICE_ITEMS) {
          work = 0;
          yield;
        }
      }
      [src, dst] = [dst, src];
    }
    const order = dst; // reused: every slot is written below
    for (let i = 0; i < n; i++) order[src[i]!] = i;
    return order;
  }

  /**
   * Label stem token -> node ids, and path stem token -> node ids (query_graph ranking). Built on
   * first use (or by `warm()`), so a server answers its first lookup without paying for them.
   */
  get labelPostings(): PostingList {
    return this.postingsIndex.get().label;
  }

  get pathPostings(): PostingList {
    return this.postingsIndex.get().path;
  }

  /** Owner stem token -> node ids: the words of the names a member sits in (`PreparedRequest` of `PreparedRequest.prepare_body`). */
  get ownerPostings(): PostingList {
    return this.postingsIndex.get().owner;
  }

  /** Doc-comment stem token -> node ids (the words a symbol's comment explains it with). */
  get docPostings(): PostingList {
    return this.postingsIndex.get().doc;
  }

  /** Number of words in each node's bare label, scaffolding verbs aside (ranking penalizes long labels). */
  get labelWords(): Uint8Array {
    return this.postingsIndex.get().words;
  }

  /**
   * The lookup indexes as warm-up steps, the ones every listing or lookup needs first (label order,
   * bare names, label counts), then the rest; the ranking postings are `postingsWarmStep`.
   */
  warmSteps(): WarmStep[] {
    return [this.labelOrderIndex, this.bareIndex, this.labelCountIndex, this.byFileIndex, this.communitiesIndex].map((ix) => (deadline: number) => ix.step(deadline));
  }

  /** The ranking postings (query_graph only, and the biggest build) as a warm-up step. */
  postingsWarmStep(): WarmStep {
    return (deadline) => this.postingsIndex.step(deadline);
  }

  /** The ranking postings whole (built now if they are not yet). */
  postings(): Postings {
    return this.postingsIndex.get();
  }

  /**
   * Take postings built elsewhere from the same graph (a worker thread, see rank-index.node.ts);
   * false when this index built its own first.
   */
  adoptPostings(postings: Postings): boolean {
    return this.postingsIndex.adopt(postings);
  }

  /** Build the lazy indexes now. */
  warm(): void {
    for (const step of [...this.warmSteps(), this.postingsWarmStep()]) step(Infinity);
  }

  private buildPostings(): Generator<void, Postings> {
    const g = this.g;
    return buildPostings({ n: this.n, label: (v) => this.label(v), file: (v) => g.nodes[v]!.source_file, doc: (v) => g.nodes[v]!.doc });
  }

  node(v: NodeId): GraphNode {
    return this.g.nodes[v]!;
  }

  label(v: NodeId): string {
    const node = this.g.nodes[v]!;
    return String(node.label ?? node.id);
  }

  relName(e: number): string {
    const r = this.g.rel[e]!;
    if (r === OTHER_RELATION_ID) return this.otherRel.get(e) ?? 'other';
    return RELATIONS[r] ?? 'other';
  }

  /** File of an edge's call/reference site (the source node's file unless recorded otherwise). */
  edgeSiteFile(e: number): string {
    return this.edgeFile.get(e) ?? String(this.g.nodes[this.g.src[e]!]!.source_file ?? '');
  }

  /** Confidence name of an edge. */
  confidence(e: number): 'EXTRACTED' | 'INFERRED' | 'AMBIGUOUS' {
    const c = this.edgeConf[e]!;
    return c === 1 ? 'INFERRED' : c === 2 ? 'AMBIGUOUS' : 'EXTRACTED';
  }

  /** Members of a type node (targets of its `method` / `contains` edges that are not files). */
  members(v: NodeId): NodeId[] {
    return membersOf(this.g, this, v);
  }

  isType(v: NodeId): boolean {
    return TYPE_KINDS.has(String(this.g.nodes[v]!.kind));
  }
}

function push<K>(map: Map<K, NodeId[]>, key: K, v: NodeId): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}

/** Key -> node ids without an array per key (most keys name one node); `get` lists them. */
export class IdsByKey<K> {
  private readonly one = new Map<K, NodeId>();
  private readonly many = new Map<K, NodeId[]>();

  add(key: K, v: NodeId): void {
    const first = this.one.get(key);
    if (first === undefined) this.one.set(key, v);
    else {
      const list = this.many.get(key);
      if (list) list.push(v);
      else this.many.set(key, [first, v]);
    }
  }

  get(key: K): NodeId[] | undefined {
    const list = this.many.get(key);
    if (list) return list;
    const v = this.one.get(key);
    return v === undefined ? undefined : [v];
  }

  has(key: K): boolean {
    return this.one.has(key);
  }
}
