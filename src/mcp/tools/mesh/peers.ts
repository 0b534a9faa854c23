import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { agentOut, workerOut, workerSchema } from './schemas.ts';

const inputSchema = z.object({});
const outputSchema = z.object({
  me: z.string(),
  agents: z.array(z.object({ name: z.string(), role: z.string(), state: z.string(), detail: z.string(), since: z.number() })),
  workers: z.array(workerSchema),
});

export function meshPeersTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_peers',
    title: 'List mesh peers',
    description: "The project's connected agents with their state (idle, working, blocked and on what), and recent background workers.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async () => {
      ctx.requireOn('list peers');
      const { me, agents, workers } = await (await ctx.mesh()).peers();
      return meshResult({ me, agents: agents.map(agentOut), workers: workers.map(workerOut) });
    },
  };
}
