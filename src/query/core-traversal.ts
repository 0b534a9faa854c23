import type { Core, CoreGraph } from '../core/index.ts';
import type { NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';
import type { Reach, TraversalBackend } from './traversal.ts';

/**
 * Traversals on the WASM core: the graph's edge arrays are copied into the core once per load (on
 * the first walk or `prepare()`, not while the server starts), and each walk is one ABI call. The
 * core graph is freed when the engine is replaced.
 */
export class CoreTraversal implements TraversalBackend {
  readonly name = 'wasm';
  private built: CoreGraph | undefined;

  constructor(
    private readonly core: Core,
    private readonly ix: GraphIndex,
  ) {}

  private get graph(): CoreGraph {
    const ix = this.ix;
    return (this.built ??= this.core.graph({ n: ix.n, src: ix.g.src, dst: ix.g.dst, rel: ix.g.rel }));
  }

  prepare(): void {
    void this.graph;
  }

  reverseReach(seeds: readonly NodeId[], k: number, relMask: number): Reach {
    const r = this.graph.reverseReach(Uint32Array.from(seeds), { k: Math.min(255, k), relMask: relMask >>> 0 });
    // Drop the seeds (depth 0): callers want dependents only.
    let first = 0;
    while (first < r.depth.length && r.depth[first] === 0) first++;
    return { nodes: r.nodes.subarray(first), depth: r.depth.subarray(first), via: r.via.subarray(first) };
  }

  shortestPath(s: NodeId, t: NodeId, maxHops: number, relMask: number, directed = false): Uint32Array | null {
    return this.graph.shortestPath(s, t, { undirected: !directed, maxHops, relMask: relMask >>> 0 });
  }

  dispose(): void {
    try {
      this.built?.free();
    } catch {
      /* already freed */
    }
  }
}

/** A traversal factory for QueryEngine that uses the given core. */
export function coreTraversal(core: Core): (ix: GraphIndex) => TraversalBackend {
  return (ix) => new CoreTraversal(core, ix);
}
