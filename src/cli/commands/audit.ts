import { parseArgs } from 'node:util';
import { createAuditSqlTool } from '../../mcp/tools/audit-sql.ts';
import { createReadinessAuditTool } from '../../mcp/tools/readiness-audit.ts';
import { UsageError, type Command } from '../command.ts';
import { GRAPH_OPTIONS, GRAPH_USAGE, intOption, openCliGraph, printTool } from '../graph-tools.ts';

const KINDS = ['sql', 'readiness'];

export const auditCommand: Command = {
  name: 'audit',
  summary: 'audit the SQL (RLS, grants, injection, indexes) or the readiness (stubs, sentinels, metadata)',
  usage: `Usage: synaptic audit sql [--severity <s>] [--limit <n>] [--verbose]
       synaptic audit readiness [--profile <p>] [--repo <tag>] [--severity <s>] [--limit <n>] [--verbose]

sql: the MCP tool audit_sql over the SQL-aware graph (row-level-security gaps, over-broad grants,
likely injection, unindexed foreign-key and filter columns, non-sargable filters, leading-% LIKE,
N+1 queries, missing primary keys, SELECT *).
readiness: the MCP tool readiness_audit (ranked likely blockers: not-implemented sentinels, stubs
behind exported APIs, TODO/FIXME on reachable paths, generated code, missing lockfile/engines/
license/CI), each with its impact. Source and metadata checks read the source root; without one
they are listed as skipped (docs/readiness.md).

  --severity <s>        only findings at least this severe: critical, high, medium, low, info
  --limit <n>           findings listed (default 20, at most 1000)
  --verbose             every finding, with detail and fix (readiness: evidence and impact too)
  --profile <p>         readiness rules: auto (default), generic, typescript, python, rust, go
  --repo <tag>          readiness: only this federated member
${GRAPH_USAGE}
`,
  async run(argv) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GRAPH_OPTIONS, severity: { type: 'string' }, limit: { type: 'string' }, verbose: { type: 'boolean' }, profile: { type: 'string' }, repo: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const [kind, ...extra] = positionals;
    if (kind === undefined) throw new UsageError(`name what to audit: synaptic audit ${KINDS.join('|')}`);
    if (!KINDS.includes(kind)) throw new UsageError(`unknown audit '${kind}' (one of ${KINDS.join(', ')})`);
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (kind === 'sql' && (values.profile !== undefined || values.repo !== undefined)) throw new UsageError('--profile and --repo apply to audit readiness only');
    const limit = intOption('limit', values.limit);
    const graph = await openCliGraph(values);
    try {
      const common = { severity: values.severity, limit, verbose: values.verbose };
      return kind === 'sql'
        ? await printTool(createAuditSqlTool(graph.ctx), common, values.json === true)
        : await printTool(createReadinessAuditTool(graph.ctx), { ...common, profile: values.profile, repo: values.repo }, values.json === true);
    } finally {
      graph.close();
    }
  },
};
