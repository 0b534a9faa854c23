import { parseArgs } from 'node:util';
import { createPredictImpactTool } from '../../mcp/tools/predict-impact.ts';
import { createTimeTravelDiffTool } from '../../mcp/tools/time-travel-diff.ts';
import { UsageError, type Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, intOption, openCliGraph, printResult, resultText, runTool } from '../graph-tools.ts';

export const predictCommand: Command = {
  name: 'predict',
  summary: 'forecast a change: blast radius, public API and tests at risk, risk score, checklist',
  usage: `Usage: synaptic predict [<file>...] [--base <ref>] [--depth <n>] [--worktrees] [--json]

Forecasts a change before you make it (the MCP tool predict_impact): the graph nodes the changed files
define, what depends on them within --depth hops, the changed symbols other files use (public API at
risk), the tests at risk, a low/medium/high risk with its drivers, and a checklist. Name the files you
will change, or give none for your working changes (git diff against the base).

  --base <ref>          base branch to diff against when no file is named (default: the default branch)
  --depth <n>           reverse-impact hops (default 3, at most 16)
  --worktrees           working changes only: also build the merge base in a throwaway git worktree
                        and compare graphs (the MCP tool time_travel_diff): removed APIs, new cycles,
                        dependencies added and removed. Slow the first time, cached per commit after.
${GRAPH_USAGE}
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GRAPH_OPTIONS, base: { type: 'string' }, depth: { type: 'string' }, worktrees: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    const depth = intOption('depth', values.depth);
    if (values.worktrees && positionals.length) throw new UsageError('--worktrees compares the working tree with its base: name no files');
    const json = values.json === true;
    const graph = await openCliGraph(values);
    try {
      const forecast = await runTool(createPredictImpactTool(graph.ctx), { files: positionals.length ? positionals : undefined, base: values.base, depth });
      const mergeBase = forecast.structuredContent?.merge_base;
      if (!values.worktrees || forecast.isError || typeof mergeBase !== 'string') return printResult(forecast, json);
      const history = await runTool(createTimeTravelDiffTool(graph.ctx), { rev1: mergeBase });
      if (history.isError) {
        process.stderr.write(`${resultText(history)}\n`);
        return 1;
      }
      if (json) return printResult({ ...forecast, structuredContent: { ...forecast.structuredContent, worktree_diff: resultText(history) } }, true);
      process.stdout.write(`${resultText(forecast)}\n\nAgainst the merge base, graph to graph:\n${resultText(history)}\n`);
      return 0;
    } finally {
      graph.close();
    }
  },
};
