import { z } from 'zod';
import type { NodeId } from '../../graph/model.ts';
import { changedFiles, type FileImpact } from '../../query/change-impact/impact.ts';
import { sanitize } from '../../query/sanitize.ts';
import { communityLabel } from '../resources.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { baseName, changeSet, gitContext } from './change-set.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';
import { nodeLine } from './format.ts';

const input = z.object({
  base: z.string().optional().describe('Base branch to diff against (default: the default branch).'),
  verbose: z.boolean().optional().describe('Also list the top touched nodes and the communities.'),
  limit: z.number().int().min(1).optional().describe('Most touched nodes listed when verbose (default 20).'),
  code_only: z.boolean().optional().describe('Count only code (no docs, configs, lockfiles).'),
});

const STATUS: Record<string, string> = { added: 'A', modified: 'M', deleted: 'D', untracked: '?' };

/** working_changes_impact: which nodes and communities the branch's changes (committed + uncommitted) touch. */
export function createWorkingChangesImpactTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'working_changes_impact',
    title: 'Working changes impact',
    description:
      'What my branch touches before a PR: git diff against a base (committed + uncommitted + untracked), the changed files and the graph nodes and communities in them.',
    inputSchema: input,
    annotations: OPEN_WORLD,
    async handler(args) {
      const engine = await ctx.engine();
      const set = changeSet(engine, ctx.sourceRoot, { base: args.base });
      if (!set.ok) return set.offline ? toolResult(set.message) : toolError(set.message);
      const base = baseName(set);
      const codeOnly = args.code_only === true;
      let files: FileImpact[] = changedFiles(engine, set.files);
      const all = files.length;
      if (codeOnly) files = files.filter((f) => f.code === true);
      if (!files.length) {
        return toolResult(all ? `No code changes vs ${base} (${all} non-code file${all === 1 ? '' : 's'} changed).` : `No changes vs ${base}.`);
      }
      const ix = engine.ix;
      const nodes: NodeId[] = [];
      for (const f of files) for (const v of f.nodes) if (!codeOnly || ix.node(v).file_type === 'code') nodes.push(v);
      const communities = new Map<number, number>();
      for (const v of nodes) if (ix.community[v]! >= 0) communities.set(ix.community[v]!, (communities.get(ix.community[v]!) ?? 0) + 1);
      const lines = [`Working changes vs ${base}: ${files.length} files, ${nodes.length} ${codeOnly ? 'code ' : ''}graph nodes, ${communities.size} communities touched`];
      if (set.git) lines.push(gitContext(set.git));
      lines.push('Changed files:');
      for (const f of files) lines.push(`  ${STATUS[f.status] ?? ' '} ${sanitize(f.path)}  ${f.nodes.length ? `${f.nodes.length} nodes` : '(not in the graph)'}`);
      if (args.verbose) {
        const limit = args.limit ?? 20;
        const top = nodes.filter((v) => ix.node(v).kind !== 'file').sort((a, b) => ix.degree[b]! - ix.degree[a]! || a - b);
        lines.push(`Top touched nodes (${Math.min(limit, top.length)} of ${top.length}, by connectivity):`);
        for (const v of top.slice(0, limit)) lines.push(`  ${nodeLine(engine, v)}  degree ${ix.degree[v]}`);
        lines.push(`Communities touched (${communities.size}):`);
        for (const [id, count] of [...communities].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
          const label = communityLabel(engine, id);
          lines.push(`  ${id}${label ? ` ${label}` : ''}: ${count} nodes`);
        }
      }
      lines.push('Next: predict_impact for the blast radius and risk, affected_tests for the tests to run.');
      return toolResult(lines.join('\n'));
    },
  };
}
