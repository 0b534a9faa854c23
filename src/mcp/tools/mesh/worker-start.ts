import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { workerOut, workerSchema } from './schemas.ts';

const inputSchema = z.object({
  worker: z.string().describe('A worker the owner configured.'),
  prompt: z.string().optional(),
  limit_s: z.number().int().positive().optional().describe("Lower the configured time limit."),
});
const outputSchema = z.object({ worker: workerSchema });

export function meshWorkerStartTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_worker_start',
    title: 'Start a background worker',
    description:
      "Run a command the owner configured (e.g. another agent CLI) in the background, with your prompt; killed at its time limit. Its end arrives in your inbox. Refused unless the owner allowed workers.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    handler: async ({ worker, prompt, limit_s }) => {
      ctx.requireOn('start a worker');
      // It runs in the project folder of the registration (start refuses an unregistered session).
      const project = (await ctx.mesh()).registration?.project ?? '';
      const started = await (await ctx.workers()).start(worker, prompt, limit_s, project);
      return meshResult({ worker: workerOut(started) });
    },
  };
}
