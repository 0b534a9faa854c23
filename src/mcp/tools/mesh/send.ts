import { z } from 'zod';
import { MAX_MESSAGE_BYTES } from '../../../mesh/index.ts';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({
  to: z.union([z.string(), z.array(z.string()).min(1).max(32)]).describe('Peer name(s).'),
  body: z.string().min(1).describe(`The message (at most ${MAX_MESSAGE_BYTES / 1024} KiB).`),
});
const outputSchema = z.object({ ids: z.array(z.number().int()), delivered: z.array(z.string()) });

export function meshSendTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_send',
    title: 'Message a peer',
    description: 'Send a message to peers by name; it stays in their inbox until they ack it.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async ({ to, body }) => {
      ctx.requireOn('send');
      const sent = await (await ctx.mesh()).send(Array.isArray(to) ? to : [to], body);
      return meshResult({ ids: sent.ids, delivered: sent.delivered });
    },
  };
}
