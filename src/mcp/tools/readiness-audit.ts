import { z } from 'zod';
import { readinessAudit } from '../../query/readiness/audit.ts';
import { formatReadiness } from '../../query/readiness/format.ts';
import { readinessSource } from '../../query/readiness/source.node.ts';
import { READINESS_PROFILES, READINESS_SEVERITIES, severityRank } from '../../query/readiness/types.ts';
import { sanitize } from '../../query/sanitize.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({
  profile: z.enum(READINESS_PROFILES).optional().describe('Rule profile (default auto; generic: language-neutral rules only).'),
  repo: z.string().optional().describe('Only this federated member (a repo tag).'),
  severity: z.enum(READINESS_SEVERITIES).optional().describe('Minimum severity.'),
  limit: z.number().int().min(1).max(1000).optional().describe('Default 20.'),
  verbose: z.boolean().optional().describe('All findings, with detail, evidence, impact and fix.'),
});
// Each finding also has category, subsystem, title, detail, node_ids, evidence, remediation, confidence, impact (spec: ReadinessReport).
const finding = z.looseObject({ rule_id: z.string(), severity: z.string(), location: z.string() });
const output = z.looseObject({
  version: z.number(), summary: z.string(), counts_by_severity: z.looseObject({}), groups: z.array(z.looseObject({})),
  findings: z.array(finding), skipped: z.array(z.looseObject({ check: z.string(), reason: z.string() })),
});

/** readiness_audit: ranked likely blockers (sentinels, stubs, markers, generated noise, metadata) with their reach. */
export function createReadinessAuditTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'readiness_audit',
    title: 'Readiness audit',
    description: 'Static port/readiness audit: ranks likely blockers (not-implemented sentinels, empty or return-null stubs behind exported APIs, TODO/FIXME on paths entry points reach, generated code in the graph, missing lockfile/engines/license/CI) with severity, subsystem, evidence, fix and impact. Does not run a build.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      if (args.repo !== undefined && !engine.repos().some((r) => r.repo === args.repo)) {
        const tags = engine.repos().map((r) => r.repo);
        return toolError(`Cannot audit repo '${sanitize(args.repo)}': ${tags.length ? `the graph's repos are ${tags.map((t) => sanitize(t)).join(', ')}` : 'this graph is not a federated store (no repo tags)'}`);
      }
      const report = readinessAudit(engine, { profile: args.profile, repo: args.repo, source: readinessSource(ctx.sourceRoot, args.repo) });
      const floor = args.severity ? severityRank(args.severity) : READINESS_SEVERITIES.length - 1;
      const kept = report.findings.filter((f) => severityRank(f.severity) <= floor).map((f) => ({
        ...f, subsystem: sanitize(f.subsystem), title: sanitize(f.title, 400), detail: sanitize(f.detail, 1000), location: sanitize(f.location),
        remediation: sanitize(f.remediation, 1000), evidence: f.evidence.map((e) => sanitize(e, 200)), node_ids: f.node_ids.map((id) => sanitize(id)),
        ...(f.impact?.via ? { impact: { ...f.impact, via: sanitize(f.impact.via) } } : {}),
      }));
      const shown = args.verbose ? kept : kept.slice(0, args.limit ?? 20);
      const safe = {
        ...report, groups: report.groups.map((g) => ({ ...g, subsystem: sanitize(g.subsystem) })), findings: kept,
        skipped: report.skipped.map((x) => ({ check: x.check, reason: sanitize(x.reason, 400) })),
      };
      if (kept.length !== report.findings.length) safe.summary += ` ${kept.length} at ${args.severity} or above.`;
      return toolResult(formatReadiness(safe, shown, kept.length, args.verbose === true), safe);
    },
  };
}
