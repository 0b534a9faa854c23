import type { NodeId } from '../../graph/model.ts';
import { changeImpact } from '../../query/change-impact/impact.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { sanitize } from '../../query/sanitize.ts';

/**
 * Pull requests as gh reports them (`gh pr list/view --json`), their CI and review state, and their
 * blast radius in the graph (the change-impact walk over their changed files). Plain data; the
 * gh calls live in gh.node.ts and the front ends (MCP tools, `synaptic prs`) format it.
 */

/** Fields asked of `gh pr list --json` (all documented by `gh pr list --json` with no value). */
export const LIST_FIELDS = ['number', 'title', 'author', 'headRefName', 'baseRefName', 'isDraft', 'reviewDecision', 'statusCheckRollup', 'mergeable', 'updatedAt', 'url', 'additions', 'deletions', 'changedFiles'] as const;
/** Fields asked of `gh pr view --json` for one PR's detail. */
export const VIEW_FIELDS = [...LIST_FIELDS, 'state', 'files'] as const;

/** One entry of statusCheckRollup: a CheckRun (status/conclusion) or a StatusContext (state). */
export interface GhCheck {
  __typename?: string;
  name?: string;
  context?: string;
  status?: string;
  conclusion?: string;
  state?: string;
}

export interface GhPr {
  number: number;
  title: string;
  author?: { login?: string } | null;
  headRefName?: string;
  baseRefName?: string;
  isDraft?: boolean;
  reviewDecision?: string | null;
  statusCheckRollup?: GhCheck[] | null;
  mergeable?: string;
  updatedAt?: string;
  url?: string;
  additions?: number;
  deletions?: number;
  changedFiles?: number;
  state?: string;
  files?: Array<{ path: string; additions?: number; deletions?: number }> | null;
}

export interface CheckSummary {
  passed: number;
  failed: number;
  pending: number;
  total: number;
  /** failing when any failed, pending when any still runs, passing when all passed, none without checks. */
  state: 'failing' | 'pending' | 'passing' | 'none';
}

const FAILED = new Set(['FAILURE', 'ERROR', 'CANCELLED', 'TIMED_OUT', 'ACTION_REQUIRED', 'STARTUP_FAILURE']);
const PASSED = new Set(['SUCCESS', 'NEUTRAL', 'SKIPPED']);

export function checkSummary(checks: readonly GhCheck[] | null | undefined): CheckSummary {
  let passed = 0;
  let failed = 0;
  let pending = 0;
  for (const c of checks ?? []) {
    const outcome = (c.conclusion || c.state || '').toUpperCase();
    if (FAILED.has(outcome)) failed++;
    else if (PASSED.has(outcome) && (c.status === undefined || c.status.toUpperCase() === 'COMPLETED' || c.state !== undefined)) passed++;
    else pending++;
  }
  const total = passed + failed + pending;
  return { passed, failed, pending, total, state: failed ? 'failing' : pending ? 'pending' : total ? 'passing' : 'none' };
}

/** Where a PR stands, in the order triage ranks them (most actionable first). */
export const STATUSES = ['ready_to_merge', 'needs_review', 'checks_pending', 'changes_requested', 'checks_failing', 'conflicting', 'draft'] as const;
export type PrStatus = (typeof STATUSES)[number];

export function prStatus(pr: GhPr): PrStatus {
  const checks = checkSummary(pr.statusCheckRollup).state;
  if (pr.isDraft) return 'draft';
  if (pr.mergeable === 'CONFLICTING') return 'conflicting';
  if (checks === 'failing') return 'checks_failing';
  if (pr.reviewDecision === 'CHANGES_REQUESTED') return 'changes_requested';
  if (checks === 'pending') return 'checks_pending';
  if (pr.reviewDecision === 'APPROVED' || (!pr.reviewDecision && checks !== 'none')) return 'ready_to_merge';
  return 'needs_review';
}

export interface BlastRadius {
  files: number;
  /** Changed files the graph holds. */
  files_in_graph: number;
  nodes: number;
  communities: number;
  /** Nodes that depend on the changed ones within `depth` hops. */
  dependents: number;
  depth: number;
  /** Most connected changed symbols, copy-ready. */
  top_nodes: string[];
  /** Touched communities with node counts, most touched first. */
  community_ids: Array<{ id: number; nodes: number }>;
}

