import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { workOut, workSchema } from './schemas.ts';

const inputSchema = z.object({ id: z.number().int().positive().optional().describe('Default: one you hold unfinished, else the oldest open.') });
const outputSchema = z.object({ work: workSchema.nullable(), resumed: z.boolean(), open: z.number().int() });

export function meshClaimTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_claim',
    title: 'Claim a work item',
    description: 'Take a work item; no two agents get the same one. work is null when none is open. Finish it with mesh_finish.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async ({ id }) => {
      ctx.requireOn('claim work');
      const mesh = await ctx.mesh();
      const got = await mesh.claim(id);
      const open = (await mesh.work(100)).filter((w) => w.state === 'open').length;
      return meshResult({ work: got ? workOut(got.work) : null, resumed: got?.resumed ?? false, open });
    },
  };
}
