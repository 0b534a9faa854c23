import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command.ts';
import { graphPaths } from '../explorer-assets.ts';

export const queryCommand: Command = {
  name: 'query',
  summary: "query '<SYNQL>': structural search over the graph (the structural_search tool's engine)",
  usage: `Usage: synaptic query '<SYNQL>' [--graph <path>] [--json] [--limit <n>]
       synaptic query --pattern <name> [--verbose] | --file <path substring>

Runs a SYNQL query (docs/synql.md) over the graph, e.g.
  synaptic query "MATCH (c:class) WHERE c.loc > 500 RETURN c ORDER BY c.loc DESC"
  synaptic query "MATCH (f:function)<-[:calls]-(g) RETURN f.name, count(g) AS callers ORDER BY callers DESC LIMIT 10"

  --graph <path>     graph.json, graph.cbor or a synaptic-out/ folder (default: synaptic-out/graph.json)
  --json             print the structured result (columns, results or groups, total, truncated)
  --limit <n>        rows to print when the query has no LIMIT (default 25, at most 1000)
  --pattern <name>   a built-in pattern instead of a query: singleton, factory, observer, service-locator, god-class
  --verbose          with --pattern: print the pattern's SYNQL
  --file <path>      outline: every symbol of the files whose path contains this, by line

Exit code 1 when the query is malformed or passes a budget (the message says which).
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        graph: { type: 'string' },
        json: { type: 'boolean' },
        limit: { type: 'string' },
        pattern: { type: 'string' },
        verbose: { type: 'boolean' },
        file: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 1) throw new UsageError("expected one query: quote it, e.g. synaptic query 'MATCH (c:class) RETURN c'");
    if (!positionals.length && values.pattern === undefined && values.file === undefined) throw new UsageError("expected a query, --pattern <name> or --file <path>: synaptic query 'MATCH (c:class) RETURN c'");
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 1000)) throw new UsageError(`--limit takes a whole number from 1 to 1000, not '${values.limit}'`);
    const paths = graphPaths(values.graph, process.cwd());
    if (!existsSync(paths.json) && !existsSync(paths.cbor)) throw new UsageError(`no graph at ${paths.json}: run 'synaptic extract' first, or pass --graph`);
    const [{ loadGraph }, { buildEngine }, { coreTraversal }, { Core }, { structuralSearch }] = await Promise.all([
      import('../../graph/load.node.ts'),
      import('../../mcp/live-graph.ts'),
      import('../../query/core-traversal.ts'),
      import('../../core/index.ts'),
      import('../../mcp/tools/structural-search.ts'),
    ]);
    const engine = buildEngine(await loadGraph(paths.json), coreTraversal(await Core.load()));
    const result = await structuralSearch(engine, { query: positionals[0], pattern: values.pattern, file: values.file, limit, verbose: values.verbose });
    const text = result.content.map((c) => c.text).join('\n');
    if (result.isError) {
      process.stderr.write(`${text}\n`);
      return 1;
    }
    process.stdout.write(values.json ? `${JSON.stringify(result.structuredContent, null, 2)}\n` : `${text}\n`);
    return 0;
  },
};
