import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SQL_DIALECTS } from '../../extract/sql/candidate.ts';
import { createAdviseSqlTool } from '../../mcp/tools/advise-sql.ts';
import { UsageError, type Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, openCliGraph, printTool } from '../graph-tools.ts';

export const adviseSqlCommand: Command = {
  name: 'advise-sql',
  summary: 'critique one SQL query against the graph\'s schema (the MCP tool advise_sql)',
  usage: `Usage: synaptic advise-sql '<query>' [--dialect <d>] [--graph <path>] [--json]

Runs audit_sql's rules on one candidate query (the MCP tool advise_sql): tables that do not exist
(with near names), row-level security on them, filtered / joined columns without an index, SELECT *,
non-sargable predicates, leading-% LIKE, UPDATE / DELETE without WHERE. '-' reads the query from stdin.
Exit code 1 when the query does not parse.

  --dialect <d>         ${SQL_DIALECTS.join(', ')} (default: from the query's syntax, else postgres;
                        mssql is read as postgres where they agree)
${GRAPH_USAGE}
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GRAPH_OPTIONS, dialect: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length ? `one query, quoted as one argument (got ${positionals.length} arguments)` : "missing the query: synaptic advise-sql 'SELECT ...'");
    if (values.dialect !== undefined && !(SQL_DIALECTS as readonly string[]).includes(values.dialect)) {
      throw new UsageError(`--dialect is one of ${SQL_DIALECTS.join(', ')}, not '${values.dialect}'`);
    }
    const query = positionals[0] === '-' ? readFileSync(0, 'utf8') : positionals[0]!;
    const graph = await openCliGraph(values);
    try {
      return await printTool(createAdviseSqlTool(graph.ctx), { query, dialect: values.dialect }, values.json === true);
    } finally {
      graph.close();
    }
  },
};
