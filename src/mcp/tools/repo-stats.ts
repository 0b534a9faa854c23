import { z } from 'zod';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { federatedRepos } from './workspace-repos.ts';

const input = z.object({ repo: z.string().min(1).describe('The repo tag.') });

/** repo_stats: node and edge counts for one federated member. */
export function createRepoStatsTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'repo_stats',
    title: 'Repo statistics',
    description:
      'Node and edge counts of one federated member.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler({ repo }) {
      const repos = await federatedRepos(ctx);
      const r = repos.find((x) => x.repo === repo);
      if (!r) {
        const known = repos.length ? ` (repos: ${repos.map((x) => x.repo).join(', ')})` : ' (this is a single-repo graph)';
        return toolResult(`No nodes for repo ${sanitize(repo)}${known}`);
      }
      if (r.failed) return toolResult(`Repo ${r.repo}: its last extraction failed (${r.failed})${r.source_hash ? `; src ${r.source_hash}` : ''}`);
      return toolResult(`Repo ${r.repo}: ${r.nodes} nodes, ${r.edges} edges${r.source_hash ? `, src ${r.source_hash}` : ''}`);
    },
  };
}
