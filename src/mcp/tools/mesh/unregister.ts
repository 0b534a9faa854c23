import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({});
const outputSchema = z.object({ released: z.string().nullable() });

export function meshUnregisterTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_unregister',
    title: 'Leave the agent mesh',
    description: 'Release your mesh name; unacknowledged messages wait for its next holder.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async () => {
      const left = await (await ctx.mesh()).unregister();
      return meshResult({ released: left?.name ?? null });
    },
  };
}
