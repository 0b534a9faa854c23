/**
 * The WASM module's exports as TypeScript sees them: numbers in, numbers out (see assembly/index.ts
 * for each export's contract). Pointers are u32 byte offsets into `memory`. Browser-safe.
 */
export interface CoreExports {
  readonly memory: WebAssembly.Memory;
  syn_abi_version(): number;
  syn_alloc(bytes: number): number;
  syn_free(ptr: number): void;
  syn_trap_info(): number;
  syn_graph_build(n: number, m: number, src: number, dst: number, rel: number, weight: number): number;
  syn_graph_free(h: number): number;
  syn_graph_n(h: number): number;
  syn_graph_m(h: number): number;
  syn_graph_bytes(h: number): number;
  syn_memory_bytes(): number;
  syn_bfs(h: number, sources: number, count: number, mask: number, maxDepth: number, dir: number, outDist: number): number;
  syn_path(h: number, s: number, t: number, mask: number, undirected: number, maxHops: number, outPath: number, cap: number): number;
  syn_dijkstra(h: number, source: number, mask: number, outDist: number): number;
  syn_reach_rev(h: number, seeds: number, count: number, k: number, mask: number, outNodes: number, outDepth: number, outVia: number, cap: number): number;
  syn_pagerank(h: number, alpha: number, iterations: number, tolerance: number, mask: number, teleport: number, outRank: number): number;
  syn_degree(h: number, mask: number, outOut: number, outIn: number): number;
  syn_components(h: number, strong: number, mask: number, outLabel: number): number;
  // --- communities ---
  syn_louvain(h: number, mask: number, gamma: number, seed: number, outMemb: number, outQ: number): number;
  syn_leiden(h: number, mask: number, gamma: number, seed: number, iterations: number, outMemb: number, outQ: number): number;
  syn_modularity(h: number, mask: number, memb: number, gamma: number, outQ: number): number;
  syn_betweenness(h: number, mask: number, samples: number, seed: number, normalized: number, out: number): number;
}
