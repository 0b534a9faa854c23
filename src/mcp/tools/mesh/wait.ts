import { z } from 'zod';
import { MAX_WAIT_MS } from '../../../mesh/index.ts';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { messageOut, messageSchema, workOut, workSchema } from './schemas.ts';

const inputSchema = z.object({
  timeout_s: z.number().min(0).max(MAX_WAIT_MS / 1000).optional().describe('Default 60.'),
  claim: z.boolean().optional().describe('Also claim the next open work item.'),
});
const outputSchema = z.object({
  result: z.enum(['message', 'work', 'timeout', 'cancelled']),
  message: messageSchema.optional(),
  work: workSchema.optional(),
  claimed: z.boolean().optional(),
  waited_ms: z.number().optional(),
});

export function meshWaitTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_wait',
    title: 'Wait for work',
    description: 'Park until a new message or work item arrives (or the timeout); returns the first one. Ack a message once handled.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async ({ timeout_s, claim }, extra) => {
      ctx.requireOn('wait');
      const got = await (await ctx.mesh()).wait((timeout_s ?? 60) * 1000, { claim: claim === true, signal: extra?.signal });
      if (got.kind === 'message') return meshResult({ result: 'message', message: messageOut(got.message) });
      if (got.kind === 'work') return meshResult({ result: 'work', work: workOut(got.work), claimed: got.claimed });
      return meshResult({ result: got.kind, waited_ms: got.waitedMs });
    },
  };
}
