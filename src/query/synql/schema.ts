import { NODE_KINDS, RELATIONS } from '../../graph/model.ts';

/**
 * What a SYNQL query may name: node properties, kinds and relation types, and the budgets a query
 * runs under (docs/synql.md lists them; an unknown name is an error listing the valid ones).
 */

export const PROPERTIES = [
  'id', 'name', 'label', 'kind', 'visibility', 'file', 'line', 'loc', 'fan_in', 'fan_out', 'community', 'test_count',
  'params', 'returns', 'repo', 'members', 'language', 'is_test',
] as const;
export type Property = (typeof PROPERTIES)[number];

export const PROPERTY_SET: ReadonlySet<string> = new Set(PROPERTIES);
export const KIND_SET: ReadonlySet<string> = new Set(NODE_KINDS);
/** `other` (foreign relation names) is not matchable by name. */
export const RELATION_SET: ReadonlySet<string> = new Set(RELATIONS);

/** Relations that say "A owns B", left out of fan-in / fan-out. */
export const OWNERSHIP_RELATIONS: ReadonlySet<string> = new Set(['contains', 'defines', 'method']);

export interface Budgets {
  /** Bindings (matched rows before RETURN) a query may build. */
  rows: number;
  /** Largest upper bound of a variable-length relation (`*1..N`). */
  hops: number;
  /** Wall-clock milliseconds a query may run. */
  timeMs: number;
  /** Rows a query may return (its LIMIT). */
  maxLimit: number;
}

export const DEFAULT_BUDGETS: Budgets = { rows: 100_000, hops: 6, timeMs: 2_000, maxLimit: 1_000 };
export const DEFAULT_LIMIT = 25;
