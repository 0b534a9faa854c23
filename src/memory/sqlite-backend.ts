import type { MemoryBackend } from './backend.ts';
import { MemoryStore, type StoreOptions } from './store.ts';
import type { MemoryRecord, ReadInput, RecallInput, RememberInput } from './types.ts';

/** The embedded SQLite store behind the async backend interface. */
export class SqliteBackend implements MemoryBackend {
  readonly kind = 'sqlite' as const;
  readonly location: string;
  constructor(readonly store: MemoryStore) {
    this.location = store.file;
  }
  static open(options: StoreOptions = {}): SqliteBackend {
    return new SqliteBackend(MemoryStore.open(options));
  }
  async remember(input: RememberInput) {
    return this.store.remember(input);
  }
  async recall(input: RecallInput) {
    return this.store.recall(input);
  }
  async read(input: ReadInput) {
    return this.store.read(input);
  }
  async count(project: string) {
    return this.store.count(project);
  }
  async recent(project: string, limit: number) {
    return this.store.recent(project, limit);
  }
  async list(options: { project?: string; all?: boolean; limit?: number }) {
    return this.store.list(options);
  }
  async show(id: number) {
    return this.store.show(id);
  }
  async forget(id: number) {
    return this.store.forget(id);
  }
  async restore(id: number) {
    return this.store.restore(id);
  }
  async *exportAll(): AsyncIterable<MemoryRecord> {
    yield* this.store.exportAll();
  }
  async importRecords(records: MemoryRecord[]) {
    return this.store.importRecords(records);
  }
  async close() {
    this.store.close();
  }
}
