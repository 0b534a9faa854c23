import type { Command } from '../command.ts';
import { EXTRACT_OPTIONS_USAGE, parseExtractArgs, runExtractCommand } from './extract-args.ts';
import { residentWanted, startResidentFor } from './update-resident.ts';

/** `synaptic extract [path]`: build the code graph of a repository into synaptic-out/. */
export const extractCommand: Command = {
  name: 'extract',
  summary: 'build the code graph of a repository (synaptic-out/graph.json, graph.cbor, GRAPH_REPORT.md)',
  usage: `Usage: synaptic extract [path] [options]

Extracts the code graph of the repository at <path> (default: the current folder) and writes
graph.json, graph.cbor, .manifest.json and GRAPH_REPORT.md to <path>/synaptic-out/.

On a large repository (graph.cbor of 4 MB or more) it then starts the background updater that
\`synaptic update\` starts (see \`synaptic update --help\`), in place of one already running for
the folder: it reads the new outputs back into memory while idle, so even the first
\`synaptic update\` after this extract is fast. SYNAPTIC_RESIDENT=0 turns it off (it is off when CI
is set).

${EXTRACT_OPTIONS_USAGE}
`,
  run: async (argv) => {
    const args = parseExtractArgs(argv, 'extract');
    const code = await runExtractCommand(args, false);
    // A background updater already there keeps the outputs this extract replaced: the new one takes over.
    if (code === 0 && residentWanted(args.outDir)) startResidentFor(args, { replace: true });
    return code;
  },
};
