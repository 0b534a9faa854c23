/**
 * Numbers shared with the WASM core: the ABI version the shell expects, statuses, direction codes.
 * Mirrors assembly/abi.ts: change both together. Browser-safe.
 */

/** The ABI this shell speaks: it accepts a module with the same major and at least this minor. */
export const ABI_MAJOR = 1;
export const ABI_MINOR = 0;

export const Status = {
  OK: 0,
  /** The handle is not a live graph (never built, freed, or from a rebuilt instance). */
  E_BAD_HANDLE: -1,
  /** An argument is out of its domain. */
  E_BAD_ARG: -2,
  /** A node id is >= n. */
  E_NODE_RANGE: -3,
  /** Too many live graphs in one core instance. */
  E_TOO_MANY_GRAPHS: -4,
  /** An output buffer is smaller than the result. */
  E_CAPACITY: -5,
  /** A required pointer is 0. */
  E_NULL: -6,
} as const;
export type StatusCode = keyof typeof Status;

const STATUS_NAMES = new Map<number, StatusCode>(
  (Object.entries(Status) as [StatusCode, number][]).map(([k, v]) => [v, k]),
);

/** The symbolic name of a status number (`E_UNKNOWN(-n)` for numbers this shell does not know). */
export function statusName(status: number): string {
  return STATUS_NAMES.get(status) ?? `E_UNKNOWN(${status})`;
}

export type Direction = 'out' | 'in' | 'both';
export const DIRECTION_CODE: Readonly<Record<Direction, number>> = { out: 0, in: 1, both: 2 };

/** Relation mask with every relation bit set (the default everywhere). */
export const ALL_RELATIONS = 0xffffffff;
/** `maxDepth`/`maxHops` meaning "no limit" on the wire. */
export const NO_LIMIT = 0xffffffff;
/** Largest single block the core's allocator serves (TLSF: just under 1 GiB). */
export const MAX_BLOCK_BYTES = (1 << 30) - 64;
