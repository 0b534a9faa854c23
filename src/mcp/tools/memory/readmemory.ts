import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { echoProjectOnError, memoryResult, type MemoryToolContext } from './context.ts';

const inputSchema = z.object({
  id: z.number().int().describe('Memory id from recall.'),
  project: z.string().optional().describe('Absolute project root (the same one recall used).'),
  offset: z.number().int().min(0).optional().describe('UTF-8 byte offset: 0, or the next value of the previous page.'),
  budget: z.enum(['lean', 'full']).optional().describe('lean (default): smaller pages; full: larger pages.'),
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
      'Reads one memory by id after recall identified it, as an exact page of the stored text (code and whitespace ' +
      'included). next is the offset of the following page (null at the end); total is the body length in UTF-8 bytes. ' +
      'A missing, superseded or out-of-scope id gives memory: null. If a page looks inconsistent, restart at offset 0.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: ({ id, project, offset, budget }) => {
      const path = ctx.project(project);
      return echoProjectOnError(path, () => memoryResult(ctx.store().read({ id, project: path, offset: offset ?? 0, budget }), path));
    },
  };
}
