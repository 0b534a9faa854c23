import { z } from 'zod';
import { sanitize, sanitizeSource } from '../../../query/sanitize.ts';
import { readLines } from '../../../query/source.node.ts';
import type { ToolDefinition } from '../../tool.ts';
import { READ_ONLY, type GraphToolContext } from '../context.ts';
import { brief, jsonResult, nodesNamed } from './brief.ts';

const input = z.object({
  name: z.string().min(1).describe('Symbol name (function/class/component, etc.).'),
  file: z.string().optional().describe('File path filter (for disambiguation).'),
});

/** igraph_node: node details by symbol name (igraph profile). */
export function createIgraphNodeTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'igraph_node',
    title: 'igraph: node',
    description: 'Node details by symbol name: source code, signature, location, callers and callees; same-name candidates when ambiguous (pass file to pick). igraph-compatible.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler({ name, file }) {
      const engine = await ctx.engine();
      const ids = nodesNamed(engine, name, file);
      if (!ids.length) return jsonResult({ tool: 'igraph_node', name: sanitize(name, 400), found: false, ambiguous: false, candidates: [] });
      const v = ids[0]!;
      const node = engine.ix.node(v);
      const b = brief(engine, v);
      let sourceCode = '';
      if (node.source_file && b.startLine) {
        try {
          sourceCode = readLines(ctx.sourceRoot, node.source_file, b.startLine, Math.min(b.endLine || b.startLine, b.startLine + 399)).lines.map(sanitizeSource).join('\n');
        } catch {
          sourceCode = '';
        }
      }
      return jsonResult({
        tool: 'igraph_node',
        name: sanitize(name, 400),
        found: true,
        ambiguous: ids.length > 1,
        detail: {
          ...b,
          signature: sanitize(node.signature?.raw ?? '', 400),
          summary: sanitize(node.doc ?? '', 1000),
          sourceCode,
          callers: engine.callers(v).hits.map((h) => brief(engine, h.node)),
          callees: engine.callees(v).hits.map((h) => brief(engine, h.node)),
        },
        candidates: ids.length > 1 ? ids.slice(0, 20).map((c) => brief(engine, c)) : [],
      });
    },
  };
}
