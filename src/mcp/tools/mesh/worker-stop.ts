import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { workerOut, workerSchema } from './schemas.ts';

const inputSchema = z.object({ id: z.number().int().positive() });
const outputSchema = z.object({ worker: workerSchema });

export function meshWorkerStopTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_worker_stop',
    title: 'Stop a background worker',
    description: 'Stop a worker you started (mesh_peers lists workers); its output stays in its log.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    handler: async ({ id }) => {
      ctx.requireOn('stop a worker');
      return meshResult({ worker: workerOut(await (await ctx.workers()).stop(id)) });
    },
  };
}
