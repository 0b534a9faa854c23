import { z } from 'zod';
import { sanitize } from '../../query/sanitize.ts';
import { relationId } from '../../graph/model.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { auditSql, SEVERITIES, type AuditGraph } from '../../query/sql-audit.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({
  severity: z.enum(SEVERITIES).optional().describe('Minimum severity.'),
  limit: z.number().int().min(1).max(1000).optional().describe('Default 20.'),
  verbose: z.boolean().optional().describe('All findings, with detail and fix.'),
});
// Each finding also has category, title, detail, location, remediation, confidence (spec: AuditReport).
const finding = z.looseObject({ rule_id: z.string(), severity: z.string(), location: z.string() });
const output = z.looseObject({ version: z.number(), summary: z.string(), findings: z.array(finding) });

/** audit_sql: RLS gaps, over-broad grants, likely injection and schema problems over the SQL graph. */
export function createAuditSqlTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'audit_sql',
    title: 'SQL audit',
    description: 'Audit SQL migrations and queries in code: RLS gaps, over-broad grants, likely injection, missing indexes, non-sargable filters, N+1, missing primary keys, SELECT *.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const report = auditSql(auditGraph(engine));
      const floor = args.severity ? SEVERITIES.indexOf(args.severity) : SEVERITIES.length - 1;
      const kept = report.findings.filter((f) => SEVERITIES.indexOf(f.severity) <= floor).map((f) => ({
        ...f, title: sanitize(f.title), detail: sanitize(f.detail), location: sanitize(f.location), remediation: sanitize(f.remediation),
      }));
      const shown = args.verbose ? kept : kept.slice(0, args.limit ?? 20);
      const lines = [report.summary + (kept.length !== report.findings.length ? ` ${kept.length} at ${args.severity} or above.` : '')];
      for (const f of shown) {
        lines.push(`[${f.severity}] ${f.rule_id} @ ${f.location} (${f.confidence.toFixed(2)}) ${f.title}`);
        if (args.verbose) lines.push(`    ${f.detail}`, `    fix: ${f.remediation}`);
      }
      if (kept.length > shown.length) lines.push(`+${kept.length - shown.length} more (raise limit, or verbose for all)`);
      return toolResult(lines.join('\n'), { version: report.version, summary: report.summary, findings: kept });
    },
  };
}

const SQL_RELATIONS = ['secured_by', 'reads_from', 'writes_to'];

/** The served graph's nodes and SQL edges, from the edge columns (the server drops link objects). */
export function auditGraph(engine: QueryEngine): AuditGraph {
  const g = engine.ix.g;
  const wanted = new Map(SQL_RELATIONS.map((r) => [relationId(r), r]));
  const edges: AuditGraph['edges'] = {
    *[Symbol.iterator]() {
      for (let e = 0; e < g.src.length; e++) {
        const relation = wanted.get(g.rel[e]!);
        if (relation) yield { source: g.src[e]!, target: g.dst[e]!, relation };
      }
    },
  };
  return { nodes: g.nodes, edges };
}
