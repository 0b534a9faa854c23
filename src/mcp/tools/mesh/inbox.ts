import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { messageOut, messageSchema } from './schemas.ts';

const inputSchema = z.object({ limit: z.number().int().min(1).max(100).optional().describe('Most messages (default 20).') });
const outputSchema = z.object({ messages: z.array(messageSchema), pending: z.number().int() });

export function meshInboxTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_inbox',
    title: 'Read the inbox',
    description: 'Your unacknowledged messages, oldest first; redelivered marks one handed out before. pending counts all of them.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async ({ limit }) => {
      ctx.requireOn('read the inbox');
      const { messages, pending } = await (await ctx.mesh()).inbox(limit ?? 20);
      return meshResult({ messages: messages.map(messageOut), pending });
    },
  };
}
