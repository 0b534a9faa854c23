import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({
  channel: z.string().describe('Channel name.'),
  body: z.string().min(1),
});
const outputSchema = z.object({ ids: z.array(z.number().int()), delivered: z.array(z.string()), inbox_full: z.array(z.string()) });

export function meshPublishTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_publish',
    title: 'Publish to a channel',
    description: "Send a message to every subscriber of a channel (not yourself). inbox_full names subscribers who missed it.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async ({ channel, body }) => {
      ctx.requireOn('publish');
      const sent = await (await ctx.mesh()).publish(channel, body);
      return meshResult({ ids: sent.ids, delivered: sent.delivered, inbox_full: sent.full });
    },
  };
}
