import { z } from 'zod';
import { refuseCredentials } from '../../../memory/credentials.ts';
import type { ToolDefinition } from '../../tool.ts';
import { echoProjectOnError, memoryResult, type MemoryToolContext } from './context.ts';

const inputSchema = z.object({
  content: z.string().min(1).describe('The fact, decision, preference, convention or correction to keep, in one or a few sentences.'),
  source: z.string().optional().describe('Short label of who or what established it (for example "user", "code review", "synaptic").'),
  scope: z.enum(['global', 'project']).optional().describe('project (default): only this project sees it; global: every project does.'),
  project: z.string().optional().describe('Absolute project root. Defaults to SYNAPTIC_PROJECT_DIR, then the server working directory.'),
  supersedes: z.array(z.number().int().positive()).optional().describe('Ids of memories this one replaces (same scope); they stop being recalled.'),
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
      'Stores a durable fact, decision, preference, convention or correction so later sessions start with it. ' +
      'Remember only stable, confirmed context, one fact per call. When it corrects an earlier memory, pass that ' +
      "memory's id in supersedes (recall finds it) so the retracted version is never recalled again. Never store " +
      'secrets: content that looks like a credential is refused; keep values in the vault and remember the variable name. ' +
      'Returns {id, stored, superseded}; stored is false when an identical memory already exists (its id is returned).',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: ({ content, source, scope, project, supersedes }) => {
      // A project holding a credential is refused before resolution or an error message can echo it.
      refuseCredentials('remember', { project });
      const path = ctx.project(project);
      refuseCredentials('remember', { project: path });
      return echoProjectOnError(path, () =>
        memoryResult(ctx.store().remember({ content, source: source ?? 'agent', scope: scope ?? 'project', project: path, supersedes: supersedes ?? [] }), path),
      );
    },
  };
}
