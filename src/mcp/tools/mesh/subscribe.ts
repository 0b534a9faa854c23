import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({
  channels: z.array(z.string()).min(1).max(32),
  off: z.boolean().optional().describe('true to unsubscribe.'),
});
const outputSchema = z.object({ channels: z.array(z.string()) });

export function meshSubscribeTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_subscribe',
    title: 'Subscribe to channels',
    description: "Receive (or, with off, stop receiving) channels' messages in your inbox; returns your channels.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async ({ channels, off }) => {
      ctx.requireOn('subscribe');
      return meshResult({ channels: await (await ctx.mesh()).subscribe(channels, off !== true) });
    },
  };
}
