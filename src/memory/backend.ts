import type { MemoryRecord, ReadInput, ReadResult, RecallInput, RecallResult, RememberInput, RememberResult } from './types.ts';

/**
 * Where memory lives: the embedded SQLite file (default) or a team's PostgreSQL database. Async at
 * this boundary because pg is; the SQLite store underneath stays synchronous (its calls cost
 * microseconds, so a resolved promise adds nothing measurable). Both implement the same semantics:
 * scope rule, supersedes in one transaction, the ranking of rank.ts, exact byte pages.
 */
export interface MemoryBackend {
  readonly kind: 'sqlite' | 'postgres';
  /** Where the memory is, for messages: the database file, or the URL without its password. */
  readonly location: string;
  remember(input: RememberInput): Promise<RememberResult>;
  recall(input: RecallInput): Promise<RecallResult>;
  read(input: ReadInput): Promise<ReadResult>;
  /** Number of live memories visible from `project`. */
  count(project: string): Promise<number>;
  /** The most recent live memories visible from `project`, newest first. */
  recent(project: string, limit: number): Promise<MemoryRecord[]>;
  list(options: { project?: string; all?: boolean; limit?: number }): Promise<MemoryRecord[]>;
  show(id: number): Promise<{ memory: MemoryRecord; history: MemoryRecord[] }>;
  forget(id: number): Promise<MemoryRecord>;
  restore(id: number): Promise<MemoryRecord>;
  /** Every memory in any state, oldest first. */
  exportAll(): AsyncIterable<MemoryRecord>;
  /** New ids, supersededBy remapped within the batch, exact duplicates skipped; one transaction. */
  importRecords(records: MemoryRecord[]): Promise<{ imported: number; skipped: number }>;
  close(): Promise<void>;
}
