import { parseArgs } from 'node:util';
import { createPredictImpactTool } from '../../mcp/tools/predict-impact.ts';
import type { Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, intOption, openCliGraph, printTool } from '../graph-tools.ts';

export const predictCommand: Command = {
  name: 'predict',
  summary: "forecast a change: blast radius, public API and tests at risk, risk score, checklist",
  usage: `Usage: synaptic predict [<file>...] [--base <ref>] [--depth <n>] [--json]

Forecasts a change before you make it (the MCP tool predict_impact): the graph nodes the changed files
define, what depends on them within --depth hops, the changed symbols other files use (public API at
risk), the tests at risk, a low/medium/high risk with its drivers, and a checklist. Name the files you
will change, or give none for your working changes (git diff against the base: committed,
uncommitted and untracked).

  --base <ref>          base branch to diff against when no file is named (default: the default branch)
  --depth <n>           reverse-impact hops (default 3, at most 16)
${GRAPH_USAGE}
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GRAPH_OPTIONS, base: { type: 'string' }, depth: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const depth = intOption('depth', values.depth);
    const graph = await openCliGraph(values);
    try {
      return await printTool(createPredictImpactTool(graph.ctx), { files: positionals.length ? positionals : undefined, base: values.base, depth }, values.json === true);
    } finally {
      graph.close();
    }
  },
};
