/**
 * Plain TypeScript traversals over a GraphIndex's CSR: once the query engine's fallback, now the
 * reference the WASM core's walks (src/query/core-traversal.ts) are checked against.
 */
import type { NodeId } from '../../src/graph/model.ts';
import type { GraphIndex } from '../../src/query/graph-index.ts';
import type { Reach, TraversalBackend } from '../../src/query/traversal.ts';

/** Plain TypeScript traversals over a GraphIndex's CSR. */
export class TsTraversal implements TraversalBackend {
  readonly name = 'ts';
  constructor(private readonly ix: GraphIndex) {}

  reverseReach(seeds: readonly NodeId[], k: number, relMask: number): Reach {
    const ix = this.ix;
    const rel = ix.g.rel;
    const src = ix.g.src;
    const seen = new Uint8Array(ix.n);
    let frontier: number[] = [];
    for (const s of seeds) {
      if (!seen[s]) {
        seen[s] = 1;
        frontier.push(s);
      }
    }
    const nodes: number[] = [];
    const depth: number[] = [];
    const via: number[] = [];
    for (let d = 1; d <= k && frontier.length; d++) {
      const next: number[] = [];
      for (const v of frontier) {
        for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]!; i++) {
          const e = ix.inEdges[i]!;
          const r = rel[e]!;
          if (!((relMask >>> r) & 1)) continue;
          const u = src[e]!;
          if (seen[u]) continue;
          seen[u] = 1;
          next.push(u);
          nodes.push(u);
          depth.push(d);
          via.push(r);
        }
      }
      frontier = next;
    }
    return { nodes: Uint32Array.from(nodes), depth: Uint8Array.from(depth), via: Uint8Array.from(via) };
  }

  shortestPath(s: NodeId, t: NodeId, maxHops: number, relMask: number, directed = false): Uint32Array | null {
    if (s === t) return Uint32Array.of(s);
    const ix = this.ix;
    const parent = new Int32Array(ix.n).fill(-1);
    parent[s] = s;
    let frontier = [s];
    for (let d = 0; d < maxHops && frontier.length; d++) {
      const next: number[] = [];
      for (const v of frontier) {
        const visit = (u: number): boolean => {
          if (parent[u] !== -1) return false;
          parent[u] = v;
          if (u === t) return true;
          next.push(u);
          return false;
        };
        const nbrs: number[] = [];
        for (let i = ix.outOff[v]!; i < ix.outOff[v + 1]!; i++) {
          const e = ix.outEdges[i]!;
          if ((relMask >>> ix.g.rel[e]!) & 1) nbrs.push(ix.g.dst[e]!);
        }
        for (let i = ix.inOff[v]!; i < ix.inOff[v + 1]! && !directed; i++) {
          const e = ix.inEdges[i]!;
          if ((relMask >>> ix.g.rel[e]!) & 1) nbrs.push(ix.g.src[e]!);
        }
        nbrs.sort((a, b) => a - b);
        for (const u of nbrs) {
          if (visit(u)) {
            const path: number[] = [t];
            let x = t;
            while (x !== s) {
              x = parent[x]!;
              path.push(x);
            }
            return Uint32Array.from(path.reverse());
          }
        }
      }
      frontier = next;
    }
    return null;
  }
}
