import type { Command } from '../command.ts';
import { EXTRACT_OPTIONS_USAGE, parseExtractArgs, runExtractCommand } from './extract-args.ts';

/** `synaptic update [path]`: re-extract only added, changed and deleted files. */
export const updateCommand: Command = {
  name: 'update',
  summary: 'refresh synaptic-out/ after edits: re-parses only added and changed files',
  usage: `Usage: synaptic update [path] [options]

Re-extracts only the files added, changed or deleted since the last extract of <path> (default: the
current folder) and rewrites the outputs; the result equals a full extract. Without a previous
extract it runs a full one.

${EXTRACT_OPTIONS_USAGE}
`,
  run: async (argv) => runExtractCommand(parseExtractArgs(argv, 'update'), true),
};
