import { z } from 'zod';
import { triagePrs } from '../pr/pr-service.node.ts';
import { TRIAGE_INSTRUCTION } from '../pr/prs.ts';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';
import { ghProblemResult, prInput } from './list-prs.ts';

const input = z.object(prInput);

/** triage_prs: open PRs ranked by status with their blast radius, and what the calling model should do with them. */
export function createTriagePrsTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'triage_prs',
    title: 'Triage pull requests',
    description: 'Open PRs ranked by status with each one\'s blast radius, as data for you to prioritize (needs gh).',
    inputSchema: input,
    annotations: OPEN_WORLD,
    async handler(args) {
      const engine = await ctx.engine();
      let result;
      try {
        result = await triagePrs({ ...(args.base !== undefined ? { base: args.base } : {}), ...(args.repo ? { repo: args.repo } : {}) }, engine);
      } catch (err) {
        return ghProblemResult(err);
      }
      const data = {
        base: sanitize(result.base),
        instruction: TRIAGE_INSTRUCTION,
        prs: result.prs,
        errors: result.errors.map((e) => ({ number: e.number, error: sanitize(e.error, 300) })),
      };
      const head = result.prs.length
        ? `${result.prs.length} open pull request${result.prs.length === 1 ? '' : 's'} against ${data.base}, ranked by status then blast radius.`
        : `No open pull requests against ${data.base}.`;
      return toolResult(`${head}\nInstruction: ${TRIAGE_INSTRUCTION}\n${JSON.stringify(data, null, 1)}`, data);
    },
  };
}
