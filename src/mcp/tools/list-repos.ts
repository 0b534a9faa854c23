import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({});
const output = z.looseObject({ repos: z.array(z.looseObject({ repo: z.string(), nodes: z.number(), edges: z.number(), source_hash: z.string().optional() })) });

/** list_repos: federated members with node/edge counts. */
export function createListReposTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'list_repos',
    title: 'List federated repos',
    description:
      'The members (repo tags) of a federated graph, with node and edge counts.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler() {
      const engine = await ctx.engine();
      const repos = engine.repos();
      if (!repos.length) return toolResult('No federated repos (single-repo graph).', { repos: [] });
      let hashes: Record<string, string> = {};
      const state = join(dirname(ctx.graphPath), 'workspace-state.json');
      if (existsSync(state)) {
        try {
          const parsed = JSON.parse(readFileSync(state, 'utf8')) as { repos?: Record<string, { source_hash?: string }> };
          hashes = Object.fromEntries(Object.entries(parsed.repos ?? {}).flatMap(([k, v]) => (typeof v?.source_hash === 'string' ? [[k, v.source_hash]] : [])));
        } catch {
          hashes = {};
        }
      }
      const rows = repos.map((r) => ({ repo: sanitize(r.repo), nodes: r.nodes, edges: r.edges, ...(hashes[r.repo] ? { source_hash: sanitize(hashes[r.repo], 80) } : {}) }));
      const lines = [`${rows.length} federated repo(s):`, ...rows.map((r) => `  ${r.repo}: ${r.nodes} nodes, ${r.edges} edges${r.source_hash ? `, src ${r.source_hash}` : ''}`)];
      return toolResult(lines.join('\n'), { repos: rows });
    },
  };
}
