import type { NodeId } from '../../graph/model.ts';
import type { EdgeHit, QueryEngine } from '../../query/engine.ts';
import type { Candidate, Resolution } from '../../query/resolve.ts';
import { sanitize, sanitizeRelation, sanitizeSource } from '../../query/sanitize.ts';

/** `label [kind] file:L12`, every part sanitized. */
export function nodeLine(engine: QueryEngine, v: NodeId): string {
  const node = engine.ix.node(v);
  const loc = node.source_location ? `:${sanitize(node.source_location, 20)}` : '';
  const file = node.source_file ? ` ${engine.safeFile(v)}${loc}` : '';
  return `${engine.safeLabel(v)} [${sanitize(node.kind ?? node.file_type, 30)}]${file}`;
}

/** Sanitized copy-ready qualified reference of a node. */
export function qualified(engine: QueryEngine, v: NodeId): string {
  return engine.safeQualified(v);
}

export function sanitizedCandidates(candidates: Candidate[]): Array<Record<string, unknown>> {
  return candidates.map((c) => ({
    id: sanitize(c.id, 400),
    label: sanitize(c.label),
    source_file: sanitize(c.source_file),
    kind: sanitize(c.kind, 30),
    degree: c.degree,
    qualified: sanitize(c.qualified, 400),
  }));
}

/** The text for a name that did not resolve to one node. */
export function unresolvedText(res: Exclude<Resolution, { status: 'found' }>): string {
  if (res.status === 'not_found') return `No node matches '${sanitize(res.query)}'. Try query_graph with a few words, or search_text for literal text.`;
  const lines = res.candidates.map((c) => `  ${sanitize(c.qualified, 400)}  [${sanitize(c.kind, 30)}] degree ${c.degree}`);
  const more = res.total > res.candidates.length ? `\n  (+${res.total - res.candidates.length} more; add @<file substring> to narrow)` : '';
  return `'${sanitize(res.query)}' is ambiguous: ${res.total} nodes match. Pass one of these qualified references:\n${lines.join('\n')}${more}`;
}

/** A capped edge listing (callers / callees / references / neighbours) as text lines. */
export function edgeLines(engine: QueryEngine, hits: EdgeHit[], limit: number, sites?: (hit: EdgeHit) => string | undefined): { lines: string[]; shown: number } {
  const shown = Math.min(limit, hits.length);
  const lines: string[] = [];
  for (let i = 0; i < shown; i++) {
    const h = hits[i]!;
    const arrow = h.direction === 'in' ? '<-' : '->';
    lines.push(`  ${arrow} [${sanitizeRelation(h.relation)}] ${nodeLine(engine, h.node)}`);
    const site = sites?.(h);
    if (site) lines.push(`      ${site}`);
  }
  if (hits.length > shown) lines.push(`  +${hits.length - shown} more (pass verbose=true or a larger limit)`);
  return { lines, shown };
}

/** `calls: 3, references: 1` */
export function breakdown(byRelation: Record<string, number>): string {
  return Object.entries(byRelation)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([r, c]) => `${sanitizeRelation(r)}: ${c}`)
    .join(', ');
}

/** The edge's site: `file:line` of the call or reference. */
export function edgeSite(engine: QueryEngine, e: number): { file: string; line: number } {
  return { file: engine.ix.edgeSiteFile(e), line: engine.ix.edgeLine[e]! };
}

/**
 * The `at file:line: code` line show_sites prints under an entry: the file as a name (sanitize),
 * the code line by the source-text rule (sanitizeSource: verbatim, invisible characters escaped).
 */
export function siteLine(engine: QueryEngine, read: (file: string, line: number) => string | undefined, e: number): string | undefined {
  const s = edgeSite(engine, e);
  if (!s.line) return undefined;
  const code = s.file ? read(s.file, s.line) : undefined;
  return `at ${sanitize(s.file)}:${s.line}: ${code === undefined ? '(source not readable)' : sanitizeSource(code)}`;
}
