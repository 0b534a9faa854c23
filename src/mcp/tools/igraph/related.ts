import { z } from 'zod';
import { sanitize, sanitizeRelation } from '../../../query/sanitize.ts';
import type { ToolDefinition } from '../../tool.ts';
import { READ_ONLY, type GraphToolContext } from '../context.ts';
import { brief, jsonResult, nodesNamed } from './brief.ts';

const input = z.object({
  name: z.string().min(1).describe('Symbol name.'),
  direction: z.enum(['callers', 'callees', 'both']).optional().describe('Expansion direction (default both).'),
});

/** igraph_related: a symbol's callers / callees (igraph profile). */
export function createIgraphRelatedTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'igraph_related',
    title: 'igraph: related',
    description: "Expand a symbol's related nodes: callers, callees or both, for every same-name seed. igraph-compatible.",
    inputSchema: input,
    annotations: READ_ONLY,
    async handler({ name, direction = 'both' }) {
      const engine = await ctx.engine();
      const seeds = nodesNamed(engine, name);
      const neighbors: Array<Record<string, unknown>> = [];
      const seen = new Set<string>();
      for (const s of seeds.slice(0, 20)) {
        const lists = [];
        if (direction !== 'callees') lists.push(engine.callers(s).hits);
        if (direction !== 'callers') lists.push(engine.callees(s).hits);
        for (const hits of lists) {
          for (const h of hits) {
            const key = `${h.node}:${h.direction}`;
            if (seen.has(key)) continue;
            seen.add(key);
            neighbors.push({ ...brief(engine, h.node), depth: 1, relation: sanitizeRelation(h.relation), direction: h.direction === 'in' ? 'caller' : 'callee' });
          }
        }
      }
      return jsonResult({ tool: 'igraph_related', name: sanitize(name, 400), direction, found: seeds.length > 0, seeds: seeds.map((v) => brief(engine, v)), neighbors, resources: [] });
    },
  };
}
