// The ABI's constants and the abort hook.
//
// Every export returns an i32: >= 0 is success (a handle, a count, a number of iterations),
// < 0 is one of the statuses below. src/core/constants.ts mirrors these numbers; change both.
// `syn_abi_version()` is `ABI_MAJOR << 16 | ABI_MINOR`: a new export bumps the minor, a changed
// signature, layout or meaning bumps the major.

// @ts-ignore: decorator
@inline export const ABI_MAJOR: i32 = 1;
// @ts-ignore: decorator
@inline export const ABI_MINOR: i32 = 0;

// @ts-ignore: decorator
@inline export const OK: i32 = 0;
/** The handle is not a live graph (never built, freed, or from a rebuilt instance). */
// @ts-ignore: decorator
@inline export const E_BAD_HANDLE: i32 = -1;
/** An argument is out of its domain (negative count, bad direction code, k too large, ...). */
// @ts-ignore: decorator
@inline export const E_BAD_ARG: i32 = -2;
/** A node id is >= n. */
// @ts-ignore: decorator
@inline export const E_NODE_RANGE: i32 = -3;
/** The graph table is full (too many live graphs). */
// @ts-ignore: decorator
@inline export const E_TOO_MANY_GRAPHS: i32 = -4;
/** The caller's output buffer is smaller than the result. */
// @ts-ignore: decorator
@inline export const E_CAPACITY: i32 = -5;
/** A pointer argument is 0 where a buffer is required. */
// @ts-ignore: decorator
@inline export const E_NULL: i32 = -6;

// Direction codes (bfs, dijkstra, ...).
// @ts-ignore: decorator
@inline export const DIR_OUT: u32 = 0;
// @ts-ignore: decorator
@inline export const DIR_IN: u32 = 1;
// @ts-ignore: decorator
@inline export const DIR_BOTH: u32 = 2;

// @ts-ignore: decorator
@inline export const ALL_RELATIONS: u32 = 0xFFFFFFFF;

// The last abort, for the host to read before it rebuilds the instance (syn_trap_info).
export let trapLine: u32 = 0;
export let trapColumn: u32 = 0;
export let trapMessage: usize = 0; // AS string pointer (UTF-16, byte length at ptr - 4)
export let trapFile: usize = 0;

/**
 * The abort hook (`--use abort=assembly/abi/onAbort`): records where, then traps. Keeps the module
 * free of imports; the host turns the resulting RuntimeError into CoreTrap.
 */
export function onAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  trapMessage = changetype<usize>(message);
  trapFile = changetype<usize>(fileName);
  trapLine = line;
  trapColumn = column;
  unreachable();
}
