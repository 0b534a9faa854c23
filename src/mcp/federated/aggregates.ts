import type { GraphStats, QueryEngine } from '../../query/engine.ts';

/** One member's graph_stats numbers (kept per member generation: the sum needs no resident member). */
export interface MemberStats {
  stats: GraphStats;
  unresolved: number;
}

export function memberStats(engine: QueryEngine): MemberStats {
  return { stats: { ...engine.stats() }, unresolved: engine.unresolvedTotal() };
}

/**
 * The federation's graph_stats: every count is a sum (communities are distinct per member, see
 * COMMUNITY_STRIDE); `cross_repo` is 0 while the store holds no bridge edges.
 */
export function sumStats(all: MemberStats[]): MemberStats {
  const stats: GraphStats = { nodes: 0, edges: 0, communities: 0, extracted: 0, inferred: 0, ambiguous: 0, cross_repo: 0, cross_language: 0, dynamic_sites: 0, dynamic_sites_opaque: 0, dynamic_refs_linked: 0 };
  let unresolved = 0;
  for (const m of all) {
    for (const k of Object.keys(stats) as (keyof GraphStats)[]) stats[k] += m.stats[k];
    unresolved += m.unresolved;
  }
  return { stats, unresolved };
}

/** A stand-in engine for the shared graph_stats formatter (statsText reads only these two). */
export function statsFacade(sum: MemberStats): QueryEngine {
  return { stats: () => sum.stats, unresolvedTotal: () => sum.unresolved } as unknown as QueryEngine;
}

/** One hub of a member, with what orders it among all members' hubs. */
export interface HubRow {
  degree: number;
  test_count: number;
  rawId: string;
  /** Raw label, member position and node index: the (label, id) order of one union graph. */
  rawLabel: string;
  member: number;
  node: number;
}

/** A member's first `k` hubs (degree order) and how many it ranks in all. */
export function memberHubs(engine: QueryEngine, member: number, k: number): { rows: HubRow[]; ranked: number } {
  const ranked = engine.godNodes();
  const rows = ranked.slice(0, k).map((v) => ({
    degree: engine.ix.degree[v]!, test_count: engine.testCount(v), rawId: engine.ix.node(v).id,
    rawLabel: engine.ix.label(v), member, node: v,
  }));
  return { rows, ranked: ranked.length };
}

/** Merge the members' hub lists as one graph ranks them: degree, then label, then union position. */
export function mergeHubs(lists: HubRow[][]): HubRow[] {
  return lists.flat().sort((a, b) => b.degree - a.degree || (a.rawLabel < b.rawLabel ? -1 : a.rawLabel > b.rawLabel ? 1 : a.member - b.member || a.node - b.node));
}

/**
 * A stand-in engine for the shared god_nodes page formatter over merged hubs: godNodes() is a list
 * of `total` positions (only the first rows.length are filled; the page never reads past them).
 */
export function hubsFacade(rows: HubRow[], total: number): QueryEngine {
  const order = new Array<number>(total);
  for (let i = 0; i < rows.length; i++) order[i] = i;
  return {
    godNodes: () => order,
    testCount: (i: number) => rows[i]!.test_count,
    ix: { label: (i: number) => rows[i]!.rawLabel, degree: rows.map((r) => r.degree), node: (i: number) => ({ id: rows[i]!.rawId }) },
  } as unknown as QueryEngine;
}
