import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, type StoreOptions } from '../../src/memory/store.ts';

/** A fresh temp directory, removed by the returned cleanup. */
export function tempDir(prefix = 'synaptic-memory-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A store in a fresh data directory. */
export function tempStore(options: StoreOptions = {}): { store: MemoryStore; dir: string; cleanup: () => void } {
  const t = tempDir();
  const store = MemoryStore.open({ dir: join(t.dir, 'data'), ...options });
  return {
    store,
    dir: join(t.dir, 'data'),
    cleanup: () => {
      store.close();
      t.cleanup();
    },
  };
}
