/**
 * Recall ranking, one implementation for every backend: relevance x recency without a full scan.
 * Written as a plan (a generator) that yields the index reads it needs and is resumed with their
 * answers, so the synchronous SQLite store and the asynchronous PostgreSQL one run the same
 * algorithm: `runSync` and `runAsync` are the two drivers.
 */

/** Per-term window (newest matches of one term) when too few memories hold every term; bounds p99. */
export const TERM_WINDOW = 48;
/** Document frequencies are counted exactly up to this many matches, then estimated from density. */
export const DF_SAMPLE = 500;
/** Recency half-life: a memory this many days old weighs 3/4 of a new one, and never below 1/2. */
export const RECENCY_HALF_LIFE_DAYS = 30;

/** An index read the plan needs. */
export type RankRequest =
  /** Live memory count and newest id (any scope). Answer: { n, top }. */
  | { kind: 'total' }
  /**
   * Ids of live memories holding the terms (`op`), newest first, at most `window`. `projectId`
   * undefined: any scope (document frequency); null: global only; a number: global or that project.
   * Answer: number[].
   */
  | { kind: 'match'; terms: string[]; op: 'AND' | 'OR'; projectId: number | null | undefined; window: number }
  /**
   * Document-frequency sample of one term (any scope): how many of the newest DF_SAMPLE live matches
   * there are, and the oldest id among them (null for none). Answer: { count, oldest }.
   */
  | { kind: 'df'; term: string }
  /** Creation time, state (0 live) and scope key (0 global) of each id. Answer: Map<number, RankMeta>. */
  | { kind: 'meta'; ids: number[] };

export interface RankMeta {
  created: number;
  state: number;
  scopeKey: number;
}

type Plan<T> = Generator<RankRequest, T, unknown>;

/** Counts and document frequencies a store keeps between recalls (they cost index reads). */
export class RankState {
  private total: { n: number; top: number; checked: number } | null = null;
  private readonly dfCache = new Map<string, { df: number; at: number }>();

  /** Keeps the cached live count current with this process's own writes (others' show up on re-count). */
  adjust(delta: number, newId = 0): void {
    if (!this.total) return;
    this.total.n = Math.max(1, this.total.n + delta);
    this.total.top = Math.max(this.total.top, newId);
  }

  /** What a recall of `terms` will ask for beyond the caches (a networked store fetches it in one trip). */
  misses(terms: string[]): { total: boolean; df: string[] } {
    const total = !this.total || Date.now() - this.total.checked > 30_000;
    const n = this.total?.n ?? 0;
    const df = terms.filter((t) => {
      const hit = this.dfCache.get(t);
      return !hit || total || Math.abs(n - hit.at) > Math.max(50, hit.at * 0.1);
    });
    return { total, df };
  }

  /** Live memory count and newest id, for IDF; re-counted at most every 30 s (a count is O(n)). */
  *liveTotal(): Plan<{ n: number; top: number }> {
    if (!this.total || Date.now() - this.total.checked > 30_000) {
      const r = (yield { kind: 'total' }) as { n: number; top: number | null };
      this.total = { n: Math.max(1, r.n), top: r.top ?? 0, checked: Date.now() };
    }
    return this.total;
  }

  /**
   * How many live memories hold `term` (any scope): counted up to DF_SAMPLE matches, past that
   * extrapolated from how far back the newest DF_SAMPLE reach. Cached per term until the store
   * grows or shrinks by 10%.
   */
  *docFrequency(term: string): Plan<number> {
    const { n, top } = yield* this.liveTotal();
    const hit = this.dfCache.get(term);
    if (hit && Math.abs(n - hit.at) <= Math.max(50, hit.at * 0.1)) return hit.df;
    const sample = (yield { kind: 'df', term }) as { count: number; oldest: number | null };
    let df = sample.count;
    if (sample.count === DF_SAMPLE) {
      const span = Math.max(1, top - sample.oldest! + 1);
      df = Math.min(n, Math.round((DF_SAMPLE * n) / Math.min(n, span)));
    }
    if (this.dfCache.size > 10_000) this.dfCache.clear();
    this.dfCache.set(term, { df, at: n });
    return df;
  }
}

/**
 * The ids to recall for `terms`, best first. Candidates are the newest matches of the query (all
 * terms, then each term alone when that finds too few), scored by the summed IDF of the terms they
 * hold (a coordination-weighted BM25 without term frequency) and weighted by age. Every index read
 * is bounded by a window, so cost does not grow with the store.
 */
export function* rankPlan(state: RankState, terms: string[], projectId: number | null, limit: number, now: number): Plan<number[]> {
  const df = new Map<string, number>();
  for (const t of terms) df.set(t, yield* state.docFrequency(t));
  const { n } = yield* state.liveTotal();
  const idf = new Map(terms.map((t) => [t, Math.log(1 + (Math.max(n, df.get(t)!) - df.get(t)! + 0.5) / (df.get(t)! + 0.5))]));
  const scored = new Map<number, number>();
  // Memories holding every term share one score, so recency alone orders them: the newest
  // `limit` are all that can win, and the index streams them newest first.
  const all = [...idf.values()].reduce((a, b) => a + b, 0);
  for (const m of (yield { kind: 'match', terms, op: 'AND', projectId, window: limit }) as number[]) scored.set(m, all);
  if (scored.size < limit && terms.length > 1) {
    const full = new Set(scored.keys());
    const byRarity = terms.filter((t) => df.get(t)! > 0).sort((a, b) => idf.get(b)! - idf.get(a)!);
    const top = byRarity.length > 0 ? idf.get(byRarity[0]!)! : 0;
    // Near-stopwords (a small fraction of the rarest term's weight) add noise and cost, not rank.
    for (const t of byRarity.filter((x, i) => i === 0 || idf.get(x)! >= top * 0.25)) {
      const w = idf.get(t)!;
      const window = Math.max(TERM_WINDOW, limit * 4);
      for (const m of (yield { kind: 'match', terms: [t], op: 'OR', projectId, window }) as number[]) {
        if (!full.has(m)) scored.set(m, (scored.get(m) ?? 0) + w);
      }
    }
  }
  // Recency re-weighs the strongest candidates only (bounded row reads); the scope is re-checked here.
  const short = [...scored.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, limit * 4);
  const metas = (yield { kind: 'meta', ids: short.map(([id]) => id) }) as Map<number, RankMeta>;
  const final: Array<[number, number]> = [];
  for (const [id, score] of short) {
    const meta = metas.get(id);
    if (!meta || meta.state !== 0 || (meta.scopeKey !== 0 && meta.scopeKey !== projectId)) continue;
    const ageDays = Math.max(0, now - meta.created) / 86400;
    final.push([id, score * (0.5 + 0.5 * Math.pow(2, -ageDays / RECENCY_HALF_LIFE_DAYS))]);
  }
  return final
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .slice(0, limit)
    .map(([id]) => id);
}

/** Runs a plan against a synchronous index. */
export function runSync<T>(plan: Plan<T>, answer: (r: RankRequest) => unknown): T {
  let step = plan.next();
  while (!step.done) step = plan.next(answer(step.value));
  return step.value;
}

/** Runs a plan against an asynchronous index. */
export async function runAsync<T>(plan: Plan<T>, answer: (r: RankRequest) => Promise<unknown>): Promise<T> {
  let step = plan.next();
  while (!step.done) step = plan.next(await answer(step.value));
  return step.value;
}
