import type { Command } from '../command.ts';
import { EXTRACT_OPTIONS_USAGE, parseExtractArgs, runExtractCommand } from './extract-args.ts';

/** `synaptic extract [path]`: build the code graph of a repository into synaptic-out/. */
export const extractCommand: Command = {
  name: 'extract',
  summary: 'build the code graph of a repository (synaptic-out/graph.json, graph.cbor, GRAPH_REPORT.md)',
  usage: `Usage: synaptic extract [path] [options]

Extracts the code graph of the repository at <path> (default: the current folder) and writes
graph.json, graph.cbor, .manifest.json and GRAPH_REPORT.md to <path>/synaptic-out/.

Later, \`synaptic update\` re-parses only what changed, and \`synaptic update --watch\` keeps the
outputs current while you edit.

${EXTRACT_OPTIONS_USAGE}
`,
  run: async (argv) => {
    const args = parseExtractArgs(argv, 'extract');
    return runExtractCommand(args, false);
  },
};
