/**
 * The public API of Synaptic's WASM graph core ("synaptic/core").
 *
 * ```ts
 * const core = await Core.load();                 // Node: wasm/synaptic.wasm; browser: { url } or { bytes }
 * const g = core.graph({ n, src, dst, rel, weight });
 * g.bfs(0, { maxDepth: 3, relMask, direction: 'out' });   // Int32Array, -1 = unreachable
 * g.free();
 * ```
 * Browser-safe: no `node:` imports at module level.
 */
export { Core, Scratch } from './core.ts';
export {
  CoreGraph, NO_VIA,
  type GraphInput, type BfsOptions, type PathOptions, type DijkstraOptions, type ReachOptions,
  type ReachResult, type PageRankOptions, type DegreeOptions, type ComponentsResult,
} from './graph.ts';
export type { LoadOptions } from './loader.ts';
export type { CoreExports } from './abi.ts';
export { ABI_MAJOR, ABI_MINOR, ALL_RELATIONS, Status, statusName, type Direction, type StatusCode } from './constants.ts';
export { CoreError, CoreTrap, AbiMismatchError, GraphFreedError, NodeRangeError, CoreLoadError, type TrapSite } from './errors.ts';
