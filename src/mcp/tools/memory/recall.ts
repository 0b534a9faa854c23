import { z } from 'zod';
import { DEFAULT_RECALL_LIMIT, MAX_RECALL_LIMIT } from '../../../memory/store.ts';
import type { ToolDefinition } from '../../tool.ts';
import { echoProjectOnError, memoryResult, type MemoryToolContext } from './context.ts';

const inputSchema = z.object({
  query: z.string().optional().describe('What you need to know, in a few words. Empty: the most recent memory.'),
  limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).optional().describe(`Most memories to return (default ${DEFAULT_RECALL_LIMIT}).`),
  budget: z.enum(['lean', 'full']).optional().describe('lean (default) bounds the response tightly; full returns more text.'),
  project: z.string().optional().describe('Absolute project root. Defaults to SYNAPTIC_PROJECT_DIR, then the server working directory.'),
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
      'Returns durable memory relevant to a query: decisions, conventions and corrections stored by earlier sessions, ' +
      'everything global plus everything of this project. Call it before a decision that depends on project history; ' +
      'an empty query returns the most recent memories. Results are ranked by relevance and recency. A memory marked ' +
      'abridged was cut to its opening sentence to fit the budget: call readmemory with its id and the same project ' +
      'before acting on the part you cannot see.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ query, limit, budget, project }) => {
      const path = ctx.project(project);
      return echoProjectOnError(path, () => memoryResult(ctx.store().recall({ query: query ?? '', limit, budget, project: path }), path));
    },
  };
}
