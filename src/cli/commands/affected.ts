import { parseArgs } from 'node:util';
import { createAffectedTool } from '../../mcp/tools/affected.ts';
import { createAffectedTestsTool } from '../../mcp/tools/affected-tests.ts';
import { createWorkingChangesImpactTool } from '../../mcp/tools/working-changes-impact.ts';
import { UsageError, type Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, intOption, openCliGraph, printTool } from '../graph-tools.ts';

export const affectedCommand: Command = {
  name: 'affected',
  summary: 'what a symbol or your working changes affect, and the tests to run',
  usage: `Usage: synaptic affected <symbol> [--depth <n>] [--limit <n>]
       synaptic affected [--base <ref>] [--verbose] [--limit <n>] [--code-only]
       synaptic affected --tests [<file>...] [--base <ref>] [--depth <n>]

With a symbol: what depends on it, transitively (the MCP tool affected).
Without one: the files, graph nodes and communities your working changes touch: git diff against the
base, committed plus uncommitted plus untracked (working_changes_impact).
With --tests: the tests that reach the change, for the named files or the working changes
(affected_tests).

  --base <ref>          base branch to diff against (default: the default branch)
  --depth <n>           reverse-impact hops (default 3, at most 16)
  --limit <n>           most entries listed
  --verbose             working changes: also the top touched nodes and the communities
  --code-only           working changes: count only code (no docs, configs, lockfiles)
  --tests               the tests to run instead
${GRAPH_USAGE}
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        ...GRAPH_OPTIONS,
        base: { type: 'string' },
        depth: { type: 'string' },
        limit: { type: 'string' },
        verbose: { type: 'boolean' },
        'code-only': { type: 'boolean' },
        tests: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
    const depth = intOption('depth', values.depth);
    const limit = intOption('limit', values.limit);
    const symbol = !values.tests && positionals.length ? positionals.join(' ') : undefined;
    if (symbol !== undefined && (values.base !== undefined || values.verbose || values['code-only'])) {
      throw new UsageError('--base, --verbose and --code-only are for working changes; a symbol takes --depth and --limit');
    }
    if (values.tests && (values.verbose || values['code-only'] || limit !== undefined)) throw new UsageError('--tests takes files, --base and --depth');
    const graph = await openCliGraph(values);
    try {
      if (values.tests) {
        const files = positionals.length ? positionals : undefined;
        return await printTool(createAffectedTestsTool(graph.ctx), { files, base: values.base, depth }, values.json === true);
      }
      if (symbol !== undefined) return await printTool(createAffectedTool(graph.ctx), { label: symbol, depth, limit }, values.json === true);
      if (depth !== undefined) throw new UsageError('--depth is for a symbol or --tests; working changes list what the diff touches');
      return await printTool(createWorkingChangesImpactTool(graph.ctx), { base: values.base, verbose: values.verbose, limit, code_only: values['code-only'] }, values.json === true);
    } finally {
      graph.close();
    }
  },
};
