import { z } from 'zod';
import { sanitize } from '../../../query/sanitize.ts';
import type { ToolDefinition } from '../../tool.ts';
import { READ_ONLY, type GraphToolContext } from '../context.ts';
import { brief, jsonResult } from './brief.ts';

const input = z.object({ path: z.string().min(1).describe('File path (relative to repository root).') });

/** igraph_file: file graph info by path (igraph profile). */
export function createIgraphFileTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'igraph_file',
    title: 'igraph: file',
    description: 'File graph info by path: language, summary, exported symbols and every node in the file. igraph-compatible.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler({ path }) {
      const engine = await ctx.engine();
      const p = path.replace(/^\.\//, '');
      const ids = engine.ix.byFile.get(p);
      if (!ids || !ids.length) return jsonResult({ tool: 'igraph_file', path: sanitize(path, 400), found: false });
      const fileNode = ids.find((v) => engine.ix.node(v).kind === 'file');
      const symbols = ids.filter((v) => v !== fileNode).sort((a, b) => brief(engine, a).startLine - brief(engine, b).startLine || a - b);
      const exported = symbols.filter((v) => {
        const n = engine.ix.node(v);
        return n.visibility === 'public' || n.exported === true;
      });
      const lang = fileNode !== undefined ? engine.ix.node(fileNode).language : engine.ix.node(ids[0]!).language;
      return jsonResult({
        tool: 'igraph_file',
        path: sanitize(path, 400),
        found: true,
        info: {
          fileId: fileNode ?? -1,
          filePath: sanitize(p, 400),
          language: typeof lang === 'string' ? sanitize(lang, 30) : '',
          summary: fileNode !== undefined ? sanitize(engine.ix.node(fileNode).doc ?? '', 1000) : '',
          exportedSymbols: exported.map((v) => brief(engine, v)),
          nodes: symbols.map((v) => brief(engine, v)),
        },
      });
    },
  };
}
