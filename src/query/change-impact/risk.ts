import type { QueryEngine } from '../engine.ts';
import type { ChangeImpact, TestHit } from './impact.ts';

/**
 * A heuristic change risk: points for how far the change reaches (dependents, other files using a
 * changed symbol, communities crossed), for what would catch a mistake being absent (no test reaches
 * it) and for what the graph cannot see (dynamic dispatch, files it does not hold, deletions still
 * used). Each driver says what it counted, so a reader can disagree with the weight, not the facts.
 */

export type RiskLevel = 'low' | 'medium' | 'high';

export interface ChangeRisk {
  level: RiskLevel;
  score: number;
  /** Why, largest contribution first; empty for a change nothing depends on. */
  drivers: string[];
}

/** Score at or above which the level is medium / high. */
export const MEDIUM_AT = 3;
export const HIGH_AT = 6;

interface ApiCount {
  external_dependents: number;
  files: number;
}

function tier(value: number, steps: readonly number[]): number {
  let points = 0;
  for (const s of steps) if (value >= s) points++;
  return points;
}

export function assessRisk(engine: QueryEngine, impact: ChangeImpact, api: readonly ApiCount[], tests: readonly TestHit[]): ChangeRisk {
  const scored: Array<[number, string]> = [];
  const add = (points: number, why: string) => {
    if (points > 0) scored.push([points, why]);
  };
  const dependents = impact.dependents.length;
  add(tier(dependents, [10, 50, 200]), `${dependents} dependents within ${impact.depth} hops`);
  let users = 0;
  for (const a of api) users += a.external_dependents;
  add(Math.max(tier(api.length, [1, 3, 10]), tier(users, [1, 20, 100])), `${api.length} changed symbol(s) used from other files (${users} direct dependents)`);
  const ix = engine.ix;
  const own = new Set<number>();
  for (const v of impact.changed) if (ix.community[v]! >= 0) own.add(ix.community[v]!);
  const reached = new Set<number>();
  for (const h of impact.dependents) {
    const c = ix.community[h.node]!;
    if (c >= 0 && !own.has(c)) reached.add(c);
  }
  add(tier(reached.size, [3, 10]), `dependents in ${reached.size} other communities`);
  if (dependents > 0 && tests.length === 0) add(2, 'no test in the graph reaches the change');
  const deletedUsed = impact.files.filter((f) => f.status === 'deleted' && f.nodes.some((v) => engine.hasStaticDependents(v))).length;
  add(deletedUsed * 2, `${deletedUsed} deleted file(s) still used by other code`);
  const hazards = new Set(engine.dynamicSites().map((s) => s.file));
  const dynamic = impact.files.filter((f) => hazards.has(f.path)).length;
  add(dynamic ? 1 : 0, `dynamic dispatch in ${dynamic} changed file(s) (dependents the graph cannot see)`);
  const unknown = impact.files.filter((f) => !f.nodes.length && f.status !== 'deleted' && f.code === true).length;
  add(unknown ? 1 : 0, `${unknown} changed code file(s) not in the graph (their dependents are unknown)`);
  scored.sort((a, b) => b[0] - a[0]);
  const score = scored.reduce((n, [p]) => n + p, 0);
  return { level: score >= HIGH_AT ? 'high' : score >= MEDIUM_AT ? 'medium' : 'low', score, drivers: scored.map(([p, why]) => `${why} (+${p})`) };
}
