import { z } from 'zod';
import { sanitize, sanitizeSource } from '../../query/sanitize.ts';
import { searchText } from '../../query/source.node.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({
  pattern: z.string().min(1).describe('An RE2 regex by default (linear time: no backreferences or lookaround); a fixed string when literal=true.'),
  literal: z.boolean().optional().describe('Treat pattern as a literal string. Default false.'),
  case_sensitive: z.boolean().optional().describe('Omit for smart case (insensitive unless the pattern has an uppercase letter).'),
  repo: z.string().optional().describe('Restrict to one federated member (a tag from list_repos).'),
  path_glob: z.string().optional().describe('Only files matching this glob, e.g. **/*.ts or src/**.'),
  max_results: z.number().int().min(1).max(1000).optional().describe('Hits to return before truncation is flagged. Default 100, max 1000.'),
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
      col: z.number().describe('1-based column of the match in UTF-16 code units of the line as the file holds it.'),
      match: z.string(),
      line_text: z.string().describe('The line verbatim (cut at 300 characters with an ellipsis), except that invisible characters are shown as \\u{hex} escapes.'),
      escaped: z.boolean().optional().describe('True when line_text shows escapes; col still counts the original line, so a match after an escape sits further right in line_text.'),
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
      'Content search over the source files for what the graph does not model: string literals, config values, log and error messages, TODOs, magic numbers. ' +
      'Each hit (file:line:col and the line) names its enclosing symbol, so you can pivot to find_callers / affected on it. Lines come back verbatim (invisible characters shown as \\u{hex} escapes, flagged escaped). Reads only inside the source root.',
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
