import { NONE, type ExtraColumn, type GraphSnapshot } from './snapshot.ts';

/**
 * The string side of graph.cbor's encoder (snapshot-encode.ts): the table of one encode, and the
 * memo an update keeps across encodes (lasting string numbers, the last encode's columns).
 */

/**
 * The string table of one encoding: indices in order of first use (the file's bytes depend on it).
 * Most lookups are answered without the map: a column's value often repeats the previous row's
 * (same file, same kind), and `L<line>` locations are indexed by their number. With a memo, strings
 * are numbered in its lasting dictionary, and a row copied from the last encode adds its strings by
 * number ({@link addNumber}) without any lookup.
 */
export class StringTable {
  private readonly index = new Map<string, number>();
  readonly list: string[] = [];
  /** With a memo: the string number of each entry of {@link list}. */
  readonly numbers: number[] = [];
  hasNul = false;
  private lineIndex = new Int32Array(1024).fill(-1);
  constructor(private readonly memo?: EncodeMemo) {
    memo?.startEncode();
  }
  add(value: string): number {
    if (this.memo) return this.addNumber(this.memo.numberOf(value));
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.list.length;
      this.index.set(value, i);
      this.push(value);
    }
    return i;
  }
  /** {@link add} of the memo's string number `g`. */
  addNumber(g: number): number {
    const memo = this.memo!;
    if (memo.seen[g] === memo.generation) return memo.at[g]!;
    const i = this.list.length;
    memo.seen[g] = memo.generation;
    memo.at[g] = i;
    this.numbers.push(g);
    this.list.push(memo.strings[g]!);
    if (memo.nul[g]) this.hasNul = true;
    return i;
  }
  /** {@link add} of entry `i` of the last encode's table ({@link NONE} stays NONE). */
  addFromLast(i: number, last: LastEncode): number {
    return i === NONE ? NONE : this.addNumber(last.tableNumbers[i]!);
  }
  private push(value: string): void {
    this.list.push(value);
    if (value.includes('\0')) this.hasNul = true;
  }
  opt(value: unknown): number {
    return typeof value === 'string' ? this.add(value) : NONE;
  }
  /** {@link add} through a one-entry cache for a column whose rows often repeat a value. */
  repeated(value: string, last: LastString): number {
    if (value === last.value) return last.index;
    last.value = value;
    return (last.index = this.add(value));
  }
  /** {@link opt} for a `L<line>` location. */
  location(value: unknown): number {
    if (typeof value !== 'string') return NONE;
    const line = locationLine(value);
    if (line < 0) return this.add(value);
    if (line >= this.lineIndex.length) {
      const bigger = new Int32Array(Math.max(2 * this.lineIndex.length, line + 1)).fill(-1);
      bigger.set(this.lineIndex);
      this.lineIndex = bigger;
    }
    let i = this.lineIndex[line]!;
    if (i < 0) this.lineIndex[line] = i = this.add(value);
    return i;
  }
}

/**
 * What {@link encodeGraph} keeps between encodes of successive versions of one graph (an update
 * re-encodes after every edit, and most node and link objects are the very same ones):
 * lasting string numbers, and the last encode's objects and columns, so an unchanged row is copied
 * (its strings added by number) instead of read and looked up field by field.
 */
export class EncodeMemo {
  private readonly dictionary = new Map<string, number>();
  readonly strings: string[] = [];
  /** Per string number: the encode that last added it to its table, and its index there. */
  seen = new Int32Array(1024);
  at = new Int32Array(1024);
  /** Per string number: 1 when the string holds a NUL (checked once, not at every encode). */
  nul = new Uint8Array(1024);
  generation = 0;
  last: LastEncode | null = null;
  /**
   * Where the next encode writes its bytes, when the holder provides an `allocate` (Node: a Buffer,
   * as cbor-x needs): one buffer reused by every encode instead of cbor-x growing a fresh one by
   * copies (~50 ms and ~30 MB of garbage per encode of a 10 MB graph.cbor). The bytes an encode
   * returns are then a view of it, and cbor-x goes on writing the process's later encodes there
   * (after those bytes): every cbor-x output must be used before the next graph encode, which writes
   * from the start again. The extraction pipeline writes each one out at once.
   */
  output: Uint8Array | null = null;
  allocate?: (bytes: number) => Uint8Array;

  numberOf(value: string): number {
    let g = this.dictionary.get(value);
    if (g === undefined) {
      g = this.strings.length;
      this.dictionary.set(value, g);
      this.strings.push(value);
      if (g >= this.seen.length) {
        const seen = new Int32Array(2 * this.seen.length);
        seen.set(this.seen);
        this.seen = seen;
        const at = new Int32Array(2 * this.at.length);
        at.set(this.at);
        this.at = at;
        const nul = new Uint8Array(2 * this.nul.length);
        nul.set(this.nul);
        this.nul = nul;
      }
      if (value.includes('\0')) this.nul[g] = 1;
    }
    return g;
  }

