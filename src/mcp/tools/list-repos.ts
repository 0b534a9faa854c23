import { z } from 'zod';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { federatedRepos } from './workspace-repos.ts';

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
      const rows = await federatedRepos(ctx);
      if (!rows.length) return toolResult('No federated repos (single-repo graph).', { repos: [] });
      const lines = [`${rows.length} federated repo(s):`, ...rows.map((r) => `  ${r.repo}: ${r.failed ? `extraction failed (${r.failed})` : `${r.nodes} nodes, ${r.edges} edges`}${r.source_hash ? `, src ${r.source_hash}` : ''}`)];
      return toolResult(lines.join('\n'), { repos: rows });
    },
  };
}
