import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

/** A temp repository (with `.git`), data dir and HOME for running the CLI against the shared database. */
export function cliSetup() {
  const t = tempDir('synaptic-cli-');
  const repo = join(t.dir, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const data = join(t.dir, 'data');
  const env = { ...process.env, SYNAPTIC_DATA_DIR: data, HOME: join(t.dir, 'home'), SYNAPTIC_PROJECT_DIR: '', SYNAPTIC_BIN: 'synaptic' };
  return { ...t, repo, data, env };
}