/** The graph blast radius of a set of changed files (the change-impact walk). */
export function blastRadius(engine: QueryEngine, paths: readonly string[], depth = 3, top = 10): BlastRadius {
  const impact = changeImpact(engine, paths.map((path) => ({ path })), depth);
  const ix = engine.ix;
  const communities = new Map<number, number>();
  for (const v of impact.changed) if (ix.community[v]! >= 0) communities.set(ix.community[v]!, (communities.get(ix.community[v]!) ?? 0) + 1);
  const symbols = impact.changed.filter((v: NodeId) => ix.node(v).kind !== 'file').sort((a, b) => ix.degree[b]! - ix.degree[a]! || a - b);
  return {
    files: paths.length,
    files_in_graph: impact.files.filter((f) => f.nodes.length).length,
    nodes: impact.changed.length,
    communities: communities.size,
    dependents: impact.dependents.length,
    depth: impact.depth,
    top_nodes: symbols.slice(0, top).map((v) => engine.safeQualified(v)),
    community_ids: [...communities].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id, nodes]) => ({ id, nodes })),
  };
}

/** One PR as the PR tools report it (sanitized: titles and branch names come from strangers). */
export interface PrRow {
  number: number;
  title: string;
  author: string;
  head: string;
  base: string;
  status: PrStatus;
  draft: boolean;
  review: string;
  checks: CheckSummary;
  mergeable: string;
  additions: number;
  deletions: number;
  changed_files: number;
  updated_at: string;
  url: string;
}

export function prRow(pr: GhPr): PrRow {
  return {
    number: pr.number,
    title: sanitize(pr.title ?? '', 200),
    author: sanitize(pr.author?.login ?? '', 60),
    head: sanitize(pr.headRefName ?? '', 120),
    base: sanitize(pr.baseRefName ?? '', 120),
    status: prStatus(pr),
    draft: pr.isDraft === true,
    review: sanitize(pr.reviewDecision || 'NONE', 40),
    checks: checkSummary(pr.statusCheckRollup),
    mergeable: sanitize(pr.mergeable ?? 'UNKNOWN', 40),
    additions: pr.additions ?? 0,
    deletions: pr.deletions ?? 0,
    changed_files: pr.changedFiles ?? pr.files?.length ?? 0,
    updated_at: sanitize(pr.updatedAt ?? '', 40),
    url: sanitize(pr.url ?? '', 300),
  };
}

export function checksText(c: CheckSummary): string {
  return c.total ? `checks ${c.passed} passed, ${c.failed} failed, ${c.pending} pending` : 'no checks';
}

/** One line per PR for list_prs and `synaptic prs`. */
export function prLine(r: PrRow): string {
  return `#${r.number} [${r.status}] ${r.title} (${r.author || 'unknown'}) ${r.head} -> ${r.base}; review ${r.review}, ${checksText(r.checks)}, +${r.additions}/-${r.deletions} in ${r.changed_files} files`;
}

export interface TriagedPr extends PrRow {
  blast_radius: BlastRadius;
  rank: number;
}

/** Actionable PRs first (by status order), wider blast radius first within a status; drafts last. */
export function triage(rows: ReadonlyArray<{ row: PrRow; radius: BlastRadius }>): TriagedPr[] {
  return [...rows]
    .sort((a, b) => STATUSES.indexOf(a.row.status) - STATUSES.indexOf(b.row.status) || b.radius.dependents - a.radius.dependents || a.row.number - b.row.number)
    .map(({ row, radius }, i) => ({ ...row, blast_radius: radius, rank: i + 1 }));
}

/** What triage_prs asks the calling model to do with the data (it is the LLM; no LLM call is made here). */
export const TRIAGE_INSTRUCTION =
  'Prioritize these pull requests for the user: for each, say in one line whether to merge, review, fix CI, resolve conflicts or wait, ' +
  'weighing its status (ready_to_merge first, drafts last) against its blast radius (dependents, communities touched). ' +
  'Call get_pr_impact on any PR whose blast radius is large before recommending a merge.';
