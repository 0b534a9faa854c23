import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { echoProjectOnError, memoryResult, type MemoryToolContext } from './context.ts';

const inputSchema = z.object({
  id: z.number().int().describe('The memory id (from recall).'),
  project: z.string().optional().describe('The project recall used.'),
  offset: z.number().int().min(0).optional().describe('Byte offset: 0, or next from the previous page (0 again if pages disagree).'),
  budget: z.enum(['lean', 'full']).optional().describe('lean (default, smaller pages) or full.'),
});

const outputSchema = z.object({
  optimization: z.enum(['lean', 'full']),
  memory: z
    .object({
      id: z.number().int(),
      body: z.string(),
      source: z.string(),
      sourceabridged: z.boolean(),
      scope: z.enum(['global', 'project']),
      project: z.string(),
      created: z.number().int(),
      offset: z.number().int(),
      next: z.number().int().nullable(),
      total: z.number().int(),
    })
    .nullable(),
});

/** `readmemory`: one exact byte page of a memory body. */
export function readMemoryTool(ctx: MemoryToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'readmemory',
    title: 'Read memory',
    description:
      'Read one memory by id, an exact page of its stored text at a time (next: the following offset, null at the end). ' +
      'memory is null for a missing, superseded or out-of-scope id.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ id, project, offset, budget }) => {
      const path = ctx.project(project);
      return echoProjectOnError(path, async () => memoryResult(await (await ctx.store()).read({ id, project: path, offset: offset ?? 0, budget }), path));
    },
  };
}
