import type { IndexedGraph } from './indexed-graph.ts';
import { TYPE_KINDS } from './members.ts';
import { relationMask, relationId, type GraphNode, type NodeId } from './model.ts';
import { isTestFile, isTestPath } from './test-paths.ts';

/**
 * Community names a person can read: where the community lives and what it is about, e.g.
 * `src/adapter/bun — serveStatic, getConnInfo`. The place is the members' dominant folder, or their
 * dominant file when that file holds most of them or the folder is the repository root (a flat Go or
 * Python package has every file there); the symbols are its most used public symbols. In a
 * community that mixes code and its tests the code names it; one that is (almost: MOSTLY_TESTS)
 * only test code is named `tests: <place> — …`. One naming for graph.json's `community_labels`, which
 * GRAPH_REPORT.md, the MCP tools and resources and the explorer print. Browser-safe.
 */

/**
 * The relations by which one symbol uses another: what "used from N places" counts and what makes
 * two communities connected. Not imports (a file importing a name says it will use it; the use is
 * its own edge), not `tests` (a test using its subject), not containment.
 */
export const USE_RELATIONS = [
  'calls', 'references', 'uses', 'inherits', 'extends', 'implements', 'mixes_in', 'embeds', 'instantiates',
  'invokes', 'overrides', 'depends_on', 'dynamic_ref', 'reads_from', 'binds_native', 'calls_service', 'handled_by',
] as const;

export const USE_MASK = relationMask(USE_RELATIONS);

/** Kinds that describe data rather than behaviour. */
const SHAPE_KINDS: ReadonlySet<string> = new Set(['type_alias', 'interface', 'enum', 'field']);

/** Kinds that belong to a type. */
const MEMBER_KINDS: ReadonlySet<string> = new Set(['method', 'constructor', 'field']);

/** The share of test code from which a community is named `tests: …` (its few code members still name it). */
const MOSTLY_TESTS = 0.9;

/** Symbols named per community. */
const NAME_SYMBOLS = 2;
/** A symbol name longer than this is cut (a label stays one readable line). */
const MAX_SYMBOL_NAME = 48;

/** How much each node is used from outside its own file, and what the naming reads per node. */
export interface SymbolUse extends NodeFiles {
  /** Use edges into the node (or, for a type, into its members) from code outside its file and outside tests. */
  fromCode: Uint32Array;
  /** The same, test code included. */
  fromAny: Uint32Array;
  /** The type a member belongs to (-1: none). */
  owner: Int32Array;
  /** How good a name the node makes, wherever it sits (lower is better; see NAME_TIERS). */
  tier: Uint8Array;
}

/**
 * Name tiers: used public code names a community best, then used public types (what the code does
 * says more than the shapes of its data), then used public errors (raised from everywhere, they say
 * little about a part), used private symbols, the unused. A symbol outside the place the label names
 * comes after every symbol in it (a shared helper the partition put here says nothing about the place).
 * Files and constructors never name one (`never`; a constructor's uses count for its type).
 */
export const NAME_TIERS = { code: 0, shape: 1, error: 2, private: 3, unused: 4, unusedPrivate: 5, elsewhere: 6, never: 255 } as const;
const ERROR_NAME = /(error|exception)s?$/i;

/** Each node's file (as an index) and whether it is test code. */
export interface NodeFiles {
  /** Index of the node's file in `files` (-1: none). */
  fileOf: Int32Array;
  files: string[];
  /** 1 when the node sits in a test file (graph/test-paths.ts isTestFile). */
  test: Uint8Array;
  /** Per file index: 1 for a test file. */
  testFile: Uint8Array;
  /** Per file index: its folder's index in `dirs` ('.' for the root). */
  dirOfFile: Int32Array;
  dirs: string[];
}

/** Test-path answers by path, kept across runs (an update asks about the same paths again). Bounded. */
const TEST_PATHS = new Map<string, boolean>();
const TEST_PATHS_MAX = 1 << 17;

