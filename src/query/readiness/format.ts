/**
 * The readiness report as text (the MCP tool's content and the CLI's output): the summary, the
 * groups by severity and subsystem, then one line per finding; verbose adds detail, evidence, fix
 * and impact. Browser-safe.
 */
import type { ReadinessFinding, ReadinessReport } from './types.ts';

function impactText(f: ReadinessFinding): string {
  const i = f.impact;
  if (!i) return '';
  const parts = [`${i.dependents} dependent${i.dependents === 1 ? '' : 's'}`];
  if (i.entry_points) parts.push(`${i.entry_points} entry point${i.entry_points === 1 ? '' : 's'}${i.via ? ` (via ${i.via})` : ''}`);
  else if (i.is_entry) parts.push('public API');
  return parts.join(', ');
}

/** `shown` are the findings to list (filtered and cut by the caller); `kept` how many matched. */
export function formatReadiness(report: ReadinessReport, shown: readonly ReadinessFinding[], kept: number, verbose: boolean): string {
  const lines = [report.summary];
  if (report.groups.length) {
    const top = report.groups.slice(0, 8).map((g) => `${g.subsystem} (${g.total})`).join(', ');
    lines.push(`By subsystem: ${top}${report.groups.length > 8 ? `, +${report.groups.length - 8} more` : ''}`);
  }
  for (const f of shown) {
    const impact = impactText(f);
    lines.push(`[${f.severity}] ${f.rule_id} @ ${f.location} (${f.confidence.toFixed(2)}) ${f.title}${impact && !verbose ? ` [${impact}]` : ''}`);
    if (verbose) {
      lines.push(`    ${f.detail}`);
      for (const e of f.evidence) lines.push(`    evidence: ${e}`);
      if (impact) lines.push(`    impact: ${impact}`);
      lines.push(`    subsystem: ${f.subsystem}`, `    fix: ${f.remediation}`);
    }
  }
  if (kept > shown.length) lines.push(`+${kept - shown.length} more (raise limit, or verbose for all)`);
  if (verbose) for (const s of report.skipped) lines.push(`skipped ${s.check}: ${s.reason}`);
  return lines.join('\n');
}
