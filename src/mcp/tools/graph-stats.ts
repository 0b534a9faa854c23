import { z } from 'zod';
import type { QueryEngine } from '../../query/engine.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({});
const output = z.looseObject({
  nodes: z.number(),
  edges: z.number(),
  communities: z.number(),
  extracted: z.number(),
  inferred: z.number(),
  ambiguous: z.number(),
  cross_repo: z.number(),
  cross_language: z.number(),
  dynamic_sites: z.number(),
  dynamic_sites_opaque: z.number(),
  dynamic_refs_linked: z.number(),
});

/** The graph_stats text (shared with the synaptic://stats resource). */
export function statsText(engine: QueryEngine): string {
  const s = engine.stats();
  const lines = [`Graph: ${s.nodes} nodes, ${s.edges} edges, ${s.communities} communities`, `Edges: ${s.extracted} EXTRACTED, ${s.inferred} INFERRED, ${s.ambiguous} AMBIGUOUS`];
  if (s.cross_language) lines.push(`Cross-language: ${s.cross_language} coupling edge(s) (HTTP/RPC/FFI/WebSocket/queue/SQL boundaries)`);
  if (s.cross_repo) lines.push(`Cross-repo: ${s.cross_repo} edge(s) span repositories`);
  if (s.dynamic_sites) lines.push(`Dynamic-dispatch sites: ${s.dynamic_sites} (${s.dynamic_sites_opaque} opaque, ${s.dynamic_refs_linked} evidence-linked)`);
  const unresolved = engine.unresolvedTotal();
  if (unresolved) lines.push(`Unresolved call sites: ${unresolved} (calls the extractor could not resolve statically)`);
  return lines.join('\n');
}

/** graph_stats: counts and the confidence breakdown. */
export function createGraphStatsTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'graph_stats',
    title: 'Graph statistics',
    description:
      'A cheap first call to orient: node, edge and community counts, the edge-confidence breakdown (EXTRACTED / INFERRED / AMBIGUOUS), cross-language, cross-repo and dynamic-dispatch totals.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler() {
      const engine = await ctx.engine();
      return toolResult(statsText(engine), { ...engine.stats() });
    },
  };
}
