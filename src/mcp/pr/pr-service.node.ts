import { gitOutcomesIn } from '../../extract/git.node.ts';
import { defaultBranch } from '../../extract/git-changes.node.ts';
import type { QueryEngine } from '../../query/engine.ts';
import { ghJson, GhProblem, type GhOptions } from './gh.node.ts';
import { blastRadius, LIST_FIELDS, prRow, triage, VIEW_FIELDS, type GhPr, type PrRow, type TriagedPr, type BlastRadius } from './prs.ts';

/**
 * The gh calls behind list_prs, get_pr_impact, triage_prs and `synaptic prs` (one implementation,
 * two front ends): which PRs, one PR's detail and files, and the triage with files fetched concurrently.
 */

export interface PrQuery {
  /** Folder gh and git run in (default: the server's working directory, as the spec says). */
  cwd?: string;
  base?: string;
  repo?: string;
}

/** PRs asked for at most (gh's own default is 30). */
const LIST_LIMIT = 100;
/** gh processes at once while fetching changed files. */
const CONCURRENCY = 4;

/**
 * The base branch: as given, else the default branch of the repository in cwd (origin/HEAD, main,
 * master, trunk) without its remote prefix, else what GitHub calls the default.
 */
async function baseBranch(q: PrQuery): Promise<string> {
  if (q.base !== undefined) {
    if (!q.base.trim() || q.base.startsWith('-') || /[\s\0]/.test(q.base)) throw new GhProblem(`base '${q.base}' is not a branch name`);
    return q.base;
  }
  if (!q.repo) {
    const local = defaultBranch(gitOutcomesIn(q.cwd ?? process.cwd()));
    if (local) return local.replace(/^origin\//, '');
  }
  const info = await ghJson<{ defaultBranchRef?: { name?: string } }>(['repo', 'view', '--json', 'defaultBranchRef'], opts(q));
  const name = info.defaultBranchRef?.name;
  if (!name) throw new GhProblem('cannot tell the default branch: pass base');
  return name;
}

function opts(q: PrQuery): GhOptions {
  return { cwd: q.cwd ?? process.cwd(), ...(q.repo ? { repo: q.repo } : {}) };
}

export async function listPrs(q: PrQuery): Promise<{ base: string; prs: GhPr[] }> {
  const base = await baseBranch(q);
  const prs = await ghJson<GhPr[]>(['pr', 'list', '--state', 'open', '--base', base, '--limit', String(LIST_LIMIT), '--json', LIST_FIELDS.join(',')], opts(q));
  if (!Array.isArray(prs)) throw new GhProblem('gh pr list did not return a list');
  return { base, prs };
}

export async function viewPr(q: PrQuery, number: number): Promise<GhPr> {
  if (!Number.isInteger(number) || number < 1) throw new GhProblem(`pr_number must be a positive whole number, got ${number}`);
  return ghJson<GhPr>(['pr', 'view', String(number), '--json', VIEW_FIELDS.join(',')], opts(q));
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order. */
async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

export interface Triage {
  base: string;
  prs: TriagedPr[];
  /** PRs whose files could not be fetched (their radius is empty), with why. */
  errors: Array<{ number: number; error: string }>;
}

/** The open PRs against base, each with the blast radius of its changed files (fetched concurrently). */
export async function triagePrs(q: PrQuery, engine: QueryEngine): Promise<Triage> {
  const { base, prs } = await listPrs(q);
  const errors: Triage['errors'] = [];
  const rows = await mapConcurrent(prs, CONCURRENCY, async (pr): Promise<{ row: PrRow; radius: BlastRadius }> => {
    let files: string[] = [];
    try {
      const detail = await ghJson<GhPr>(['pr', 'view', String(pr.number), '--json', 'files'], opts(q));
      files = (detail.files ?? []).map((f) => f.path);
    } catch (err) {
      errors.push({ number: pr.number, error: err instanceof Error ? err.message : String(err) });
    }
    return { row: prRow(pr), radius: blastRadius(engine, files) };
  });
  return { base, prs: triage(rows), errors };
}
