import { z } from 'zod';
import { sanitize, sanitizeRelation } from '../../../query/sanitize.ts';
import type { ToolDefinition } from '../../tool.ts';
import { READ_ONLY, type GraphToolContext } from '../context.ts';
import { brief, jsonResult } from './brief.ts';

const input = z.object({
  query: z.string().min(1).max(2000).describe('Natural language query.'),
  topK: z.number().int().min(1).max(50).optional().describe('Number of results (default 5, 1..50).'),
  hops: z.number().int().min(0).max(5).optional().describe('Graph expansion hops (default 2, 0..5).'),
});

const NEIGHBOR_CAP = 50;

/** igraph_explore: natural-language retrieval with graph-context expansion (igraph profile). */
export function createIgraphExploreTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'igraph_explore',
    title: 'igraph: explore',
    description: 'Natural language code retrieval: the most relevant symbols (functions/classes/types) with graph-expanded neighbours within `hops`. igraph-compatible.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler({ query, topK = 5, hops = 2 }) {
      const engine = await ctx.engine();
      await engine.rankIndexReady;
      const ranked = engine.rank(query, { tokenBudget: Math.max(400, topK * 80) });
      const symbols = ranked.nodes.filter((n) => n.matched).slice(0, topK);
      const seen = new Set(symbols.map((s) => s.node));
      const neighbors: Array<Record<string, unknown>> = [];
      let frontier = symbols.map((s) => s.node);
      for (let d = 1; d <= hops && frontier.length && neighbors.length < NEIGHBOR_CAP; d++) {
        const next: number[] = [];
        for (const v of frontier) {
          for (const h of engine.neighbors(v).hits) {
            if (seen.has(h.node) || neighbors.length >= NEIGHBOR_CAP) continue;
            if (h.relation === 'contains' && engine.ix.node(h.node).kind === 'file') continue;
            seen.add(h.node);
            next.push(h.node);
            neighbors.push({ ...brief(engine, h.node), depth: d, relation: sanitizeRelation(h.relation), direction: h.direction === 'in' ? 'caller' : 'callee' });
          }
        }
        frontier = next;
      }
      return jsonResult({
        tool: 'igraph_explore',
        query: sanitize(query, 400),
        degraded: false,
        result: { symbols: symbols.map((s) => ({ ...brief(engine, s.node), score: s.score })), neighbors, resources: [] },
      });
    },
  };
}
