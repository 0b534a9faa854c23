import { z } from 'zod';
import { DEFAULT_RECALL_LIMIT, MAX_RECALL_LIMIT } from '../../../memory/store.ts';
import type { ToolDefinition } from '../../tool.ts';
import { echoProjectOnError, memoryResult, type MemoryToolContext } from './context.ts';

const inputSchema = z.object({
  query: z.string().optional().describe('A few words; empty for the most recent.'),
  limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).optional().describe(`Most memories (default ${DEFAULT_RECALL_LIMIT}).`),
  budget: z.enum(['lean', 'full']).optional().describe('lean (default) or full (more text).'),
  project: z.string().optional().describe('Absolute project root.'),
});

const memorySchema = z.object({
  id: z.number().int(),
  body: z.string(),
  source: z.string(),
  scope: z.enum(['global', 'project']),
  project: z.string(),
  created: z.number().int(),
  abridged: z.literal(true).optional(),
});

const outputSchema = z.object({
  optimization: z.enum(['lean', 'full']),
  memories: z.array(memorySchema),
});

/** `recall`: memories relevant to a query (or the most recent), under the scope rule and a size budget. */
export function recallTool(ctx: MemoryToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'recall',
    title: 'Recall',
    description:
      "Memory from earlier sessions (decisions, conventions, corrections; global and this project's) ranked for a query, or the most recent for an empty one. " +
      'An abridged memory shows its first sentence only: readmemory reads it whole.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ query, limit, budget, project }) => {
      const path = ctx.project(project);
      return echoProjectOnError(path, async () => memoryResult(await (await ctx.store()).recall({ query: query ?? '', limit, budget, project: path }), path));
    },
  };
}
