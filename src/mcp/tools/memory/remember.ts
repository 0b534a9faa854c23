import { z } from 'zod';
import { refuseCredentials } from '../../../memory/credentials.ts';
import type { ToolDefinition } from '../../tool.ts';
import { echoProjectOnError, memoryResult, type MemoryToolContext } from './context.ts';

const inputSchema = z.object({
  content: z.string().min(1).describe('The fact, decision or correction, in a sentence or a few.'),
  source: z.string().optional().describe('Who or what established it ("user", "code review").'),
  scope: z.enum(['global', 'project']).optional().describe('project (default) or global (every project).'),
  project: z.string().optional().describe('Absolute project root.'),
  supersedes: z.array(z.number().int().positive()).optional().describe('Ids (from recall) of memories this corrects; they stop being recalled.'),
});

const outputSchema = z.object({
  id: z.number().int(),
  stored: z.boolean(),
  superseded: z.array(z.number().int()),
});

/** `remember`: store a durable memory, replacing `supersedes` in the same transaction. */
export function rememberTool(ctx: MemoryToolContext): ToolDefinition<typeof inputSchema> {
  return {
    name: 'remember',
    title: 'Remember',
    description:
      'Store a durable fact, decision, preference, convention or correction for later sessions (never a credential). ' +
      'stored is false, with the existing id, when the same memory is already kept.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: ({ content, source, scope, project, supersedes }) => {
      // A project holding a credential is refused before resolution or an error message can echo it.
      refuseCredentials('remember', { project });
      const path = ctx.project(project);
      refuseCredentials('remember', { project: path });
      return echoProjectOnError(path, async () =>
        memoryResult(await (await ctx.store()).remember({ content, source: source ?? 'agent', scope: scope ?? 'project', project: path, supersedes: supersedes ?? [] }), path),
      );
    },
  };
}
