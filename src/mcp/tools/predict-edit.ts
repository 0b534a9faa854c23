import { z } from 'zod';
import { depthRollup, EDIT_KINDS, predictEdit, type EditImpact } from '../../query/edit-plan/predict-edit.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { sanitize, sanitizeRelation } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { nodeLine, unresolvedText } from './format.ts';

const input = z.object({
  symbol: z.string().min(1).describe('The symbol to edit.'),
  kind: z.enum(EDIT_KINDS).describe('delete, signature or visibility (narrowing to private).'),
  // The handler clamps (any integer is accepted), so the bounds are advertised in the schema, not enforced by it.
  depth: z.number().int().meta({ minimum: 1, maximum: 16 }).optional().describe('Hops to walk back (default 3).'),
  limit: z.number().int().min(1).optional().describe('Most entries per section (default 20).'),
  verbose: z.boolean().optional().describe('List every entry.'),
});

const DEFAULT_LIMIT = 20;

/** predict_edit: what a delete / signature change / narrowing to private of one symbol breaks (pure graph query). */
export function createPredictEditTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'predict_edit',
    title: 'Predict an edit',
    description: 'What breaks if I delete X, change its signature or make it private: dependents split into "will break" and "to review", each with hops, relation and reason.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const res = engine.resolve(args.symbol);
      if (res.status !== 'found') return toolResult(unresolvedText(res));
      const depth = Math.max(1, Math.min(16, args.depth ?? 3));
      const limit = args.verbose ? Infinity : (args.limit ?? DEFAULT_LIMIT);
      const f = predictEdit(engine, res.node, args.kind, depth);
      const seed = nodeLine(engine, f.seed);
      const lines = [`predict_edit ${args.kind} ${seed} (<= ${depth} hops): ${f.willBreak.length} will break, ${f.review.length} to review`];
      if (f.foldedMembers) lines.push(`(a ${sanitize(engine.ix.node(f.seed).kind, 30)} with ${f.foldedMembers} members: their dependents count too)`);
      section(lines, engine, 'Will break', f.willBreak, limit);
      section(lines, engine, 'Review', f.review, limit);
      if (!f.willBreak.length && !f.review.length) {
        const caveat = engine.dynamicCaveat(f.seed);
        lines.push(caveat ? `(no static dependents; ${caveat})` : '(no static dependents within that depth)');
      }
      return toolResult(lines.join('\n'));
    },
  };
}

function section(lines: string[], engine: QueryEngine, title: string, list: EditImpact[], limit: number): void {
  const rollup = depthRollup(list);
  lines.push(`${title} (${list.length}${rollup ? `; ${rollup}` : ''}):`);
  const shown = Math.min(limit, list.length);
  for (let i = 0; i < shown; i++) {
    const h = list[i]!;
    lines.push(`  [${h.depth}h] ${sanitizeRelation(h.relation)}: ${nodeLine(engine, h.node)} -- ${sanitize(h.reason, 400)}`);
  }
  if (list.length > shown) lines.push(`  +${list.length - shown} more (pass verbose=true or a larger limit)`);
}
