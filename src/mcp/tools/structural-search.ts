import { z } from 'zod';
import type { NodeId } from '../../graph/model.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { sanitize } from '../../query/sanitize.ts';
import { SynqlBudgetError, SynqlError } from '../../query/synql/errors.ts';
import { PATTERN_NAMES, PATTERNS } from '../../query/synql/patterns.ts';
import { nodeLine, nodeLoc } from '../../query/synql/props.ts';
import { isNodeCell, type Cell, type Table } from '../../query/synql/result.ts';
import { runSynql } from '../../query/synql/run.ts';
import { DEFAULT_LIMIT } from '../../query/synql/schema.ts';
import { synqlIndex } from '../../query/synql/synql-index.ts';
import { toolError, toolResult, type ToolDefinition, type ToolResult } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { signatureObject } from './signature.ts';

const input = z.object({
  query: z.string().optional().describe('SYNQL, e.g. MATCH (c:class) WHERE c.loc > 500 RETURN c'),
  pattern: z.string().optional().describe('singleton, factory, observer, service-locator or god-class'),
  file: z.string().optional().describe('Outline: the symbols of files whose path contains this, by line'),
  limit: z.number().int().min(1).max(1000).optional().describe('Max rows (default 25)'),
  verbose: z.boolean().optional().describe("Show a pattern's SYNQL"),
});

const nodeShape = z.looseObject({ id: z.string(), label: z.string(), kind: z.string(), visibility: z.string().nullable(), file: z.string(), line: z.number().nullable(), loc: z.number().nullable(), signature: z.looseObject({}).nullable() });
const output = z.looseObject({
  columns: z.array(z.string()),
  results: z.array(z.array(nodeShape)).optional(),
  groups: z.array(z.array(z.unknown())).optional(),
  total: z.number(),
  truncated: z.boolean(),
});

export type StructuralSearchArgs = z.infer<typeof input>;

/** structural_search: SYNQL, a named pattern or a file outline over the graph (docs/synql.md). */
export function createStructuralSearchTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'structural_search',
    title: 'Structural search (SYNQL)',
    description:
      'Match the graph by structure with SYNQL (Cypher-like: MATCH (f:function)-[:calls*1..2]->(g) WHERE f.fan_in > 20 RETURN f), ' +
      'a named pattern, or a file outline. Rows carry signatures. Not text search (see search_text).',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      return structuralSearch(await ctx.engine(), args);
    },
  };
}

/** The tool's answer (shared with `synaptic query`): text plus the structured mirror, or an error result. */
export async function structuralSearch(engine: QueryEngine, args: StructuralSearchArgs): Promise<ToolResult> {
  const limit = args.limit;
  let source = args.query;
  let header = '';
  if (args.pattern !== undefined) {
    const p = PATTERNS[args.pattern];
    if (!p) return toolError(`Unknown pattern '${sanitize(args.pattern, 80)}'; the patterns are ${PATTERN_NAMES.join(', ')}`);
    source = p.query;
    header = `Pattern ${args.pattern}: ${p.what}${args.verbose ? `\nSYNQL:\n${p.query}` : ' (verbose=true shows its SYNQL)'}\n`;
  } else if (source === undefined || !source.trim()) {
    if (args.file !== undefined && args.file !== '') return outline(engine, args.file, limit ?? DEFAULT_LIMIT);
    return toolError(`structural_search needs a query (SYNQL, e.g. MATCH (c:class) WHERE c.loc > 500 RETURN c), a pattern (${PATTERN_NAMES.join(', ')}) or a file`);
  }
  try {
    const { table } = await runSynql(engine, source, { limit });
    return render(engine, table, header);
  } catch (err) {
    if (err instanceof SynqlError) return toolError(err.format());
    if (err instanceof SynqlBudgetError) return toolError(err.message);
    throw err;
  }
}

function outline(engine: QueryEngine, file: string, limit: number): ToolResult {
  const ix = engine.ix;
  const files: string[] = [];
  const repoOf = (v: NodeId) => (typeof ix.node(v).repo === 'string' ? (ix.node(v).repo as string) : '');
  const ids: NodeId[] = [];
  for (const [path, list] of ix.byFile) {
    // A bare path matches in every member; `tag/path` only in that member's copy.
    const hit = path.includes(file) || list.some((v) => repoOf(v) && `${repoOf(v)}/${path}`.includes(file));
    if (!hit) continue;
    files.push(path);
    for (const v of list) if (ix.node(v).kind !== 'file' && (path.includes(file) || `${repoOf(v)}/${path}`.includes(file))) ids.push(v);
  }
  if (!files.length) return toolError(`No file in the graph has '${sanitize(file, 200)}' in its path (the match is a literal substring of the repo-relative path)`);
  const rank = synqlIndex(engine).rank;
  ids.sort((a, b) => rank[a]! - rank[b]!);
  const table: Table = { columns: ['symbol'], nodeColumns: [true], rows: ids.slice(0, limit).map((v) => [{ node: v }]), total: ids.length, aggregated: false };
  return render(engine, table, `Outline of ${files.length} file(s) matching '${sanitize(file, 200)}'${files.length <= 3 ? `: ${files.map((f) => sanitize(f)).join(', ')}` : ''}\n`);
}

function render(engine: QueryEngine, table: Table, header: string): ToolResult {
  const truncated = table.total > table.rows.length;
  const allNodes = table.nodeColumns.every(Boolean);
  const lines: string[] = [];
  const shown = truncated ? ` (showing ${table.rows.length}; raise limit or narrow the query)` : '';
  lines.push(`${header}${table.total} row(s)${shown}${allNodes ? '' : ` - ${table.columns.map((c) => sanitize(c, 80)).join(' | ')}`}`);
  for (const row of table.rows) lines.push(row.map((c) => cellText(engine, c)).join(' | '));
  if (!table.total) lines.push('  (no match)');
  const columns = table.columns.map((c) => sanitize(c, 200));
  const structured: Record<string, unknown> = allNodes
    ? { columns, results: table.rows.map((r) => r.map((c) => nodeObject(engine, (c as { node: NodeId }).node))) }
    : { columns, groups: table.rows.map((r) => r.map((c) => (isNodeCell(c) ? nodeObject(engine, c.node) : safeValue(c)))) };
  structured.total = table.total;
  structured.truncated = truncated;
  return toolResult(lines.join('\n'), structured);
}

function cellText(engine: QueryEngine, c: Cell): string {
  if (!isNodeCell(c)) return JSON.stringify(safeValue(c));
  const node = engine.ix.node(c.node);
  const kind = sanitize(node.kind ?? 'symbol', 30) + (node.visibility ? `/${sanitize(node.visibility, 30)}` : '');
  const line = nodeLine(node);
  return `${engine.safeLabel(c.node)}  ${kind}  ${engine.safeFile(c.node)}${line ? `:${line}` : ''}`;
}

function nodeObject(engine: QueryEngine, v: NodeId): Record<string, unknown> {
  const node = engine.ix.node(v);
  return {
    id: sanitize(node.id, 400),
    label: engine.safeLabel(v),
    kind: sanitize(node.kind ?? '', 30),
    visibility: node.visibility ? sanitize(node.visibility, 30) : null,
    file: engine.safeFile(v),
    line: nodeLine(node),
    loc: nodeLoc(node),
    signature: signatureObject(node.signature),
  };
}

function safeValue(c: Cell): unknown {
  if (typeof c === 'string') return sanitize(c, 400);
  if (Array.isArray(c)) return c.map((x) => safeValue(x));
  return c;
}
