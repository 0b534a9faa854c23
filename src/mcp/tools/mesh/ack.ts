import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';

const inputSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(500) });
const outputSchema = z.object({ acked: z.array(z.number().int()), unknown: z.array(z.number().int()) });

export function meshAckTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_ack',
    title: 'Acknowledge messages',
    description: 'Mark messages handled so they are never delivered again (unacked ones come back after a crash).',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async ({ ids }) => {
      ctx.requireOn('ack');
      const acked = await (await ctx.mesh()).ack(ids);
      const done = new Set(acked);
      return meshResult({ acked, unknown: ids.filter((id) => !done.has(id)) });
    },
  };
}
