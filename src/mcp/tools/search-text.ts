import { z } from 'zod';
import { sanitize, sanitizeSource } from '../../query/sanitize.ts';
import { searchText } from '../../query/source.node.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({
  pattern: z.string().min(1).describe('An RE2 regex (no backreferences or lookaround), or a fixed string with literal=true.'),
  literal: z.boolean().optional().describe('Match pattern as a fixed string.'),
  case_sensitive: z.boolean().optional().describe('Omit for smart case: insensitive unless pattern has a capital.'),
  repo: z.string().optional().describe('Only this federated member (a repo tag).'),
  path_glob: z.string().optional().describe('Only files matching this glob, e.g. src/**/*.ts.'),
  max_results: z.number().int().min(1).max(1000).optional().describe('Hits before the list is cut (default 100).'),
});

const output = z.looseObject({
  pattern: z.string(),
  total: z.number(),
  truncated: z.boolean(),
  files_scanned: z.number(),
  hits: z.array(
    z.looseObject({
      repo: z.string(),
      file: z.string(),
      line: z.number(),
      col: z.number(),
      match: z.string(),
      line_text: z.string(),
      escaped: z.boolean().optional().describe('line_text shows escapes; col (1-based, UTF-16) counts the stored line.'),
      node: z.looseObject({ id: z.string(), label: z.string(), kind: z.string(), community: z.number().nullable() }).nullable().optional(),
    }),
  ),
});

/** search_text: content search over the source files, each hit attributed to its enclosing symbol. */
export function createSearchTextTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'search_text',
    title: 'Search source text',
    description:
      "Search the source files' text for what the graph does not hold: string literals, config values, log and error messages, TODOs. " +
      'Returns file:line:col hits, each with its line and enclosing symbol.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const max = args.max_results ?? 100;
      const r = await searchText(ctx.sourceRoot, {
        pattern: args.pattern,
        literal: args.literal,
        caseSensitive: args.case_sensitive,
        pathGlob: args.path_glob,
        maxResults: max,
        subdir: args.repo,
      });
      const hits = r.hits.map((h) => {
        const v = engine.enclosing(h.file, h.line);
        const node =
          v === undefined
            ? null
            : {
                id: sanitize(engine.ix.node(v).id, 400),
                label: sanitize(engine.ix.label(v)),
                kind: sanitize(engine.ix.node(v).kind ?? '', 30),
                community: typeof engine.ix.node(v).community === 'number' ? (engine.ix.node(v).community as number) : null,
              };
        // Source text keeps its printable characters (`<E>`, `=>`): a hit must be usable for an edit.
        const lineText = sanitizeSource(h.line_text);
        const escaped = lineText !== h.line_text;
        return { repo: args.repo ?? '', file: sanitize(h.file), line: h.line, col: h.col, match: sanitizeSource(h.match), line_text: lineText, ...(escaped ? { escaped } : {}), node };
      });
      const pattern = sanitize(args.pattern, 400); // the client's pattern echoed: a name, not a source line
      const lines = [`${r.total}${r.truncated ? '+' : ''} match(es) for /${pattern}/ in ${r.filesScanned} file(s)${r.truncated ? ` (showing ${hits.length}; narrow with path_glob or raise max_results)` : ''}:`];
      // file:line:col, then the line as returned in line_text (indentation kept, so col lines up).
      for (const h of hits) lines.push(`${h.file}:${h.line}:${h.col} ${h.line_text}${h.node ? ` [${h.node.label} ${h.node.kind}]` : ''}`);
      if (!hits.length) lines.push('  (no matches; the search honours .gitignore/.synapticignore and skips synaptic-out/, node_modules and build output)');
      return toolResult(lines.join('\n'), { pattern, total: r.total, truncated: r.truncated, files_scanned: r.filesScanned, hits });
    },
  };
}