function testPath(path: string): boolean {
  let t = TEST_PATHS.get(path);
  if (t === undefined) {
    if (TEST_PATHS.size >= TEST_PATHS_MAX) TEST_PATHS.clear();
    TEST_PATHS.set(path, (t = isTestPath(path)));
  }
  return t;
}

export function nodeFiles(ig: Pick<IndexedGraph, 'nodes' | 'idOf'>): NodeFiles {
  const nodes = ig.nodes;
  const n = nodes.length;
  const files: string[] = [];
  const fileOf = new Int32Array(n).fill(-1);
  const fileIds = new Map<string, number>();
  let lastFile = '';
  let lastId = -1;
  // Nodes come grouped by file: a run shares one lookup.
  for (let v = 0; v < n; v++) {
    const file = String(nodes[v]!.source_file ?? '');
    if (file !== lastFile) {
      lastFile = file;
      let id = fileIds.get(file);
      if (id === undefined && file) fileIds.set(file, (id = files.push(file) - 1));
      lastId = id ?? -1;
    }
    fileOf[v] = file ? lastId : -1;
  }
  const testFile = new Uint8Array(files.length);
  const dirOfFile = new Int32Array(files.length);
  const dirs: string[] = [];
  const dirIds = new Map<string, number>();
  for (let f = 0; f < files.length; f++) {
    const file = files[f]!;
    if (isTestFile(ig, file, testPath)) testFile[f] = 1;
    const dir = dirOf(file);
    let d = dirIds.get(dir);
    if (d === undefined) dirIds.set(dir, (d = dirs.push(dir) - 1));
    dirOfFile[f] = d;
  }
  const test = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (fileOf[v]! >= 0 && testFile[fileOf[v]!]) test[v] = 1;
  return { fileOf, files, test, testFile, dirOfFile, dirs };
}

/**
 * The counts of each indexed graph, kept while it lives: an extract names the communities and then
 * renders the report over the same IndexedGraph, whose nodes and edges do not change in between.
 */
const USE_OF = new WeakMap<object, SymbolUse>();

/** Use counts of every node in one pass over the edges (computed once per indexed graph). */
export function symbolUse(ig: Pick<IndexedGraph, 'nodes' | 'idOf' | 'src' | 'dst' | 'rel'>): SymbolUse {
  let use = USE_OF.get(ig);
  if (!use) USE_OF.set(ig, (use = countUses(ig)));
  return use;
}

/**
 * `to` indexes the same graph structure as `from` (same nodes with the same ids, labels, kinds,
 * files and visibility; the same edges): its use counts are `from`'s (an update that only moved
 * lines). A no-op when `from` has none yet.
 */
export function carrySymbolUse(from: object, to: object): void {
  const use = USE_OF.get(from);
  if (use) USE_OF.set(to, use);
}

