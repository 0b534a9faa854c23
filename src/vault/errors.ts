/** A vault operation failed for a reason the user can fix (bad key, tampered file, unknown name). */
export class VaultError extends Error {
  override name = 'VaultError';
}

/** AES-GCM authentication failed: wrong key, or the vault file was modified. */
export class VaultAuthError extends VaultError {
  override name = 'VaultAuthError';
}

/** A scope file could not be parsed; `line` is 1-based (0 when the whole file is at fault). */
export class ScopeFileError extends Error {
  override name = 'ScopeFileError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`Cannot parse ${file}${line > 0 ? `: line ${line}` : ''}: ${reason}`);
  }
}
