import { z } from 'zod';
import { parseCandidate, SQL_DIALECTS, SqlParseError } from '../../extract/sql/candidate.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { sanitize, sanitizeProse } from '../../query/sanitize.ts';
import { adviseSql, columnIndexOf, type ColumnIndex } from '../../query/sql-advise.ts';
import { sqlSchemaOf, type SqlSchema } from '../../query/sql-rules.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { auditGraph } from './audit-sql.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const MAX_QUERY = 100_000;

const input = z.object({
  query: z.string().max(MAX_QUERY).describe('The SQL to critique.'),
  dialect: z.enum(SQL_DIALECTS).optional().describe('Default: guessed from the syntax, else postgres.'),
});
// Each finding also has category, title, detail, location, remediation, confidence (spec: AuditReport).
const finding = z.looseObject({ rule_id: z.string(), severity: z.string(), location: z.string() });
const output = z.looseObject({ version: z.number(), summary: z.string(), findings: z.array(finding) });

/** The schema view of one loaded graph (built once per engine: a reload brings a new engine). */
const schemas = new WeakMap<QueryEngine, { schema: SqlSchema; columns: ColumnIndex }>();

function schemaOf(engine: QueryEngine): { schema: SqlSchema; columns: ColumnIndex } {
  let s = schemas.get(engine);
  if (!s) {
    const graph = auditGraph(engine);
    s = { schema: sqlSchemaOf(graph), columns: columnIndexOf(graph.nodes) };
    schemas.set(engine, s);
  }
  return s;
}

/** advise_sql: audit_sql's rules on one candidate query, against the graph's tables, indexes and RLS. */
export function createAdviseSqlTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'advise_sql',
    title: 'SQL advice',
    description: 'Critique one SQL query before writing it, against the graph\'s schema: unknown tables (near names), RLS on them, unindexed filter/join columns, SELECT *, non-sargable predicates, leading-% LIKE, UPDATE/DELETE without WHERE.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      let statements;
      try {
        statements = await parseCandidate(args.query, args.dialect);
      } catch (err) {
        if (err instanceof SqlParseError) return toolError(sanitizeProse(err.message)); // the message quotes the query
        throw err;
      }
      const { schema, columns } = schemaOf(await ctx.engine());
      const report = adviseSql(statements, schema, columns);
      const findings = report.findings.map((f) => ({
        ...f, title: sanitize(f.title), detail: sanitize(f.detail), location: sanitize(f.location), remediation: sanitize(f.remediation),
      }));
      const lines = [sanitize(report.summary, 400)];
      for (const f of findings) lines.push(`[${f.severity}] ${f.rule_id} @ ${f.location} (${f.confidence.toFixed(2)}) ${f.title}`, `    fix: ${f.remediation}`);
      if (!findings.length) lines.push('No problem found.');
      return toolResult(lines.join('\n'), { version: report.version, summary: report.summary, findings });
    },
  };
}
