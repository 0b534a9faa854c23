/**
 * Errors a caller of the memory store may want to tell apart. Every message reads
 * "Cannot <action>: <reason>" and says what to do next.
 */

/** The database file is corrupt, or its schema is newer than this build: nothing was rewritten. */
export class DatabaseRefusedError extends Error {
  override name = 'DatabaseRefusedError';
}

/** Content that looks like a credential: memories never hold secrets. */
export class CredentialRefusedError extends Error {
  override name = 'CredentialRefusedError';
  /** The kind of credential detected (never the value). */
  readonly kind: string;
  constructor(message: string, kind: string) {
    super(message);
    this.kind = kind;
  }
}

/** The lifecycle lock is held in a conflicting mode (a restore is running, or servers are connected). */
export class LockBusyError extends Error {
  override name = 'LockBusyError';
}

/** An id that does not exist (owner-facing commands; tools answer `memory: null` instead). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}
