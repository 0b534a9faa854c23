import type { EdgeCsr } from './indexed-graph.ts';
import { membersOf, TYPE_KINDS, type MemberGraph } from './members.ts';
import { relationMask, type GraphNode, type NodeId, type NodeKey } from './model.ts';
import { isTestFile } from './test-paths.ts';

/**
 * "How many tests reach a symbol", one definition for the god_nodes tool and GRAPH_REPORT.md: the
 * number of test files with a node (a test, a helper, or the file's top-level code) from which the
 * symbol is reached within TEST_REACH_DEPTH hops, walking TEST_REACH_RELATIONS edges backward. A
 * class, struct, interface, enum or trait counts the tests of its members too. A test file is one the
 * extractor marked `is_test`, or one whose path follows the test conventions (graph/test-paths.ts).
 * Browser-safe.
 */

/** Hops walked backward from the symbol. */
export const TEST_REACH_DEPTH = 6;

/**
 * The uses a test exercises a symbol through: the structural-impact set without module-level
 * `imports` (importing a module says the test loads it, not that it uses this symbol; the named
 * `imports_from` does), plus `tests` and `instantiates`.
 */
export const TEST_REACH_RELATIONS = [
  'calls', 'references', 'uses', 'instantiates', 'tests', 'imports_from', 're_exports', 'inherits', 'extends',
  'implements', 'mixes_in', 'embeds', 'depends_on', 'reads_from', 'invokes', 'binds_native', 'calls_service',
  'handled_by', 'dynamic_ref',
] as const;

/** The graph a test-reach walk needs (with the edge CSR beside it). */
export interface ReachGraph extends MemberGraph {
  nodes: readonly GraphNode[];
  idOf: ReadonlyMap<NodeKey, NodeId>;
  src: Uint32Array;
}

const MASK = relationMask(TEST_REACH_RELATIONS);

/** Test-file counts per symbol over one graph, memoized; the walk's scratch is reused across symbols. */
export class TestReach {
  private readonly memo = new Map<NodeId, number>();
  /** Per node: the index of its test file, -1 when its file is no test, -2 until looked up. */
  private readonly testFileOf: Int32Array;
  private readonly testFiles = new Map<string, number>();
  private testFileCount = 0;
  private readonly stamp: Uint32Array;
  private readonly depth: Uint8Array;
  private fileStamp = new Uint32Array(16);
  private gen = 0;

  constructor(
    private readonly g: ReachGraph,
    private readonly csr: EdgeCsr,
  ) {
    this.stamp = new Uint32Array(g.nodes.length);
    this.depth = new Uint8Array(g.nodes.length);
    this.testFileOf = new Int32Array(g.nodes.length).fill(-2);
  }

  /** Test files from which v (or, for a type, one of its members) is reached within TEST_REACH_DEPTH hops. */
  count(v: NodeId): number {
    const known = this.memo.get(v);
    if (known !== undefined) return known;
    const { g, csr, stamp, depth } = this;
    const gen = ++this.gen;
    const queue: NodeId[] = TYPE_KINDS.has(String(g.nodes[v]!.kind)) ? [v, ...membersOf(g, csr, v)] : [v];
    for (const s of queue) {
      stamp[s] = gen;
      depth[s] = 0;
    }
    let files = 0;
    const seeds = queue.length;
    for (let h = 0; h < queue.length; h++) {
      const u = queue[h]!;
      if (h >= seeds) {
        const f = this.testFileIndex(u);
        if (f >= 0 && this.fileStamp[f] !== gen) {
          this.fileStamp[f] = gen;
          files++;
        }
      }
      const d = depth[u]!;
      if (d >= TEST_REACH_DEPTH) continue;
      for (let k = csr.inOff[u]!; k < csr.inOff[u + 1]!; k++) {
        const e = csr.inEdges[k]!;
        if (((MASK >>> g.rel[e]!) & 1) === 0) continue;
        const w = g.src[e]!;
        if (stamp[w] === gen) continue;
        stamp[w] = gen;
        depth[w] = d + 1;
        queue.push(w);
      }
    }
    this.memo.set(v, files);
    return files;
  }

  /**
   * The index of u's test file (-1 when u's file is no test): a file the extractor marked is_test,
   * or one whose path follows the test conventions.
   */
  private testFileIndex(u: NodeId): number {
    const known = this.testFileOf[u]!;
    if (known !== -2) return known;
    const file = String(this.g.nodes[u]!.source_file ?? '');
    let index = this.testFiles.get(file);
    if (index === undefined) {
      index = isTestFile(this.g, file) ? this.testFileCount++ : -1;
      this.testFiles.set(file, index);
      if (index >= this.fileStamp.length) {
        const grown = new Uint32Array(this.fileStamp.length * 2);
        grown.set(this.fileStamp);
        this.fileStamp = grown;
      }
    }
    this.testFileOf[u] = index;
    return index;
  }
}
