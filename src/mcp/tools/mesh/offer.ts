import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { workOut, workSchema } from './schemas.ts';

const inputSchema = z.object({
  title: z.string().min(1),
  body: z.string().optional().describe('What to do, in full.'),
});
const outputSchema = z.object({ work: workSchema });

export function meshOfferTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_offer',
    title: 'Offer a work item',
    description: 'Post a work item for any agent of the project to claim.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async ({ title, body }) => {
      ctx.requireOn('offer work');
      return meshResult({ work: workOut(await (await ctx.mesh()).offer(title, body ?? '')) });
    },
  };
}