  startEncode(): void {
    this.generation++;
  }

  /**
   * The last encode's node objects were replaced one for one (`before[i]` by `after[i]`, same record,
   * e.g. re-keyed copies): rows are copied for the new objects. Ignored unless `before` are they.
   */
  replaceNodes(before: readonly object[], after: readonly object[]): void {
    const last = this.last;
    if (!last || last.nodes.length !== before.length || before.length !== after.length) return;
    for (let i = 0; i < before.length; i++) if (last.nodes[i] !== before[i]) return;
    last.nodes = after.slice();
  }

  /**
   * A memo whose last encode is the graph.cbor just decoded (`snap`) into `doc` (its rows, in order):
   * a process that read the previous graph from disk copies the rows its update keeps, too.
   */
  static fromDecoded(snap: GraphSnapshot, doc: { nodes: readonly object[]; links: readonly object[] }): EncodeMemo {
    const memo = new EncodeMemo();
    const tableNumbers = new Int32Array(snap.strings.length);
    for (let i = 0; i < snap.strings.length; i++) tableNumbers[i] = memo.numberOf(snap.strings[i]!);
    memo.last = {
      nodes: doc.nodes.slice(), links: doc.links.slice(), tableNumbers,
      node: snap.node, link: snap.link, relations: snap.relations, nodeColumns: snap.nodeColumns, linkColumns: snap.linkColumns,
      nodeRest: snap.nodeExtras, linkRest: snap.linkExtras, extraRows: new WeakMap(),
      copyable: doc.nodes.length === snap.nodeCount && doc.links.length === snap.linkCount,
    };
    return memo;
  }

  /** Strings that later versions no longer use pile up over a long session: a worn memo is best replaced. */
  get worn(): boolean {
    return this.strings.length > 2 * (this.last?.tableNumbers.length ?? 0) + 65_536;
  }
}

/** The last encode, as far as the next one can copy from it. */
export interface LastEncode {
  nodes: readonly object[];
  links: readonly object[];
  /** String number of each entry of its table. */
  tableNumbers: Int32Array;
  node: NodeColumns & { paramName: Uint32Array; paramType: Uint32Array; paramOptional: Uint8Array; paramDefault: Uint32Array };
  link: GraphSnapshot['link'];
  relations: string[];
  nodeColumns: ExtraColumn[];
  linkColumns: ExtraColumn[];
  /** The fields that travelled per row (no column takes them), by row: a copied row takes its record. */
  nodeRest: ReadonlyMap<number, Record<string, unknown>>;
  linkRest: ReadonlyMap<number, Record<string, unknown>>;
  /** Per extra-column list: which rows have a value in one of its columns (see snapshot-encode's extraRows). */
  extraRows: WeakMap<ExtraColumn[], Uint8Array>;
  /** Whether its rows line up with the document it was read into (a decoded graph.cbor). */
  copyable: boolean;
}

/** The node columns of one string each, in the order nodeRow adds them to the table. */
export const SCALAR_STRING_COLUMNS = ['id', 'label', 'fileType', 'sourceFile', 'sourceLocation', 'kind', 'visibility', 'language', 'doc'] as const;

export interface NodeColumns {
  id: Uint32Array; label: Uint32Array; fileType: Uint32Array; sourceFile: Uint32Array; sourceLocation: Uint32Array;
  kind: Uint32Array; visibility: Uint32Array; language: Uint32Array; doc: Uint32Array; community: Int32Array;
  hasCommunity: Uint8Array; isTest: Uint8Array; span: Int32Array; hasSpan: Uint8Array; sigRaw: Uint32Array;
  sigReturns: Uint32Array; paramOffsets: Uint32Array;
}

/**
 * Which rows an encode may copy from the memo's last encode: `nodeFrom[i]` / `linkFrom[j]` is the
 * row of the last encoded document whose record equals row i / j of this one in everything but the
 * community number (-1: none), as an update's graph.json reuse plan knows. A row is copied only when
 * its object is also the very object the last encode read there.
 */

export interface LastString {
  value: string | undefined;
  index: number;
}

export const lastString = (): LastString => ({ value: undefined, index: -1 });

/** The line of a canonical `L<digits>` location (no leading zero), else -1. */
function locationLine(value: string): number {
  const n = value.length;
  if (n < 2 || n > 8 || value.charCodeAt(0) !== 0x4c) return -1;
  let line = 0;
  for (let k = 1; k < n; k++) {
    const d = value.charCodeAt(k) - 0x30;
    if (d < 0 || d > 9 || (d === 0 && k === 1 && n > 2)) return -1;
    line = line * 10 + d;
  }
  return line;
}
