import { basename, dirname } from 'node:path';
import { z } from 'zod';
import type { Core } from '../../core/index.ts';
import { timeTravel, type BuildNote, type TimeTravelResult } from '../../extract/time-travel.node.ts';
import { RepoError } from '../../extract/worktree.node.ts';
import { sanitize } from '../../query/sanitize.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { OPEN_WORLD, type GraphToolContext } from './context.ts';

const input = z.object({
  rev1: z.string().min(1).describe('Base revision (HEAD~10, a branch, a SHA).'),
  rev2: z.string().min(1).optional().describe('Target revision (default: the working tree).'),
  top: z.number().int().min(1).optional().describe('Rows per section (default 20).'),
});

let corePromise: Promise<Core> | undefined;
function loadCore(): Promise<Core> {
  corePromise ??= import('../../core/index.ts').then(({ Core }) => Core.load());
  return corePromise;
}

/** The repository a served graph belongs to: the folder above synaptic-out/, else the graph's folder. */
export function graphRoot(graphPath: string): string {
  const dir = dirname(graphPath);
  return basename(dir) === 'synaptic-out' ? dirname(dir) : dir;
}

function built(b: BuildNote | undefined): string {
  if (!b) return '';
  if (b.how === 'cached') return 'cached';
  if (b.how === 'full') return `full extract, ${b.ms} ms`;
  const from = b.from === 'served outputs' ? 'the served outputs' : sanitize(b.from ?? '').slice(0, 12);
  return `updated from ${from} (${b.parsed ?? 0} files parsed), ${b.ms} ms`;
}

function section<T>(lines: string[], title: string, rows: readonly T[], top: number, row: (r: T) => string): void {
  lines.push(`${title} (${rows.length}):`);
  for (const r of rows.slice(0, top)) lines.push(`  ${row(r)}`);
  if (rows.length > top) lines.push(`  +${rows.length - top} more (raise top)`);
  if (!rows.length) lines.push('  (none)');
}

export function formatTimeTravel(r: TimeTravelResult, top: number): string {
  const d = r.diff;
  const s = (v: string) => sanitize(v);
  const name2 = r.rev2.sha ? `${s(r.rev2.rev)} (${r.rev2.sha.slice(0, 12)})` : 'the working tree';
  const lines = [
    `${s(r.rev1.rev)} (${r.rev1.sha.slice(0, 12)}) -> ${name2}: ${d.nodes_added} new nodes, ${d.nodes_removed} removed nodes, ${d.edges_added} new edges, ${d.edges_removed} removed edges, ` +
      `${d.files_added.length} files added, ${d.files_removed.length} files removed, ${d.dependencies_added.length} dependencies added, ${d.dependencies_removed.length} removed, ` +
      `${d.removed_apis.length} removed APIs, ${d.new_cycles.length} new cycles; ${r.commits} commit(s) between`,
    `Graphs: ${s(r.rev1.rev)} ${built(r.rev1.build)}; ${r.rev2.sha ? s(r.rev2.rev) : 'working tree'} ${built(r.rev2.build)}`,
  ];
  const dep = (x: { from: string; to: string }) => `${s(x.from)} -> ${s(x.to)}`;
  section(lines, 'Dependencies added', d.dependencies_added, top, dep);
  section(lines, 'Dependencies removed', d.dependencies_removed, top, dep);
  section(lines, 'Removed APIs', d.removed_apis, top, (a) => `${s(a.label)} [${s(a.kind)}] ${s(a.file)}${a.now ? ` (now ${s(a.now)})` : ''}`);
  section(lines, 'Drift (cross-folder dependencies)', d.drift, top, (x) => `${s(x.from)} -> ${s(x.to)}: ${x.before} -> ${x.after} (${x.after > x.before ? '+' : ''}${x.after - x.before})`);
  section(lines, 'New cycles', d.new_cycles, top, (c) => `${c.length} files: ${c.slice(0, 8).map(s).join(' <-> ')}${c.length > 8 ? ` +${c.length - 8} more` : ''}`);
  section(lines, 'Hotspots', d.hotspots, top, (h) =>
    `${s(h.file)}: +${h.nodes_added}/-${h.nodes_removed} nodes, +${h.edges_added}/-${h.edges_removed} edges${h.commits !== undefined ? `, ${h.commits} commit(s)` : ''}`);
  return lines.join('\n');
}

/** time_travel_diff: how the graph changed between two revisions (worktrees, cached per SHA). */
export function createTimeTravelDiffTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'time_travel_diff',
    title: 'Graph diff between revisions',
    description:
      'How the code graph changed between two git revisions: dependencies added/removed, removed APIs, folder drift, new cycles, hotspots. Builds revisions in throwaway worktrees (slow cold, cached per SHA).',
    inputSchema: input,
    annotations: OPEN_WORLD,
    async handler(args) {
      try {
        const result = await timeTravel({
          dir: graphRoot(ctx.graphPath),
          outDir: dirname(ctx.graphPath),
          rev1: args.rev1,
          ...(args.rev2 !== undefined ? { rev2: args.rev2 } : {}),
          core: await loadCore(),
        });
        return toolResult(formatTimeTravel(result, args.top ?? 20));
      } catch (err) {
        if (err instanceof RepoError) return toolError(sanitize(err.message, 600));
        throw err;
      }
    },
  };
}
