import { z } from 'zod';
import { TEST_REACH_DEPTH } from '../../graph/test-reach.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

/** The most hubs one page holds (each costs a reverse-impact walk to count its tests); a larger top_n is clamped. */
const MAX_PAGE = 200;

const input = z.object({
  top_n: z.number().int().min(1).meta({ maximum: MAX_PAGE }).optional().describe('Hubs per page.'),
  offset: z.number().int().min(0).optional().describe('Hubs to skip (ranks are kept).'),
});
const output = z.looseObject({
  god_nodes: z.array(z.looseObject({ label: z.string(), degree: z.number(), id: z.string(), test_count: z.number() })),
});

/** What test_count counts (graph/test-reach.ts). */
const TEST_COUNT_MEANING =
  `test files with a test, helper or top-level code that reaches the hub (or a member of a type) within ${TEST_REACH_DEPTH} hops of calls, references, named imports, inheritance or uses`;

/** The god-node page (shared with the synaptic://god-nodes resource). */
export function godNodesPage(engine: QueryEngine, topN: number, offset: number): { text: string; structured: Record<string, unknown> } {
  const ranked = engine.godNodes();
  const n = Math.min(MAX_PAGE, topN);
  const page = ranked.slice(offset, offset + n);
  const rows = page.map((v) => ({ label: sanitize(engine.ix.label(v)), degree: engine.ix.degree[v]!, id: sanitize(engine.ix.node(v).id, 400), test_count: engine.testCount(v) }));
  const lines = [
    `God nodes (most connected; degree counts every edge including members, so it measures size/centrality, not dependence; use affected for blast radius). ` +
      `test(s): ${TEST_COUNT_MEANING}:`,
  ];
  rows.forEach((r, i) => lines.push(`  ${offset + i + 1}. ${r.label} - ${r.degree} connections, ${r.test_count} test(s)${r.test_count === 0 ? ' (untested hub)' : ''}`));
  if (!rows.length) lines.push('  (no nodes in this range)');
  else if (offset + n < ranked.length) lines.push(`  (page ${offset + 1}-${offset + rows.length} of ${ranked.length}; pass offset=${offset + n} for more)`);
  return { text: lines.join('\n'), structured: { god_nodes: rows } };
}

/** god_nodes: the most-connected nodes with their test reach. */
export function createGodNodesTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'god_nodes',
    title: 'God nodes (hubs)',
    description:
      'The most connected symbols, each with test_count: the test files that reach it within ' + TEST_REACH_DEPTH + ' hops (a hub with 0 is an untested, high-blast-radius symbol). ' +
      'Degree measures size, not dependence: for change risk use affected.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const { text, structured } = godNodesPage(await ctx.engine(), args.top_n ?? ctx.defaults.topN, args.offset ?? 0);
      return toolResult(text, structured);
    },
  };
}
