/** The secrets vault: encrypted store, scope files and their trust, folder resolution. */
export { VaultError, VaultAuthError, ScopeFileError } from './errors.ts';
export { dataDir, ensureDataDir, canonicalFolder, projectRoot, isWithin, type Env } from './paths.ts';
export { loadKey, keyFilePath, keyCheck, type VaultKey } from './key.ts';
export { seal, open, type Sealed } from './cipher.ts';
export {
  VaultStore,
  parseRef,
  formatRef,
  heldFor,
  DEFAULT_VAULT,
  ANY_FOLDER,
  type SecretRef,
  type SecretInfo,
} from './store.ts';
export { parseScopeFile, scopeFileTemplate, SCOPE_FILE_NAMES, type ScopeFile, type EnvEntry } from './scope-file.ts';
export { TrustStore, contentHash, type TrustRecord } from './trust.ts';
export { initScope, trustScope, denyScope, variablesIn } from './scope-actions.ts';
export {
  resolveFolder,
  scopeFilesFor,
  SHELLS,
  STATUS_NOTE,
  UNAVAILABLE_LIMIT,
  type Shell,
  type ScopeStatus,
  type VaultStatus,
  type Grant,
  type Resolution,
} from './status.ts';
export { quotePosix, quoteFish, exportLine, unsetLine, hookSnippet } from './shell.ts';
export { agentSession, grantRefusal, isYes, HUMAN_FLAG, type Requester } from './approval.ts';
