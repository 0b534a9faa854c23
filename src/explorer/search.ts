import type { NodeId } from '../graph/model.ts';
import type { GraphIndex } from '../query/graph-index.ts';
import { rankQuery } from '../query/rank.ts';

/**
 * Search-as-you-type: the nodes `query_graph` ranks as matching the text (same tokens, IDF weights,
 * exact-name bonus), then, for the word still being typed, labels that start with it and labels that
 * contain it, most connected first. Files are listed after symbols of equal rank.
 */
export function searchSymbols(ix: GraphIndex, text: string, limit: number): NodeId[] {
  const query = text.trim();
  if (!query) return [];
  const out: NodeId[] = [];
  const seen = new Set<NodeId>();
  const add = (v: NodeId): void => {
    if (out.length < limit && !seen.has(v)) {
      seen.add(v);
      out.push(v);
    }
  };
  const ranked = rankQuery(ix, query, { tokenBudget: 400 * 40 });
  for (const r of ranked.nodes) if (r.matched) add(r.node);
  if (out.length >= limit) return out;

  const lower = query.toLowerCase();
  const prefix: NodeId[] = [];
  const inner: NodeId[] = [];
  const labels = ix.lowerLabels;
  for (let v = 0; v < labels.length; v++) {
    const at = labels[v]!.indexOf(lower);
    if (at < 0 || seen.has(v)) continue;
    if (at === 0) prefix.push(v);
    else if (inner.length < 4 * limit) inner.push(v);
  }
  const byWeight = (a: NodeId, b: NodeId): number =>
    Number(ix.node(a).kind === 'file') - Number(ix.node(b).kind === 'file') || ix.degree[b]! - ix.degree[a]! || a - b;
  for (const v of prefix.sort(byWeight)) add(v);
  for (const v of inner.sort(byWeight)) add(v);
  return out;
}
