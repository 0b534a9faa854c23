import { z } from 'zod';
import { reachedNode, STRUCTURED_CAP, testFiles } from '../../query/change-impact/forecast.ts';
import { changeImpact, testsOfImpact } from '../../query/change-impact/impact.ts';
import { sanitizeRelation } from '../../query/sanitize.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { baseName, changeSet } from './change-set.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';
import { nodeLine } from './format.ts';

const input = z.object({
  files: z.array(z.string()).optional().describe('Repo-relative changed files (default: git diff against base).'),
  base: z.string().optional().describe('Base branch when files is omitted (default: the default branch).'),
  depth: z.number().int().meta({ minimum: 1, maximum: 16 }).optional().describe('Reverse-impact hops (default 3).'),
});

const output = z.looseObject({
  tests: z.array(z.looseObject({ id: z.string(), label: z.string(), file: z.string(), depth: z.number(), via_relation: z.string() })),
  total: z.number(),
});

/** affected_tests: the test nodes in a change's reverse-impact set (predictive test selection). */
export function createAffectedTestsTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'affected_tests',
    title: 'Tests affected by a change',
    description:
      'Which tests to run for a change: the test nodes (by path convention) that reach the changed files (named, or git diff against base) within depth hops.',
    inputSchema: input,
    outputSchema: output,
    annotations: OPEN_WORLD,
    async handler(args) {
      const engine = await ctx.engine();
      const set = changeSet(engine, ctx.sourceRoot, { ...args, untracked: false });
      if (!set.ok) return toolError(set.message);
      if (!set.files.length) return toolResult(`No changes vs ${baseName(set)}.`, { tests: [], total: 0 });
      const impact = changeImpact(engine, set.files, args.depth);
      const tests = testsOfImpact(engine, impact);
      const structured = { tests: tests.slice(0, STRUCTURED_CAP).map((t) => reachedNode(engine, t)), total: tests.length };
      const hops = `<= ${impact.depth} hops`;
      if (!tests.length) {
        const why = impact.changed.length
          ? `${impact.changed.length} changed nodes, ${impact.dependents.length} dependents`
          : 'none of the changed files is in the graph';
        return toolResult(`No test in the graph reaches the change (${hops}; ${why}). Inline tests outside test paths are not detected; run the suite.`, structured);
      }
      const limit = ctx.defaults.listLimit;
      const files = testFiles(engine, tests);
      const lines = [`${tests.length} tests in ${files.length} test file${files.length === 1 ? '' : 's'} reach the change (${hops}):`];
      for (const t of tests.slice(0, limit)) lines.push(`  [${t.depth}] via ${sanitizeRelation(t.via)}: ${nodeLine(engine, t.node)}`);
      if (tests.length > limit) lines.push(`  +${tests.length - limit} more; the test files: ${files.join(', ')}`);
      return toolResult(lines.join('\n'), structured);
    },
  };
}
