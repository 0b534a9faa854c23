import { z } from 'zod';
import { GhProblem } from '../pr/gh.node.ts';
import { listPrs } from '../pr/pr-service.node.ts';
import { prLine, prRow } from '../pr/prs.ts';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition, type ToolResult } from '../tool.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';

export const prInput = {
  base: z.string().optional().describe('Base branch (default: the default branch).'),
  repo: z.string().optional().describe('owner/name (default: the current repo).'),
};
const input = z.object(prInput);

/** A gh problem is the PR tools' answer, not a server failure: the rest of the server is unaffected (spec). */
export function ghProblemResult(err: unknown): ToolResult {
  if (err instanceof GhProblem) return toolResult(sanitize(err.message, 600));
  throw err;
}

/** list_prs: open PRs against the base branch with their CI and review state (gh). */
export function createListPrsTool(_ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'list_prs',
    title: 'Open pull requests',
    description: 'Open PRs targeting the base branch with CI and review state (needs the gh CLI).',
    inputSchema: input,
    annotations: OPEN_WORLD,
    async handler(args) {
      try {
        const { base, prs } = await listPrs({ ...(args.base !== undefined ? { base: args.base } : {}), ...(args.repo ? { repo: args.repo } : {}) });
        if (!prs.length) return toolResult(`No open pull requests against ${sanitize(base)}.`);
        return toolResult([`${prs.length} open pull request${prs.length === 1 ? '' : 's'} against ${sanitize(base)}:`, ...prs.map((p) => `  ${prLine(prRow(p))}`)].join('\n'));
      } catch (err) {
        return ghProblemResult(err);
      }
    },
  };
}
