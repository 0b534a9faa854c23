/**
 * Typed errors of the WASM core shell. Every message reads "Cannot <action>: <reason>" and says what
 * to do. Browser-safe.
 */
import { Status, statusName } from './constants.ts';

/** A call into the core returned a negative status (see constants.ts `Status`). */
export class CoreError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'CoreError';
    this.status = status;
    this.code = statusName(status);
  }
}

/** The graph was freed (or belongs to an instance rebuilt after a trap). */
export class GraphFreedError extends CoreError {
  constructor(action: string, reason = 'the graph was freed') {
    super(Status.E_BAD_HANDLE, `Cannot ${action}: ${reason}; build a new graph with core.graph(...)`);
    this.name = 'GraphFreedError';
  }
}

/** A node id argument is not in 0..n-1. */
export class NodeRangeError extends CoreError {
  readonly node: number;
  readonly n: number;
  constructor(action: string, node: number, n: number) {
    super(
      Status.E_NODE_RANGE,
      `Cannot ${action}: node id ${node} is out of range (the graph has ${n} nodes, ids 0..${n - 1}); pass a dense id from graph/`,
    );
    this.name = 'NodeRangeError';
    this.node = node;
    this.n = n;
  }
}

/** Where the core aborted, when it recorded it (debug builds carry messages and files). */
export interface TrapSite {
  line: number;
  column: number;
  message: string | null;
  file: string | null;
}

/**
 * The core trapped (a bug, or memory exhausted). The instance has been rebuilt: the process keeps
 * working, but every graph built before the trap is gone and must be built again.
 */
export class CoreTrap extends Error {
  readonly site: TrapSite | null;
  constructor(action: string, cause: unknown, site: TrapSite | null) {
    const where = site && (site.message || site.line)
      ? ` (${site.message ?? 'abort'}${site.file ? ` at ${site.file}:${site.line}:${site.column}` : ''})`
      : '';
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      `Cannot ${action}: the WASM core trapped: ${why}${where}; the core was reset, rebuild your graphs and retry`,
      { cause },
    );
    this.name = 'CoreTrap';
    this.site = site;
  }
}

/** The .wasm speaks an ABI this shell cannot use. */
export class AbiMismatchError extends Error {
  readonly expected: { major: number; minor: number };
  readonly actual: { major: number; minor: number };
  constructor(expected: { major: number; minor: number }, actual: { major: number; minor: number }) {
    super(
      `Cannot load the WASM core: it speaks ABI ${actual.major}.${actual.minor}, this shell needs ` +
        `${expected.major}.x with x >= ${expected.minor}; rebuild it with \`npm run build:wasm\` ` +
        `or load the synaptic.wasm that ships with this version`,
    );
    this.name = 'AbiMismatchError';
    this.expected = expected;
    this.actual = actual;
  }
}

/** The .wasm could not be found, fetched or compiled. */
export class CoreLoadError extends Error {
  constructor(reason: string, cause?: unknown) {
    super(`Cannot load the WASM core: ${reason}`, cause === undefined ? undefined : { cause });
    this.name = 'CoreLoadError';
  }
}
