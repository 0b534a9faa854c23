import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({
  peers: z.array(z.string()).min(1).max(32),
  off: z.boolean().optional().describe('true to stop watching.'),
});
const outputSchema = z.object({ watching: z.array(z.string()) });

export function meshWatchTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_watch',
    title: 'Watch peers',
    description: "Get each state change of these peers as a status message (wakes mesh_wait); returns whom you watch.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async ({ peers, off }) => {
      ctx.requireOn('watch');
      return meshResult({ watching: await (await ctx.mesh()).watch(peers, off !== true) });
    },
  };
}
