import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command.ts';
import { projectRoot, SkillLibrary, type SkillMeta } from '../../skills/index.ts';

const USAGE = `Usage: synaptic skills <list|show|approve|reject> ...

The skill library: procedures sessions wrote with teach/revise (while 'synaptic settings learn on').
Nothing a session writes is used until you approve it.

  synaptic skills list [--all] [--json]          pending and approved skills (--all: rejected too)
  synaptic skills show NAME [--revision ID]      the SKILL.md approve would write, note, revisions
  synaptic skills approve NAME [--force]         write it where Claude Code reads skills:
      ~/.claude/skills/NAME/SKILL.md (global) or <project>/.claude/skills/NAME/SKILL.md
  synaptic skills reject NAME                    reject a pending skill, or roll a pending
      revision back to the approved text; rejecting an approved skill removes its SKILL.md

NAME is looked up for the current project (--project DIR to choose), then globally (--global: only).`;

function lookupProject(values: { project?: string; global?: boolean }): string | null {
  if (values.global) return null;
  return projectRoot(realpathSync(resolve(values.project ?? '.')));
}

function when(t: number): string {
  return new Date(t * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
}

function line(m: SkillMeta): string {
  return `${m.name}  ${m.status}  ${m.scope === 'global' ? 'global' : m.project}  ${when(m.updated)}  ${m.description}`;
}

export const skillsCommand: Command = {
  name: 'skills',
  summary: 'review the skill library: list, show, approve, reject',
  usage: USAGE,
  async run(argv) {
    const [sub, ...rest] = argv;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        all: { type: 'boolean' },
        json: { type: 'boolean' },
        project: { type: 'string' },
        global: { type: 'boolean' },
        revision: { type: 'string' },
        force: { type: 'boolean' },
      },
    });
    const lib = await SkillLibrary.open();
    try {
      return await runSub(lib);
    } finally {
      await lib.close();
    }

    async function runSub(lib: SkillLibrary): Promise<number> {
    const one = (): string => {
      if (positionals.length !== 1) throw new UsageError(`${sub} takes one skill NAME`);
      return positionals[0]!;
    };
    switch (sub) {
      case 'list': {
        const list = await lib.list({ all: values.all });
        if (values.json) process.stdout.write(JSON.stringify(list, null, 2) + '\n');
        else if (list.length === 0) process.stdout.write('No skills yet (sessions add them with teach while `synaptic settings learn on`)\n');
        else process.stdout.write(list.map(line).join('\n') + '\n');
        return 0;
      }
      case 'show': {
        const meta = await lib.find(one(), lookupProject(values));
        if (values.revision) {
          process.stdout.write(await lib.revisionText(meta, values.revision));
          return 0;
        }
        const out = [
          `# ${meta.name} (${meta.status}, ${meta.scope === 'global' ? 'global' : `project ${meta.project}`})`,
          `# note: ${meta.note}`,
          `# approve writes: ${lib.targetPath(meta)}`,
          ...meta.revisions.map((r) => `# revision ${r.id} (${when(r.at)}): ${r.note}`),
          '',
          await lib.render(meta),
        ];
        process.stdout.write(out.join('\n'));
        return 0;
      }
      case 'approve': {
        const { meta, path } = await lib.approve(one(), lookupProject(values), { force: values.force });
        process.stdout.write(`Approved ${meta.name}: wrote ${path}\n`);
        return 0;
      }
      case 'reject': {
        const { meta, restored, removed } = await lib.reject(one(), lookupProject(values));
        if (restored) process.stdout.write(`Rejected the pending revision of ${meta.name}: the approved text stays\n`);
        else process.stdout.write(`Rejected ${meta.name}${removed ? `: removed ${removed}` : ''}\n`);
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown subcommand '${sub}' (list, show, approve, reject)` : 'missing subcommand (list, show, approve, reject)');
    }
    }
  },
};
