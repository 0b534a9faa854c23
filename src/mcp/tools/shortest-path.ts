import { z } from 'zod';
import { sanitize, sanitizeRelation } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { unresolvedText } from './format.ts';

const input = z.object({
  source: z.string().min(1).describe('Start node.'),
  target: z.string().min(1).describe('End node.'),
  max_hops: z.number().int().min(1).max(64).optional().describe('Most hops (default 8).'),
  directed: z.boolean().optional().describe('Forward call chains only (source calls ... target).'),
});

/** shortest_path: shortest undirected connection between two nodes, edge directions preserved. */
export function createShortestPathTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'shortest_path',
    title: 'Shortest path',
    description:
      'How are A and B connected: the shortest path between two nodes, ignoring direction (arrows as stored) unless directed=true (forward call chains only).',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const a = engine.resolve(args.source);
      if (a.status !== 'found') return toolResult(`Source: ${unresolvedText(a)}`);
      const b = engine.resolve(args.target);
      if (b.status !== 'found') return toolResult(`Target: ${unresolvedText(b)}`);
      const q = (v: number) => sanitize(engine.qualified(v), 400);
      if (a.node === b.node) return toolResult(`Source and target resolve to the same node: ${q(a.node)}`);
      const maxHops = args.max_hops ?? 8;
      const directed = args.directed === true;
      const steps = engine.shortestPath(a.node, b.node, maxHops, directed);
      if (!steps) {
        if (!directed) return toolResult(`No path between ${q(a.node)} and ${q(b.node)} within ${maxHops} hops (raise max_hops, or they are in disconnected parts of the graph)`);
        // Say whether they connect some other way, so "no call chain" is not read as "unrelated".
        const other = engine.shortestPath(a.node, b.node, maxHops, false);
        return toolResult(
          `No forward call chain from ${q(a.node)} to ${q(b.node)} within ${maxHops} hops` +
            (other ? ` (they connect in ${other.length} hop(s) ignoring direction: call without directed)` : ' (nor any connection ignoring direction)'),
        );
      }
      const parts = [q(a.node)];
      for (const s of steps) {
        const rel = sanitizeRelation(engine.ix.relName(s.edge));
        parts.push(s.forward ? ` --${rel}--> ${q(s.to)}` : ` <--${rel}-- ${q(s.to)}`);
      }
      const which = directed ? 'directed: a forward call chain' : 'undirected: arrows as stored, a backward one is no call';
      return toolResult(`Path (${steps.length} hop${steps.length === 1 ? '' : 's'}, ${which}):\n${parts.join('')}`);
    },
  };
}
