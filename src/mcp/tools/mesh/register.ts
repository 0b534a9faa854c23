import { z } from 'zod';
import type { ToolDefinition } from '../../tool.ts';
import { meshResult, type MeshToolContext } from './context.ts';
import { MESH_GUIDANCE } from './guidance.ts';

const inputSchema = z.object({
  name: z.string().describe('Unique in this project: letters, digits, . _ -'),
  role: z.string().optional().describe('What you do, for peers ("reviewer").'),
  project: z.string().optional().describe('Absolute project root.'),
});

const outputSchema = z.object({ name: z.string(), project: z.string(), peers: z.array(z.string()), pending: z.number().int() });

export function meshRegisterTool(ctx: MeshToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'mesh_register',
    title: 'Join the agent mesh',
    description: "Join this project's agent mesh under a name (needed before the other mesh tools); the name is yours until you unregister or the session ends.",
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: async ({ name, role, project }) => {
      ctx.requireOn('register');
      const mesh = await ctx.mesh();
      const path = ctx.project(project);
      await mesh.register(path, name, role ?? '');
      // Workers left running by a session whose server was killed end here, on the next registration.
      await (await ctx.workers()).reap(path);
      const [{ agents }, { pending }] = await Promise.all([mesh.peers(), mesh.inbox(0)]);
      // The guidance rides along: a legacy client keeps the instructions it got at initialize.
      return meshResult({ name, project: path, peers: agents.map((a) => a.name).filter((n) => n !== name), pending }, MESH_GUIDANCE);
    },
  };
}
