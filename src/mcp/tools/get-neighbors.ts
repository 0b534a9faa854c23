import { z } from 'zod';
import { sanitize, sanitizeRelation } from '../../query/sanitize.ts';
import { lineReader } from '../../query/source.node.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { breakdown, edgeLines, siteLines, unresolvedText } from './format.ts';

const input = z.object({
  label: z.string().min(1).describe('The symbol or file.'),
  relation_filter: z.string().optional().describe('Keep relations containing this (case-insensitive), e.g. calls or import.'),
  show_sites: z.boolean().optional().describe("Add each site's source line."),
  limit: z.number().int().min(1).optional().describe('Most neighbours listed.'),
  verbose: z.boolean().optional().describe('List all.'),
});

const output = z.looseObject({
  seed: z.string(),
  seed_qualified: z.string(),
  neighbors: z.array(z.looseObject({ label: z.string(), qualified: z.string(), relation: z.string(), direction: z.string() })),
  by_relation: z.record(z.string(), z.number()),
  total: z.number(),
  truncated: z.boolean(),
});

/** get_neighbors: a node's neighbours with direction and relation. */
export function createGetNeighborsTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'get_neighbors',
    title: 'Get neighbours',
    description:
      "A node's direct neighbours, each with direction (<- in, -> out) and relation; an empty filtered result names the relations the node has.",
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const res = engine.resolve(args.label);
      if (res.status !== 'found') return toolResult(unresolvedText(res)); // structured mirror omitted on purpose
      const v = res.node;
      const listing = engine.neighbors(v, args.relation_filter);
      const limit = args.verbose ? Infinity : (args.limit ?? ctx.defaults.listLimit);
      const seed = sanitize(engine.ix.label(v));
      const read = args.show_sites ? lineReader(ctx.sourceRoot) : undefined;
      const sites = read ? (h: { edge: number }) => siteLines(engine, read, h.edge) : undefined;
      const lines: string[] = [];
      if (!listing.hits.length) {
        const has = breakdown(listing.allByRelation);
        lines.push(
          args.relation_filter
            ? `Neighbours of ${seed}: (none with relation '${sanitize(args.relation_filter)}'; this node has: ${has || 'no edges'})`
            : `Neighbours of ${seed}: (none; the node has no edges)`,
        );
      } else {
        lines.push(`${listing.hits.length} neighbour(s) of ${seed} (${breakdown(listing.byRelation)}):`);
        lines.push(...edgeLines(engine, listing.hits, limit, sites).lines);
      }
      const shown = listing.hits.slice(0, Math.min(limit, listing.hits.length));
      return toolResult(lines.join('\n'), {
        seed,
        seed_qualified: sanitize(engine.qualified(v), 400),
        neighbors: shown.map((h) => ({
          label: sanitize(engine.ix.label(h.node)),
          qualified: sanitize(engine.qualified(h.node), 400),
          relation: sanitizeRelation(h.relation),
          direction: h.direction === 'in' ? 'incoming' : 'outgoing',
        })),
        by_relation: Object.fromEntries(Object.entries(listing.allByRelation).map(([k, c]) => [sanitizeRelation(k), c])),
        total: listing.hits.length,
        truncated: shown.length < listing.hits.length,
      });
    },
  };
}
