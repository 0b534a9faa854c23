import { resolve } from 'node:path';
import { UsageError, type Command } from '../command.ts';
import { SESSION_MEMORY_LIMIT, sessionOutput } from '../../memory/hooks.ts';
import { resolveProject } from '../../memory/project.ts';
import { sanitizeSource } from '../../graph/sanitize.ts';
import { MemoryStore } from '../../memory/store.ts';

const USAGE = `Usage: synaptic session [--json] [--project DIR]

The SessionStart hook: prints "Synaptic connected · N memories" and puts this project's memory
(global plus this project's, newest first, within a size budget) into the session's context.
--json prints the hook JSON Claude Code reads; without it, the same text for a terminal.
The project is --project, then SYNAPTIC_PROJECT_DIR, then CLAUDE_PROJECT_DIR, then the working
directory, normalized to the repository root. Never fails a session: problems become the message.`;

export const sessionCommand: Command = {
  name: 'session',
  summary: 'SessionStart hook: connection line and this project\'s memory',
  usage: USAGE,
  async run(argv) {
    let json = false;
    let project: string | undefined;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i]!;
      if (a === '--json') json = true;
      else if (a === '--project') {
        project = argv[++i];
        if (project === undefined) throw new UsageError('--project needs a value');
      } else throw new UsageError(`unexpected argument '${a}'`);
    }
    let output;
    try {
      const path = resolveProject(project === undefined ? undefined : resolve(project), process.env, process.env.CLAUDE_PROJECT_DIR || process.cwd()).path;
      const store = MemoryStore.open();
      try {
        output = sessionOutput(path, store.count(path), store.recent(path, SESSION_MEMORY_LIMIT));
      } finally {
        store.close();
      }
    } catch (err) {
      const reason = sanitizeSource((err as Error).message.replace(/\r?\n/g, ' '));
      output = {
        systemMessage: `Synaptic memory unavailable: ${reason}`,
        hookSpecificOutput: { hookEventName: 'SessionStart' as const, additionalContext: `Synaptic memory could not be loaded for this session: ${reason}` },
      };
    }
    if (json) process.stdout.write(`${JSON.stringify(output)}\n`);
    else process.stdout.write(`${output.systemMessage}\n\n${output.hookSpecificOutput.additionalContext}\n`);
    return 0;
  },
};
