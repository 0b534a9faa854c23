/**
 * Structural support for query_graph's strongest matches: a match that other matches call is where
 * their work happens (`makeSignature`, called by `serializeSigned` and `setSignedCookie` for "how
 * are cookies signed"), so it gains a share of its matched callers' scores. Split from rank.ts,
 * which scores the graph. Browser-safe.
 */
import { relationId, type NodeId } from '../graph/model.ts';
import type { GraphIndex } from './graph-index.ts';

const CALLS = relationId('calls');
/** At most this many in-edges of a match are read (a hub's callers say little each). */
const MAX_CALLERS = 64;

/**
 * Raise the score of each match in `ranked` by `weight` x (the summed relative scores of the other
 * matches that call it, capped at 1), then re-sort `ranked` (score desc, id asc). `score(v)` is a
 * node's match score, 0 when it did not match; `set(v, s)` stores a new one. Returns the best score.
 * Cost: the in-edges of `ranked`, at most MAX_CALLERS each.
 */
export function addCallerSupport(
  ix: GraphIndex,
  ranked: NodeId[],
  top: number,
  weight: number,
  score: (v: NodeId) => number,
  set: (v: NodeId, s: number) => void,
): number {
  if (!ranked.length || top <= 0) return top;
  const gained = new Float64Array(ranked.length);
  const seen = new Set<NodeId>();
  for (let k = 0; k < ranked.length; k++) {
    const v = ranked[k]!;
    seen.clear();
    let sum = 0;
    const end = Math.min(ix.inOff[v + 1]!, ix.inOff[v]! + MAX_CALLERS);
    for (let i = ix.inOff[v]!; i < end; i++) {
      const e = ix.inEdges[i]!;
      if (ix.g.rel[e] !== CALLS) continue;
      const u = ix.g.src[e]!;
      if (u === v || seen.has(u)) continue;
      seen.add(u);
      sum += score(u) / top;
    }
    gained[k] = Math.min(1, sum);
  }
  let best = top;
  for (let k = 0; k < ranked.length; k++) {
    if (gained[k] === 0) continue;
    const v = ranked[k]!;
    const s = score(v) * (1 + weight * gained[k]!);
    set(v, s);
    if (s > best) best = s;
  }
  ranked.sort((a, b) => score(b) - score(a) || a - b);
  return best;
}