function countUses(ig: Pick<IndexedGraph, 'nodes' | 'idOf' | 'src' | 'dst' | 'rel'>): SymbolUse {
  const nodes = ig.nodes;
  const n = nodes.length;
  const located = nodeFiles(ig);
  const { fileOf, test } = located;
  const owner = new Int32Array(n).fill(-1);
  const method = relationId('method');
  const contains = relationId('contains');
  const defines = relationId('defines');
  for (let e = 0; e < ig.src.length; e++) {
    const r = ig.rel[e]!;
    if (r !== method && r !== contains && r !== defines) continue;
    const s = ig.src[e]!;
    if (TYPE_KINDS.has(String(nodes[s]!.kind)) && nodes[ig.dst[e]!]!.kind !== 'file') owner[ig.dst[e]!] = s;
  }
  ownersByLabel(nodes, owner);

  const fromCode = new Uint32Array(n);
  const fromAny = new Uint32Array(n);
  for (let e = 0; e < ig.src.length; e++) {
    if (((USE_MASK >>> ig.rel[e]!) & 1) === 0) continue;
    const s = ig.src[e]!;
    const t = ig.dst[e]!;
    const file = fileOf[s]!;
    const code = test[s] === 0;
    if (file !== fileOf[t]) {
      fromAny[t]!++;
      if (code) fromCode[t]!++;
    }
    const o = owner[t]!;
    if (o >= 0 && o !== s && fileOf[o] !== file) {
      fromAny[o]!++;
      if (code) fromCode[o]!++;
    }
  }
  const tier = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    const node = nodes[v]!;
    const used = fromAny[v]! > 0;
    if (node.kind === 'file' || node.kind === 'constructor') tier[v] = NAME_TIERS.never;
    else if (!isPublic(node)) tier[v] = used ? NAME_TIERS.private : NAME_TIERS.unusedPrivate;
    else if (!used) tier[v] = NAME_TIERS.unused;
    else if (ERROR_NAME.test(String(node.label ?? ''))) tier[v] = NAME_TIERS.error;
    else tier[v] = SHAPE_KINDS.has(String(node.kind)) ? NAME_TIERS.shape : NAME_TIERS.code;
  }
  return { ...located, fromCode, fromAny, owner, tier };
}

/**
 * Members no containment edge ties to their type (Go declares methods apart from their struct, in
 * any file of the package): `Type.member` belongs to the one type labelled `Type`, when there is one.
 */
function ownersByLabel(nodes: readonly GraphNode[], owner: Int32Array): void {
  const types = new Map<string, number>();
  for (let v = 0; v < nodes.length; v++) {
    if (!TYPE_KINDS.has(String(nodes[v]!.kind))) continue;
    const label = String(nodes[v]!.label ?? '');
    types.set(label, types.has(label) ? -1 : v);
  }
  for (let v = 0; v < nodes.length; v++) {
    if (owner[v] !== -1 || !MEMBER_KINDS.has(String(nodes[v]!.kind))) continue;
    const label = String(nodes[v]!.label ?? '');
    const dot = label.lastIndexOf('.');
    const type = dot > 0 ? types.get(label.slice(0, dot)) : undefined;
    if (type !== undefined && type >= 0) owner[v] = type;
  }
}

/** A community's name and what it was made from. */
export interface CommunityName {
  label: string;
  /** Its dominant folder or file ('' when no member has a file). */
  path: string;
  /** The symbols in the label, most used first. */
  hubs: NodeId[];
  /** No member with a file is outside test code. */
  testOnly: boolean;
  /** At least MOSTLY_TESTS of the members with a file are test code (the label starts `tests: `). */
  mostlyTests: boolean;
  /** Members in test files. */
  testMembers: number;
}

