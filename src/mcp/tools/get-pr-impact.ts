import { z } from 'zod';
import { viewPr } from '../pr/pr-service.node.ts';
import { blastRadius, checksText, prRow } from '../pr/prs.ts';
import { sanitize } from '../../query/sanitize.ts';
import { communityLabel } from '../resources.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';
import { ghProblemResult, prInput } from './list-prs.ts';

const input = z.object({
  pr_number: z.number().int().min(1).describe('The pull request number.'),
  repo: prInput.repo,
});

/** get_pr_impact: one PR's detail and its graph blast radius (communities and nodes touched). */
export function createGetPrImpactTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'get_pr_impact',
    title: 'Pull request impact',
    description: "One PR's detail plus its graph blast radius: changed files, nodes and communities touched, dependents (needs gh).",
    inputSchema: input,
    annotations: OPEN_WORLD,
    async handler(args) {
      let pr;
      try {
        pr = await viewPr(args.repo ? { repo: args.repo } : {}, args.pr_number);
      } catch (err) {
        return ghProblemResult(err);
      }
      const engine = await ctx.engine();
      const files = pr.files ?? [];
      const row = prRow(pr);
      const radius = blastRadius(engine, files.map((f) => f.path));
      const lines = [
        `PR #${row.number}: ${row.title} (${row.author || 'unknown'}) ${row.head} -> ${row.base}`,
        `State ${sanitize(pr.state ?? 'OPEN', 20)} [${row.status}]${row.draft ? ', draft' : ''}; review ${row.review}; ${checksText(row.checks)}; mergeable ${row.mergeable}; +${row.additions}/-${row.deletions}`,
        `Blast radius: ${radius.files} files (${radius.files_in_graph} in the graph), ${radius.nodes} graph nodes, ${radius.communities} communities touched; ${radius.dependents} dependents within ${radius.depth} hops`,
        `Changed files (${files.length}):`,
      ];
      const byFile = engine.ix.byFile;
      for (const f of files.slice(0, 50)) lines.push(`  ${sanitize(f.path)} (+${f.additions ?? 0}/-${f.deletions ?? 0})  ${byFile.get(f.path)?.length ? `${byFile.get(f.path)!.length} nodes` : '(not in the graph)'}`);
      if (files.length > 50) lines.push(`  +${files.length - 50} more`);
      if (radius.community_ids.length) {
        lines.push(`Communities touched (${radius.community_ids.length}):`);
        for (const c of radius.community_ids.slice(0, 10)) {
          const label = communityLabel(engine, c.id);
          lines.push(`  ${c.id}${label ? ` ${label}` : ''}: ${c.nodes} nodes`);
        }
      }
      if (radius.top_nodes.length) lines.push(`Most connected changed symbols: ${radius.top_nodes.join(', ')}`);
      lines.push('Next: affected on the symbols above for their dependents, affected_tests with these files for the tests to run.');
      return toolResult(lines.join('\n'));
    },
  };
}
