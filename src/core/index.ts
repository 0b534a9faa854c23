/**
 * The public API of Synaptic's WASM graph core ("synaptic-mcp/core", also the package root).
 *
 * ```ts
 * const core = await Core.load();          // Node: wasm/synaptic.wasm; browser: { url } or { bytes }
 * const g = core.graph({ n, src, dst, rel, weight });   // Uint32Array src/dst, Uint8Array rel 0..31
 * g.bfs(source | sources, { maxDepth?, relMask?, direction? })  // Int32Array, -1 = unreachable
 * g.shortestPath(s, t, { relMask?, undirected?, maxHops? })     // Uint32Array s..t, or null
 * g.dijkstra(source, { relMask? })                              // Float64Array, Infinity = unreachable
 * g.reverseReach(seeds, { k, relMask? })                        // { nodes, depth, via }
 * g.pagerank({ alpha?, iterations?, tolerance?, personalization?, relMask? })  // Float64Array, sums to 1
 * g.degree({ relMask? })                                        // { out, in } Uint32Array
 * g.components('weak' | 'strong', { relMask? })                 // { count, label } canonical
 * g.louvain() / g.leiden() / g.modularity(m) / g.betweenness()  // see communities.ts
 * g.free();                                                     // or let the FinalizationRegistry do it
 * ```
 *
 * - Node ids are dense `0..n-1`; a relation mask is a u32 with bit r for relation r
 *   (src/graph/model.ts); direction is `'out' | 'in' | 'both'`.
 * - Every result is a fresh typed array (copied out of core memory), valid forever.
 * - Misuse throws typed errors whose message says what to do: `NodeRangeError`, `GraphFreedError`
 *   (both `CoreError`, with `status`/`code`), `AbiMismatchError`, `CoreLoadError`. A trap inside
 *   the module throws `CoreTrap` and rebuilds the instance: the process keeps working, graphs
 *   built before the trap must be rebuilt.
 * - PageRank conventions are the shared fixtures' (networkx/igraph): dangling mass follows the
 *   teleport vector; `{ iterations: 20, tolerance: 0 }` runs exactly 20 power iterations from 1/n.
 * - Memory: out- and in-CSR plus a relation byte per edge, 10 bytes/edge + 8 bytes/node
 *   (+ 8 bytes/edge with weights); `g.bytes()` reports it.
 *
 * Browser-safe: no `node:` imports at module level.
 */
export { Core, Scratch } from './core.ts';
export {
  CoreGraph, NO_VIA,
  type GraphInput, type BfsOptions, type PathOptions, type DijkstraOptions, type ReachOptions,
  type ReachResult, type PageRankOptions, type DegreeOptions, type ComponentsResult,
} from './graph.ts';
export type {
  CommunityOptions, LeidenOptions, CommunityResult, ModularityOptions, BetweennessOptions,
} from './communities.ts';
export type { LoadOptions } from './loader.ts';
export type { CoreExports } from './abi.ts';
export { ABI_MAJOR, ABI_MINOR, ALL_RELATIONS, Status, statusName, type Direction, type StatusCode } from './constants.ts';
export { CoreError, CoreTrap, AbiMismatchError, GraphFreedError, NodeRangeError, CoreLoadError, type TrapSite } from './errors.ts';