/** True for a symbol other code may use: exported or public (a language without visibility counts as public). */
export function isPublic(node: GraphNode): boolean {
  return node.exported === true || node.visibility === 'public' || node.visibility === undefined;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

/** The key with the highest count, ties by the smaller key. */
function topKey<K extends string | number>(counts: Map<K, number>, order: (k: K) => string): [K | undefined, number] {
  let best: K | undefined;
  let most = -1;
  for (const [k, c] of counts) {
    if (c > most || (c === most && order(k) < order(best!))) {
      best = k;
      most = c;
    }
  }
  return [best, Math.max(most, 0)];
}

function shortName(label: string): string {
  return label.length > MAX_SYMBOL_NAME ? `${label.slice(0, MAX_SYMBOL_NAME - 1)}\u2026` : label;
}

/** Candidates kept per community before the ones that repeat a name are skipped. */
const SHORTLIST = 8;

/** Name one community from its members (node ids, ascending). */
export function nameCommunity(ig: Pick<IndexedGraph, 'nodes'>, members: readonly NodeId[], use: SymbolUse): CommunityName {
  const nodes = ig.nodes;
  const { fileOf, files, test } = use;
  let code = 0;
  let testMembers = 0;
  for (let k = 0; k < members.length; k++) {
    const v = members[k]!;
    if (fileOf[v]! < 0) continue;
    if (test[v]) testMembers++;
    else code++;
  }
  const testOnly = code === 0 && testMembers > 0;
  // The side that names it: the code when there is any, else the tests.
  const onSide = (v: NodeId): boolean => fileOf[v]! >= 0 && (testOnly || !test[v]);
  const inFile = new Map<number, number>();
  let sideSize = 0;
  for (let k = 0; k < members.length; k++) {
    const v = members[k]!;
    if (!onSide(v)) continue;
    sideSize++;
    inFile.set(fileOf[v]!, (inFile.get(fileOf[v]!) ?? 0) + 1);
  }
  const { dirOfFile, dirs } = use;
  const inDir = new Map<number, number>();
  for (const [f, c] of inFile) inDir.set(dirOfFile[f]!, (inDir.get(dirOfFile[f]!) ?? 0) + c);
  const [dir] = topKey(inDir, (d) => dirs[d]!);
  const folder = dir === undefined ? '' : dirs[dir]!;
  const [file, most] = topKey(inFile, (f) => files[f]!);
  const byFile = file !== undefined && (folder === '.' || 2 * most > sideSize);
  const path = file === undefined ? '' : byFile ? files[file]! : folder;
  const under = `${path}/`;
  const here = new Set<number>();
  for (const f of inFile.keys()) {
    const d = dirs[dirOfFile[f]!]!;
    if (byFile ? f === file : d === path || d.startsWith(under)) here.add(f);
  }

  // The best SHORTLIST candidates: tier ascending, then uses from other files descending (tests
  // included: a library's front door is what its tests and its users call, rarely its own code), then
  // uses by code, then node order.
  const { fromAny, fromCode } = use;
  const rank = (v: NodeId): number => use.tier[v]! + (here.has(fileOf[v]!) ? 0 : NAME_TIERS.elsewhere);
  const before = (a: NodeId, ra: number, b: NodeId, rb: number): boolean =>
    ra !== rb ? ra < rb : fromAny[a] !== fromAny[b] ? fromAny[a]! > fromAny[b]! : fromCode[a] !== fromCode[b] ? fromCode[a]! > fromCode[b]! : a < b;
  const short: NodeId[] = [];
  const shortRank: number[] = [];
  for (let k = 0; k < members.length; k++) {
    const v = members[k]!;
    if (use.tier[v] === NAME_TIERS.never || !onSide(v)) continue;
    const r = rank(v);
    if (short.length === SHORTLIST && !before(v, r, short[SHORTLIST - 1]!, shortRank[SHORTLIST - 1]!)) continue;
    let at = Math.min(short.length, SHORTLIST - 1);
    while (at > 0 && before(v, r, short[at - 1]!, shortRank[at - 1]!)) {
      short[at] = short[at - 1]!;
      shortRank[at] = shortRank[at - 1]!;
      at--;
    }
    short[at] = v;
    shortRank[at] = r;
  }
  const hubs: NodeId[] = [];
  const names = new Set<string>();
  for (const v of short) {
    if (hubs.length >= NAME_SYMBOLS) break;
    const name = String(nodes[v]!.label ?? '');
    // A type and its own member say the same thing; so do two symbols of one name.
    if (!name || names.has(name) || hubs.some((h) => use.owner[v] === h || use.owner[h] === v)) continue;
    hubs.push(v);
    names.add(name);
  }
  const symbols = hubs.map((v) => shortName(String(nodes[v]!.label))).join(', ');
  const mostlyTests = testMembers > 0 && testMembers >= MOSTLY_TESTS * (code + testMembers);
  const label = `${mostlyTests ? 'tests: ' : ''}${path || '(no file)'}${symbols ? ` \u2014 ${symbols}` : ''}`;
  return { label, path, hubs, testOnly, mostlyTests, testMembers };
}
