import { defaultBranch, outputPaths } from '../../extract/git-changes.node.ts';
import { gitOutcomesIn } from '../../extract/git.node.ts';

export interface Recency {
  /** What `since` resolved to (ref or date) and the base commit diffed against. */
  since: string;
  base: string;
  /** Changed repo-relative file -> churn weight in 0..1 (log-scaled lines added + deleted). */
  weights: Map<string, number>;
}

/**
 * Files changed on the current branch since a baseline: merge-base(since, HEAD)..working tree
 * (uncommitted edits and untracked files included, Synaptic's own outputs left out), churn-weighted.
 * `since` is a git ref, a date ("2 weeks ago") or `auto` (the default branch). Undefined when the
 * root is not a git repository or the baseline does not resolve (the caller then ignores the
 * option, as the spec says).
 */
export function changedSince(root: string | undefined, since: string): Recency | undefined {
  if (!root) return undefined;
  // The repository's own config never runs a program here (fsmonitor, filters, hooks...): see gitIn().
  const outcomes = gitOutcomesIn(root);
  const run = (args: string[]) => {
    const r = outcomes(args);
    return r.ok ? r.stdout : undefined;
  };
  const git = (args: string[]) => run(args)?.trim();
  if (git(['rev-parse', '--is-inside-work-tree']) !== 'true') return undefined;
  let ref = since.trim();
  if (!ref || ref.startsWith('-')) return undefined;
  if (ref === 'auto') {
    ref = defaultBranch(outcomes) ?? '';
    if (!ref) return undefined;
  }
  let base: string | undefined;
  if (git(['rev-parse', '--verify', '-q', `${ref}^{commit}`])) base = git(['merge-base', ref, 'HEAD']);
  // git's date parser accepts almost anything, so only date-shaped baselines are read as dates.
  else if (/\d|\b(ago|yesterday|today|now|noon|midnight|sec|min|hour|day|week|month|year)s?\b/i.test(ref)) {
    base = git(['rev-list', '-1', `--before=${ref}`, 'HEAD']) || undefined;
  }
  if (!base) return undefined;
  const churn = new Map<string, number>();
  // -z: paths verbatim (no quoting); --no-renames: a rename is its new path, not "a => b".
  for (const entry of (run(['diff', '--numstat', '-z', '--no-renames', base]) ?? '').split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t(.+)$/s.exec(entry);
    if (m) churn.set(m[3]!, (m[1] === '-' ? 1 : Number(m[1])) + (m[2] === '-' ? 1 : Number(m[2])));
  }
  for (const f of (run(['ls-files', '-z', '--others', '--exclude-standard']) ?? '').split('\0')) if (f) churn.set(f, Math.max(churn.get(f) ?? 0, 10));
  for (const path of outputPaths(root, churn.keys())) churn.delete(path);
  const max = Math.max(1, ...churn.values());
  const weights = new Map<string, number>();
  for (const [f, c] of churn) weights.set(f, Math.log1p(c) / Math.log1p(max));
  return { since: ref, base: base.slice(0, 12), weights };
}
