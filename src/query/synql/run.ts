import type { QueryEngine } from '../engine.ts';
import { compileRegexTest, SearchPatternError } from '../search-pattern.ts';
import type { Expr, Query } from './ast.ts';
import { SynqlBudgetError, SynqlError } from './errors.ts';
import { regexComparisons } from './expr.ts';
import { Matcher } from './match.ts';
import { parseSynql } from './parser.ts';
import { project, type Table } from './result.ts';
import { DEFAULT_BUDGETS, DEFAULT_LIMIT, type Budgets } from './schema.ts';
import { synqlIndex } from './synql-index.ts';

export interface RunOptions {
  /** Rows to return when the query has no LIMIT (default 25); a LIMIT above it is cut to it. */
  limit?: number;
  budgets?: Partial<Budgets>;
}

/**
 * Parse, plan and run one SYNQL query. Throws SynqlError (malformed or unknown names; `format()`
 * gives the caret message) or SynqlBudgetError (a limit stopped it).
 */
export async function runSynql(engine: QueryEngine, source: string, options: RunOptions = {}): Promise<{ query: Query; table: Table }> {
  const budgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  const started = performance.now();
  const query = parseSynql(source);
  if (query.limit !== undefined && query.limit > budgets.maxLimit) {
    throw new SynqlBudgetError('limit', `Budget: LIMIT ${query.limit} passes the output limit (${budgets.maxLimit} rows); use a smaller LIMIT, or count(...) to size the answer`);
  }
  const limit = Math.min(query.limit ?? options.limit ?? DEFAULT_LIMIT, options.limit ?? budgets.maxLimit);
  const re = await compileRegexes(query);
  const sx = synqlIndex(engine);
  const bindings = new Matcher(query, sx, re, budgets, started + budgets.timeMs).run();
  return { query, table: project(query, bindings, sx, re, limit) };
}

async function compileRegexes(q: Query): Promise<Map<Expr, (s: string) => boolean>> {
  const map = new Map<Expr, (s: string) => boolean>();
  const found = regexComparisons(q.where);
  for (const it of q.items) regexComparisons(it.expr, found);
  for (const o of q.order) regexComparisons(o.expr, found);
  for (const cmp of found) {
    const lit = cmp.r as Extract<Expr, { t: 'lit' }>;
    try {
      map.set(cmp, literalTest(String(lit.value)) ?? (await compileRegexTest(String(lit.value))));
    } catch (err) {
      if (err instanceof SearchPatternError) throw new SynqlError(err.message, lit.pos, q.source);
      throw err;
    }
  }
  return map;
}

export { SynqlError, SynqlBudgetError };

/**
 * `^create`, `Factory$`, `^init$`, `Router`: a regex of plain characters is a string test (the same
 * answer as RE2, without its per-string cost on every node).
 */
function literalTest(pattern: string): ((s: string) => boolean) | undefined {
  const m = /^(\^?)([A-Za-z0-9_ :#@/-]*)(\$?)$/.exec(pattern);
  if (!m) return undefined;
  const [, start, text, end] = m as unknown as [string, string, string, string];
  if (start && end) return (s) => s === text;
  if (start) return (s) => s.startsWith(text);
  if (end) return (s) => s.endsWith(text);
  return (s) => s.includes(text);
}
