/** Agent memory: the SQLite store, project resolution, hooks output, backup/restore and installers. */
export {
  MemoryStore,
  MAX_BODY_BYTES,
  DEFAULT_RECALL_LIMIT,
  MAX_RECALL_LIMIT,
  type Scope,
  type MemoryState,
  type MemoryRecord,
  type RememberInput,
  type RememberResult,
  type RecallResult,
  type RecalledMemory,
  type ReadResult,
  type MemoryPage,
  type StoreOptions,
} from './store.ts';
export { BUDGETS, SOURCE_ALLOWANCE, type Budget } from './budget.ts';
export { resolveProject, normalizeProjectPath, type ResolvedProject } from './project.ts';
export { dataDir, dbPath } from './paths.ts';
export { detectCredential, findCredential, normalizeForScan, refuseCredentials } from './credentials.ts';
export { DatabaseRefusedError, CredentialRefusedError, LockBusyError, NotFoundError } from './errors.ts';
export { LifecycleLock } from './lock.ts';
export { backupDatabase, restoreDatabase } from './backup.ts';
export { sessionOutput, compactInstructions } from './hooks.ts';
export { bytePage, truncateUtf8 } from './utf8.ts';
