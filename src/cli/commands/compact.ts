import { resolve } from 'node:path';
import type { Command } from '../command.ts';
import { compactInstructions } from '../../memory/hooks.ts';
import { resolveProject } from '../../memory/project.ts';

const USAGE = `Usage: synaptic compact [--project DIR]

The PreCompact hook (Claude Code): prints plain text that Claude Code appends to the compaction's
instructions, asking the summary for a section listing what the session settled and did not store
with remember; the SessionStart hook after the compaction asks the session to store each line.
It recalls nothing, opens no database, and never blocks compaction (it always exits 0).`;

export const compactCommand: Command = {
  name: 'compact',
  summary: 'PreCompact hook: have the summary list what the session settled but did not store',
  usage: USAGE,
  async run(argv) {
    const i = argv.indexOf('--project');
    let project: string;
    try {
      project = resolveProject(i >= 0 && argv[i + 1] ? resolve(argv[i + 1]!) : undefined, process.env, process.env.CLAUDE_PROJECT_DIR || process.cwd()).path;
    } catch {
      project = process.cwd();
    }
    process.stdout.write(compactInstructions(project));
    return 0;
  },
};
