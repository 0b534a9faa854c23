import { z } from 'zod';
import { refuseCredentials } from '../../../memory/credentials.ts';
import { readSettings, SkillLibrary, type Env } from '../../../skills/index.ts';
import { toolResult, type ToolDefinition } from '../../tool.ts';

const inputSchema = z.object({
  name: z.string().describe('Lowercase letters, digits and hyphens (the folder name).'),
  description: z.string().describe('One line: when the skill applies.'),
  instructions: z.string().describe('The procedure as Markdown, without frontmatter.'),
  scope: z.enum(['project', 'global']).default('project'),
  project: z.string().optional().describe('Absolute project root.'),
  note: z.string().describe('For the owner: why it is worth keeping.'),
});

const outputSchema = z.object({
  stored: z.boolean(),
  status: z.literal('pending'),
  name: z.string(),
  scope: z.enum(['project', 'global']),
  project: z.string().nullable(),
  review: z.string(),
});

/** Project argument of teach/revise: argument, then SYNAPTIC_PROJECT_DIR, then the server cwd. */
export function skillProject(project: string | undefined, cwd: string, env: Env): string {
  return project || env.SYNAPTIC_PROJECT_DIR || env.SYNAPSE_PROJECT_DIR || cwd;
}

/** Refuses when the owner has switched self-improvement off since the tool list was sent. */
export function requireLearn(env: Env, action: string): void {
  if (!readSettings(env).learn) {
    throw new Error(`Cannot ${action}: self-improvement is off (the owner enables it with \`synaptic settings learn on\`)`);
  }
}

/** `teach`: stores a new skill in the library, pending the owner's review. */
export function teachTool(options: { cwd: string; env: Env }): ToolDefinition<typeof inputSchema> {
  return {
    name: 'teach',
    title: 'Teach a skill',
    description:
      'Write down a procedure this session worked out, as a pending skill the owner reviews before any tool loads it; Synaptic writes the frontmatter. ' +
      'To correct a skill, use revise.',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async (args) => {
      requireLearn(options.env, 'teach');
      const { name, description, instructions, note, project } = args;
      refuseCredentials('teach the skill', { name, description, instructions, note, project }, 'skills');
      const lib = await SkillLibrary.open(options.env);
      try {
      const scope = args.scope ?? 'project';
      const meta = await lib.teach({
        name: args.name,
        description: args.description,
        instructions: args.instructions,
        scope,
        project: scope === 'project' ? skillProject(args.project, options.cwd, options.env) : null,
        note: args.note,
      });
      const review = `synaptic skills show ${meta.name}, then synaptic skills approve ${meta.name}`;
      const text = `Stored skill "${meta.name}" (${meta.scope === 'global' ? 'global' : `project ${meta.project}`}): it is waiting for the owner's review and is not active until approved.`;
      return toolResult(text, { stored: true, status: 'pending', name: meta.name, scope: meta.scope, project: meta.project, review });
      } finally {
        await lib.close();
      }
    },
  };
}
