import { z } from 'zod';
import { forecastOf, plural } from '../../query/change-impact/forecast.ts';
import { changeImpact, testsOfImpact } from '../../query/change-impact/impact.ts';
import { sanitize, sanitizeRelation } from '../../query/sanitize.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { baseName, changeSet, gitContext } from './change-set.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';
import { nodeLine } from './format.ts';

const input = z.object({
  files: z.array(z.string()).optional().describe('Repo-relative changed files (default: git diff against base).'),
  base: z.string().optional().describe('Base branch when files is omitted (default: the default branch).'),
  depth: z.number().int().meta({ minimum: 1, maximum: 16 }).optional().describe('Reverse-impact hops (default 3).'),
});

// The ChangeForecast's top level (spec); the entries are described by the spec, not repeated here (tools/list budget).
const list = z.array(z.looseObject({}));
const output = z.looseObject({
  summary: z.string(),
  changed_files: list,
  changed_nodes: list,
  public_api_breaks: list,
  blast_radius: list,
  blast_radius_total: z.number(),
  at_risk_tests: list,
  verify_checklist: z.array(z.string()),
  risk: z.looseObject({ level: z.enum(['low', 'medium', 'high']), score: z.number(), drivers: z.array(z.string()) }),
});

/** predict_impact: the ChangeForecast of a change (named files or the working changes). */
export function createPredictImpactTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'predict_impact',
    title: 'Predict change impact',
    description:
      'Forecast a change before editing: the nodes the changed files define, their blast radius, public API used from other files, tests at risk, a low/medium/high risk with its drivers, and a checklist.',
    inputSchema: input,
    outputSchema: output,
    annotations: OPEN_WORLD,
    async handler(args) {
      const engine = await ctx.engine();
      const set = changeSet(engine, ctx.sourceRoot, { ...args, untracked: false });
      if (!set.ok) return toolError(set.message);
      const impact = changeImpact(engine, set.files, args.depth);
      const forecast = forecastOf(engine, impact);
      const base = baseName(set);
      const where = set.git ? { base, merge_base: set.git.mergeBase } : {};
      if (!set.files.length) return toolResult(`No changes vs ${base}.`, { ...forecast, ...where });
      const limit = ctx.defaults.listLimit;
      const lines = [`Forecast${set.git ? ` vs ${base}` : ''}: ${forecast.summary}`];
      if (set.git) lines.push(gitContext(set.git));
      const risk = forecast.risk;
      lines.push(`Risk: ${risk.level} (score ${risk.score})${risk.drivers.length ? `: ${risk.drivers.join('; ')}` : ': nothing outside the changed files depends on them'}`);
      const more = (total: number, shown: number) => (total > shown ? [`  +${total - shown} more (structuredContent has them all)`] : []);

      lines.push(`Changed nodes (${impact.changed.length}):`);
      const symbols = impact.changed.filter((v) => engine.ix.node(v).kind !== 'file');
      for (const v of symbols.slice(0, limit)) lines.push(`  ${nodeLine(engine, v)}`);
      lines.push(...more(symbols.length, Math.min(limit, symbols.length)));
      for (const f of impact.files) if (!f.nodes.length) lines.push(`  (${sanitize(f.path)} is not in the graph)`);

      lines.push(`Public API at risk (${forecast.public_api_breaks.length}):`);
      for (const a of forecast.public_api_breaks.slice(0, limit)) {
        lines.push(`  ${a.label} [${a.kind}] ${a.file}:L${a.line}: ${plural(a.external_dependents, 'dependent')} in ${plural(a.files, 'other file')} (${plural(a.modules, 'other folder')})`);
      }
      lines.push(...more(forecast.public_api_breaks.length, Math.min(limit, forecast.public_api_breaks.length)));

      const tests = testsOfImpact(engine, impact);
      lines.push(`Tests at risk (${tests.length}):`);
      for (const t of tests.slice(0, limit)) lines.push(`  [${t.depth}] via ${sanitizeRelation(t.via)}: ${nodeLine(engine, t.node)}`);
      lines.push(...more(tests.length, Math.min(limit, tests.length)));

      lines.push(`Blast radius (${impact.dependents.length} dependents, <= ${impact.depth} hops):`);
      for (const h of impact.dependents.slice(0, limit)) lines.push(`  [${h.depth}] via ${sanitizeRelation(h.via)}: ${nodeLine(engine, h.node)}`);
      lines.push(...more(impact.dependents.length, Math.min(limit, impact.dependents.length)));

      lines.push('Verify:');
      for (const item of forecast.verify_checklist) lines.push(`  - ${item}`);
      return toolResult(lines.join('\n'), { ...forecast, ...where });
    },
  };
}
