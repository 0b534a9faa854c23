import type { NodeId } from '../graph/model.ts';
import { bareName, splitWords, stem, STOPWORDS } from './tokens.ts';

/**
 * The token postings `query_graph` ranks with: term -> the node ids whose label, path, owner type or
 * doc comment carries it, in increasing id order. Packed: one term table shared by the four kinds,
 * and per kind an offsets array and one Int32Array of ids (a list is a view into it). Built by
 * interning every token once and inverting (node, term) pairs with a counting sort, instead of a map
 * of arrays with a push per pair: on prisma (24k nodes, 18k terms, 333k pairs) it retains 3.2 MB
 * instead of 6.3 MB and leaves ~18k fewer arrays for the GC to mark, for about the same CPU (min /
 * median of 5 interleaved builds, loaded machine: 219 / 249 ms against 234 / 307 ms). Browser-safe.
 */

/** One kind's term -> node ids. Only non-empty lists exist (`has` is false for an empty one). */
export class PostingList {
  constructor(
    private readonly terms: ReadonlyMap<string, number>,
    /** Per term id, where its ids start in `ids` (length: terms + 1). */
    readonly off: Uint32Array,
    readonly ids: Int32Array,
  ) {}

  get(term: string): Int32Array | undefined {
    const t = this.terms.get(term);
    if (t === undefined) return undefined;
    const a = this.off[t]!;
    const b = this.off[t + 1]!;
    return a === b ? undefined : this.ids.subarray(a, b);
  }

  has(term: string): boolean {
    return this.get(term) !== undefined;
  }

  /** Every term of the table (shared by the four kinds), in term-id order. */
  termTable(): IterableIterator<string> {
    return this.terms.keys();
  }

  /** The non-empty lists as [term, ids], in term order (tests compare builds with it). */
  *[Symbol.iterator](): IterableIterator<[string, NodeId[]]> {
    for (const [term] of this.terms) {
      const list = this.get(term);
      if (list) yield [term, [...list]];
    }
  }
}

export interface Postings {
  label: PostingList;
  path: PostingList;
  doc: PostingList;
  owner: PostingList;
  /** Number of words in each node's bare label, scaffolding verbs aside (ranking penalizes long labels). */
  words: Uint8Array;
}

/** What the build reads of each node. */
export interface PostingsSource {
  n: number;
  label(v: NodeId): string;
  file(v: NodeId): string | undefined;
  doc(v: NodeId): unknown;
}

/** (node, term) pairs of one kind, in node order. */
class Pairs {
  nodes: number[] = [];
  terms: number[] = [];
  add(v: number, t: number): void {
    this.nodes.push(v);
    this.terms.push(t);
  }
}

/** What a label contributes, the same for every node carrying it. */
interface LabelTerms {
  words: number;
  /** Label terms (stems in split order, then the whole bare name when it is not one of them). */
  label: number[];
  /** Owner terms not among the label's stems. */
  owner: number[];
  /** The label's stems, for the doc comment's filter. */
  stems: Set<string>;
}

/** Nodes between two yields while pairing (~1 us a node). */
const NODES_PER_SLICE = 512;
/** Pairs between two yields while inverting. */
const PAIRS_PER_SLICE = 1 << 16;

/**
 * Build the postings of `src`, yielding between slices (see Sliced). The lists hold exactly the
 * nodes the rules below give, each once per term and kind, in increasing id order:
 * - label: the stems of the bare name's words, and the whole bare name lower-cased;
 * - owner: the stems of the words of the label before its bare name (the type a member sits in),
 *   except those the label already has;
 * - path: the stems (2+ letters) of the file path's words, extension dropped;
 * - doc: the stems of the doc comment's first 240 characters' words (3+ letters, no stopwords), except
 *   the label's.
 */
