import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { readWorkspaceFiles, type GlobalManifest } from '../../extract/workspace/state.node.ts';
import { sanitize } from '../../query/sanitize.ts';
import type { GraphToolContext } from './context.ts';

/** One federated member as list_repos / repo_stats report it. */
export interface RepoRow {
  repo: string;
  nodes: number;
  edges: number;
  source_hash?: string;
  /** Only from a global manifest: a member whose last extraction failed (its counts are absent). */
  failed?: string;
}

/**
 * The members of the graph: from the served graph's repo tags when it is a federated (union)
 * graph, else from a global-manifest.json next to it (`serve` pointed at a `workspace build`'s
 * output folder: each member's graph is its own, counts from the build). Either way with each
 * member's source_hash from workspace-state.json. Empty: a single-repo graph.
 */
export async function federatedRepos(ctx: GraphToolContext): Promise<RepoRow[]> {
  const dir = dirname(ctx.graphPath);
  const { manifest, state } = readWorkspaceFiles(dir);
  const hashes = state?.repos ?? {};
  const withHash = (row: RepoRow): RepoRow => {
    const hash = hashes[row.repo]?.source_hash;
    return typeof hash === 'string' ? { ...row, source_hash: sanitize(hash, 80) } : row;
  };
  if (!manifest || existsSync(ctx.graphPath)) {
    const repos = (await ctx.engine()).repos();
    if (repos.length || !manifest) return repos.map((r) => withHash({ repo: sanitize(r.repo), nodes: r.nodes, edges: r.edges }));
  }
  return fromManifest(manifest).map(withHash);
}

/** The manifest's members in tag order (as a union graph lists its repos). */
function fromManifest(manifest: GlobalManifest): RepoRow[] {
  return [...manifest.members].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0)).map((m) => ({
    repo: sanitize(m.tag), nodes: m.nodes ?? 0, edges: m.links ?? 0,
    ...(m.status === 'failed' ? { failed: sanitize(m.error ?? 'failed', 200) } : {}),
  }));
}
