import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({
  state: z.enum(['idle', 'working', 'blocked']),
  detail: z.string().optional().describe('What on, or blocked by what.'),
});
const outputSchema = z.object({ state: z.string(), detail: z.string() });

export function meshStatusTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_status',
    title: 'Report work state',
    description: 'Tell peers your state; agents watching you get it as a status message.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async ({ state, detail }) => {
      ctx.requireOn('report status');
      await (await ctx.mesh()).status(state, detail ?? '');
      return meshResult({ state, detail: state === 'idle' ? '' : (detail ?? '') });
    },
  };
}
