import { resolve } from 'node:path';
import type { Command } from '../command.ts';
import { compactOutput } from '../../memory/hooks.ts';
import { resolveProject } from '../../memory/project.ts';

const USAGE = `Usage: synaptic compact [--project DIR]

The PreCompact hook: prints JSON asking the session to call remember for each fact it settled that
is not stored yet. It recalls nothing, opens no database, and never blocks or rewrites compaction.`;

export const compactCommand: Command = {
  name: 'compact',
  summary: 'PreCompact hook: ask the session to remember what it settled',
  usage: USAGE,
  async run(argv) {
    const i = argv.indexOf('--project');
    let project: string;
    try {
      project = resolveProject(i >= 0 && argv[i + 1] ? resolve(argv[i + 1]!) : undefined, process.env, process.env.CLAUDE_PROJECT_DIR || process.cwd()).path;
    } catch {
      project = process.cwd();
    }
    process.stdout.write(`${JSON.stringify(compactOutput(project))}\n`);
    return 0;
  },
};
