import type { NodeId } from '../graph/model.ts';

/** Result of a reverse k-hop walk: reached nodes (seeds excluded), their depth and first relation id. */
export interface Reach {
  nodes: Uint32Array;
  depth: Uint8Array;
  via: Uint8Array;
}

/**
 * The graph walks the query engine needs, implemented by the WASM core (core-traversal.ts). A plain
 * TypeScript version lives in test/reference/traversal.ts as the reference the core is checked against.
 */
export interface TraversalBackend {
  readonly name: string;
  reverseReach(seeds: readonly NodeId[], k: number, relMask: number): Reach;
  /** Undirected unless `directed` (then along stored edges only, source to target). */
  shortestPath(s: NodeId, t: NodeId, maxHops: number, relMask: number, directed?: boolean): Uint32Array | null;
  /** Build now what the first walk would build (called off the start-up path). */
  prepare?(): void;
  dispose?(): void;
}
