import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { workOut, workSchema } from './schemas.ts';

const inputSchema = z.object({
  id: z.number().int().positive(),
  outcome: z.enum(['done', 'release']).optional().describe('release hands it back (default done).'),
  note: z.string().optional().describe('Result or reason.'),
});
const outputSchema = z.object({ work: workSchema });

export function meshFinishTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_finish',
    title: 'Finish a work item',
    description: 'Mark a work item you claimed done, or release it for another agent.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async ({ id, outcome, note }) => {
      ctx.requireOn('finish work');
      return meshResult({ work: workOut(await (await ctx.mesh()).finish(id, outcome ?? 'done', note ?? '')) });
    },
  };
}
