import { z } from 'zod';
import { sanitize, sanitizeRelation } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { libraryFirst, nodeLine, sanitizedCandidates, testFoldLine, unresolvedText } from './format.ts';

const input = z.object({
  label: z.string().min(1).describe('The symbol or file.'),
  // The handler clamps (any integer is accepted), so the bounds are advertised in the schema, not enforced by it.
  depth: z.number().int().meta({ minimum: 1, maximum: 16 }).optional().describe('Hops to walk back (default 3).'),
  relations: z.array(z.string()).optional().describe('Relations to follow (default: the impact relations).'),
  limit: z.number().int().min(1).optional().describe('Most dependents listed.'),
});

const output = z.looseObject({
  seed: z.string(),
  seed_qualified: z.string(),
  resolved: z.boolean(),
  affected: z.array(z.looseObject({ label: z.string(), qualified: z.string(), depth: z.number(), via_relation: z.string() })),
  total: z.number(),
  truncated: z.boolean(),
  by_depth: z.record(z.string(), z.number()),
  aggregated_over_members: z.number().optional(),
  dynamic_caveat: z.string().optional(),
  ambiguous: z.boolean().optional(),
  found: z.boolean().optional(),
  candidates: z.array(z.looseObject({})).optional(),
});

const STRUCTURED_CAP = 1000;

/** affected: reverse-impact blast radius of a symbol. */
export function createAffectedTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'affected',
    title: 'Blast radius',
    description:
      'What breaks if I change X: the nodes that depend on a symbol, transitively, each with its hop count and the relation that reached it; a class includes its members.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const res = engine.resolve(args.label);
      if (res.status !== 'found') {
        return toolResult(unresolvedText(res), {
          seed: sanitize(args.label),
          seed_qualified: '',
          resolved: false,
          affected: [],
          total: 0,
          truncated: false,
          by_depth: {},
          ...(res.status === 'ambiguous' ? { ambiguous: true, candidates: sanitizedCandidates(res.candidates) } : { found: false }),
        });
      }
      const v = res.node;
      const depth = Math.max(1, Math.min(16, args.depth ?? 3));
      const { hits, foldedMembers, byDepth } = engine.affected(v, depth, args.relations);
      const seed = engine.safeLabel(v);
      const limit = args.limit ?? ctx.defaults.listLimit;
      const lines: string[] = [];
      if (foldedMembers) lines.push(`${seed} is a ${sanitize(engine.ix.node(v).kind, 30)} with ${foldedMembers} members; impact is aggregated across the class and its members`);
      lines.push(`${hits.length} nodes depend on ${seed} (<= ${depth} hops):`);
      // What a change breaks in the library first; the tests that reach it as a count per file.
      const { library, tests, fold } = libraryFirst(engine, hits);
      for (const h of library.slice(0, limit)) lines.push(`  [${h.depth}] via ${sanitizeRelation(h.via)}: ${nodeLine(engine, h.node)}`);
      if (library.length > limit) lines.push(`  +${library.length - limit} more (raise limit, or lower depth)`);
      if (fold.count) lines.push(testFoldLine(fold, 'the structured affected list names them, test: true'));
      const caveat = hits.length ? undefined : engine.dynamicCaveat(v);
      if (!hits.length) lines.push(caveat ? `  (none; ${caveat})` : '  (no static dependents within that depth)');
      const structured: Record<string, unknown> = {
        seed,
        seed_qualified: engine.safeQualified(v),
        resolved: true,
        affected: [...library, ...tests].slice(0, STRUCTURED_CAP).map((h, i) => ({
          label: engine.safeLabel(h.node),
          qualified: engine.safeQualified(h.node),
          depth: h.depth,
          via_relation: sanitizeRelation(h.via),
          ...(i >= library.length ? { test: true } : {}),
        })),
        total: hits.length,
        truncated: hits.length > STRUCTURED_CAP,
        by_depth: byDepth,
      };
      if (fold.count) structured.test_files = fold.files;
      if (foldedMembers) structured.aggregated_over_members = foldedMembers;
      if (caveat) structured.dynamic_caveat = caveat;
      return toolResult(lines.join('\n'), structured);
    },
  };
}
