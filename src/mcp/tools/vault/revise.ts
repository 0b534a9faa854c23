import { z } from 'zod';
import { refuseCredentials } from '../../../memory/credentials.ts';
import { SkillLibrary, type Env } from '../../../skills/index.ts';
import { toolResult, type ToolDefinition } from '../../tool.ts';
import { requireLearn, skillProject } from './teach.ts';

const inputSchema = z.object({
  name: z.string().describe('The skill to correct.'),
  instructions: z.string().describe('The corrected instructions in full, as Markdown without frontmatter.'),
  note: z.string().describe('What was wrong with the version it replaces.'),
  project: z.string().optional().describe('Absolute project root.'),
});

const outputSchema = z.object({
  name: z.string(),
  revision: z.string(),
  status: z.literal('pending'),
  reached: z.array(z.string()),
  installed: z.array(z.string()),
});

/** `revise`: replaces a skill's instructions, keeping the old text under a revision id. */
export function reviseTool(options: { cwd: string; env: Env }): ToolDefinition<typeof inputSchema> {
  return {
    name: 'revise',
    title: 'Revise a skill',
    description:
      'Correct a skill that turned out wrong, sending the whole corrected text: the old text is kept under the returned revision id, and the correction waits for the owner\'s review ' +
      '(reached lists the tools already using it: none until approved).',
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    handler: async (args) => {
      requireLearn(options.env, 'revise');
      const { name, instructions, note, project } = args;
      refuseCredentials('revise the skill', { name, instructions, note, project }, 'skills');
      const lib = await SkillLibrary.open(options.env);
      try {
      const { meta, revision } = await lib.revise({
        name: args.name,
        instructions: args.instructions,
        note: args.note,
        project: skillProject(args.project, options.cwd, options.env),
      });
      const installed = meta.installed ? [meta.installed.tool] : [];
      const text =
        `Revised skill "${meta.name}": the old text is kept as ${revision}. The correction is waiting for the owner's review` +
        (installed.length ? '; the approved version stays in use until then.' : '.');
      return toolResult(text, { name: meta.name, revision, status: 'pending', reached: [], installed });
      } finally {
        await lib.close();
      }
    },
  };
}