export function* buildPostings(src: PostingsSource): Generator<void, Postings> {
  const n = src.n;
  const words = new Uint8Array(n);
  const termIds = new Map<string, number>();
  const intern = (term: string): number => {
    let t = termIds.get(term);
    if (t === undefined) termIds.set(term, (t = termIds.size));
    return t;
  };
  const stems = new Map<string, string>();
  const stemOf = (w: string): string => {
    let s = stems.get(w);
    if (s === undefined) stems.set(w, (s = stem(w)));
    return s;
  };
  const byLabel = new Map<string, LabelTerms>();
  const ownerWords = new Map<string, string[]>();
  const fileTerms = new Map<string, number[]>();
  const label = new Pairs();
  const owner = new Pairs();
  const path = new Pairs();
  const doc = new Pairs();
  const labelTerms = (whole: string): LabelTerms => {
    let known = byLabel.get(whole);
    if (known) return known;
    const bare = bareName(whole) || whole;
    const split = splitWords(bare);
    // Scaffolding verbs (`get`, `handle`) are not words a question leaves uncovered.
    let content = 0;
    for (const w of split) if (!STOPWORDS.has(w)) content++;
    const seen = new Set<string>();
    const terms: number[] = [];
    for (const w of split) {
      const s = stemOf(w);
      if (!seen.has(s)) {
        seen.add(s);
        terms.push(intern(s));
      }
    }
    const full = bare.toLowerCase();
    if (full && !seen.has(full)) terms.push(intern(full));
    const owners: number[] = [];
    const cut = whole.lastIndexOf(bare);
    if (cut > 0) {
      // Members of one type share its words: split and stem each owner prefix once.
      const prefix = whole.slice(0, cut);
      let ws = ownerWords.get(prefix);
      if (!ws) ownerWords.set(prefix, (ws = [...new Set(splitWords(prefix).map(stemOf))]));
      for (const s of ws) if (!seen.has(s)) owners.push(intern(s));
    }
    known = { words: Math.min(255, Math.max(1, content)), label: terms, owner: owners, stems: seen };
    byLabel.set(whole, known);
    return known;
  };
  for (let v = 0; v < n; v++) {
    if (v % NODES_PER_SLICE === NODES_PER_SLICE - 1) yield;
    const lt = labelTerms(src.label(v));
    words[v] = lt.words;
    for (const t of lt.label) label.add(v, t);
    for (const t of lt.owner) owner.add(v, t);
    const file = src.file(v);
    if (file) {
      let ft = fileTerms.get(file);
      if (!ft) {
        const toks = new Set(splitWords(file.replace(/\.[A-Za-z0-9]+$/, '')).map(stemOf).filter((t) => t.length >= 2));
        fileTerms.set(file, (ft = [...toks].map(intern)));
      }
      for (const t of ft) path.add(v, t);
    }
    // The comment's first 240 characters: its summary, not a long tutorial's every word.
    const text = src.doc(v);
    if (typeof text === 'string' && text) {
      const docSeen = new Set<string>();
      for (const w of splitWords(text.slice(0, 240))) {
        if (w.length < 3 || STOPWORDS.has(w)) continue;
        const s = stemOf(w);
        if (lt.stems.has(s) || docSeen.has(s)) continue;
        docSeen.add(s);
        doc.add(v, intern(s));
      }
    }
  }
  const terms = termIds.size;
  const lists: PostingList[] = [];
  for (const pairs of [label, path, doc, owner]) {
    const off = new Uint32Array(terms + 1);
    const ts = pairs.terms;
    for (let i = 0; i < ts.length; i++) off[ts[i]! + 1]!++;
    for (let t = 0; t < terms; t++) off[t + 1]! += off[t]!;
    yield;
    const fill = off.slice(0, terms);
    const ids = new Int32Array(ts.length);
    const vs = pairs.nodes;
    for (let i = 0; i < ts.length; i++) {
      if (i % PAIRS_PER_SLICE === PAIRS_PER_SLICE - 1) yield;
      ids[fill[ts[i]!]!++] = vs[i]!;
    }
    lists.push(new PostingList(termIds, off, ids));
  }
  const [labelList, pathList, docList, ownerList] = lists as [PostingList, PostingList, PostingList, PostingList];
  return { label: labelList, path: pathList, doc: docList, owner: ownerList, words };
}

/**
 * Postings as a worker thread sends them (see packPostings): the term table in term-id order, and
 * per kind (label, path, doc, owner) its offsets and ids, typed arrays a postMessage can transfer.
 */
export interface PackedPostings {
  terms: string[];
  off: Uint32Array[];
  ids: Int32Array[];
  words: Uint8Array;
}

const KINDS = ['label', 'path', 'doc', 'owner'] as const;

/** `p` as transferable parts (its arrays are shared, not copied). */
export function packPostings(p: Postings): PackedPostings {
  return { terms: [...p.label.termTable()], off: KINDS.map((k) => p[k].off), ids: KINDS.map((k) => p[k].ids), words: p.words };
}

/** The postings `packPostings` took apart: the same lists (one term map, built here). */
export function unpackPostings(packed: PackedPostings): Postings {
  const termIds = new Map<string, number>();
  for (let t = 0; t < packed.terms.length; t++) termIds.set(packed.terms[t]!, t);
  const [label, path, doc, owner] = KINDS.map((_, k) => new PostingList(termIds, packed.off[k]!, packed.ids[k]!)) as [PostingList, PostingList, PostingList, PostingList];
  return { label, path, doc, owner, words: packed.words };
}
