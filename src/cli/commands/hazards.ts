import { parseArgs } from 'node:util';
import { createDynamicHazardsTool } from '../../mcp/tools/dynamic-hazards.ts';
import { UsageError, type Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, intOption, openCliGraph, printTool } from '../graph-tools.ts';

const KINDS = ['reflection', 'dynamic_import', 'eval'];

export const hazardsCommand: Command = {
  name: 'hazards',
  summary: 'list the reflection / dynamic-dispatch sites static analysis cannot follow',
  usage: `Usage: synaptic hazards [--repo <tag>] [--path-glob <glob>] [--kind <kind>] [--target <symbol>] [--max-results <n>]

The reflection and dynamic-dispatch sites the graph records (the MCP tool dynamic_hazards): a symbol
reached only through one of them has no static dependent, so "0 callers" is no proof of dead code.

  --repo <tag>          only this federated member
  --path-glob <glob>    only sites in files matching this glob, e.g. 'src/**/*.ts'
  --kind <kind>         reflection, dynamic_import or eval
  --target <symbol>     only sites that could reach this symbol
  --max-results <n>     sites listed (default 30, at most 1000)
${GRAPH_USAGE}
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GRAPH_OPTIONS, repo: { type: 'string' }, 'path-glob': { type: 'string' }, kind: { type: 'string' }, target: { type: 'string' }, 'max-results': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}' (filters are options: --target <symbol>, --path-glob <glob>)`);
    if (values.kind !== undefined && !KINDS.includes(values.kind)) throw new UsageError(`--kind is one of ${KINDS.join(', ')}, not '${values.kind}'`);
    const max = intOption('max-results', values['max-results']);
    if (max !== undefined && max > 1000) throw new UsageError('--max-results is at most 1000 (narrow with --path-glob, --kind or --target)');
    const graph = await openCliGraph(values);
    try {
      const args = { repo: values.repo, path_glob: values['path-glob'], kind: values.kind, target: values.target, max_results: max };
      return await printTool(createDynamicHazardsTool(graph.ctx), args, values.json === true);
    } finally {
      graph.close();
    }
  },
};
