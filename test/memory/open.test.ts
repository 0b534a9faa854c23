import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseRefusedError, LockBusyError } from '../../src/memory/errors.ts';
import { backupDatabase, restoreDatabase } from '../../src/memory/backup.ts';
import { LifecycleLock } from '../../src/memory/lock.ts';
import { dataDir } from '../../src/memory/paths.ts';
import { SCHEMA_VERSION } from '../../src/memory/schema.ts';
import { MemoryStore } from '../../src/memory/store.ts';
import { tempDir } from './helpers.ts';

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

test('dataDir() honours SYNAPTIC_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share', () => {
  assert.equal(dataDir({ SYNAPTIC_DATA_DIR: '/x/y', XDG_DATA_HOME: '/z', HOME: '/h' }), '/x/y');
  assert.equal(dataDir({ XDG_DATA_HOME: '/z', HOME: '/h' }), '/z/synaptic');
  assert.equal(dataDir({ XDG_DATA_HOME: 'relative', HOME: '/h' }), '/h/.local/share/synaptic');
  assert.equal(dataDir({ HOME: '/h' }), '/h/.local/share/synaptic');
});

test('open() creates the database 0600 in a 0700 directory, in WAL mode at the current schema', () => {
  const t = tempDir();
  try {
    const dir = join(t.dir, 'nested', 'synaptic');
    const store = MemoryStore.open({ dir });
    store.remember({ content: 'x', source: 's', scope: 'global', project: '/p' });
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'memory.db')).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'memory.db-wal')).mode & 0o777, 0o600);
    assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    store.close();
  } finally {
    t.cleanup();
  }
});

test('open() refuses a file that is not a database and leaves it byte for byte', () => {
  const t = tempDir();
  try {
    mkdirSync(t.dir, { recursive: true });
    const file = join(t.dir, 'memory.db');
    writeFileSync(file, Buffer.from('this is not sqlite at all, just some bytes '.repeat(200)));
    const before = sha(file);
    assert.throws(() => MemoryStore.open({ dir: t.dir }), (err: Error) => err instanceof DatabaseRefusedError && /not a readable SQLite database|corrupt/.test(err.message));
    assert.equal(sha(file), before);
  } finally {
    t.cleanup();
  }
});

test('open() refuses a database with damaged pages (integrity_check) and changes nothing', () => {
  const t = tempDir();
  try {
    const store = MemoryStore.open({ dir: t.dir });
    for (let i = 0; i < 400; i++) store.remember({ content: `memory number ${i} ${'filler text '.repeat(20)}`, source: 's', scope: 'project', project: '/p' });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.close();
    const file = join(t.dir, 'memory.db');
    const bytes = readFileSync(file);
    const pageSize = bytes.readUInt16BE(16);
    // Scribble over the middle of several b-tree pages (not the header page).
    for (const page of [3, 5, 8]) bytes.fill(0x5a, page * pageSize + 40, page * pageSize + pageSize - 40);
    writeFileSync(file, bytes);
    const before = sha(file);
    assert.throws(() => MemoryStore.open({ dir: t.dir }), DatabaseRefusedError);
    assert.equal(sha(file), before);
  } finally {
    t.cleanup();
  }
});

test('open() refuses a newer schema version and rewrites nothing', () => {
  const t = tempDir();
  try {
    MemoryStore.open({ dir: t.dir }).close();
    const file = join(t.dir, 'memory.db');
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    const before = sha(file);
    assert.throws(() => MemoryStore.open({ dir: t.dir }), /schema version \d+ is newer than this synaptic supports/);
    assert.equal(sha(file), before);
  } finally {
    t.cleanup();
  }
});

test('open() refuses broken foreign keys', () => {
  const t = tempDir();
  try {
    const store = MemoryStore.open({ dir: t.dir });
    store.remember({ content: 'x', source: 's', scope: 'project', project: '/p' });
    store.db.pragma('foreign_keys = OFF');
    store.db.prepare('UPDATE memories SET project_id = 77, scope_key = 77').run();
    store.close();
    assert.throws(() => MemoryStore.open({ dir: t.dir }), /foreign_key_check found 1 broken reference/);
  } finally {
    t.cleanup();
  }
});

test('lifecycle lock: restore refuses while a store is open, and a store waits out a restore', async () => {
  const t = tempDir();
  try {
    const store = MemoryStore.open({ dir: t.dir });
    store.remember({ content: 'kept in backup', source: 's', scope: 'global', project: '/p' });
    const backup = join(t.dir, 'backup.db');
    const r = await backupDatabase(t.dir, backup); // online: the store stays open
    assert.equal(r.memories, 1);
    assert.throws(() => restoreDatabase(t.dir, backup), LockBusyError);
    store.remember({ content: 'after backup', source: 's', scope: 'global', project: '/p' });
    store.close();
    const exclusive = LifecycleLock.acquire(t.dir, 'exclusive');
    assert.throws(() => LifecycleLock.acquire(t.dir, 'shared', 50), LockBusyError);
    exclusive.release();
    const restored = restoreDatabase(t.dir, backup);
    assert.equal(restored.memories, 1);
    const again = MemoryStore.open({ dir: t.dir });
    assert.deepEqual(again.recall({ query: '', project: '/p' }).memories.map((m) => m.body), ['kept in backup']);
    again.close();
  } finally {
    t.cleanup();
  }
});

test('restoreDatabase() refuses a corrupt backup and keeps the live database', async () => {
  const t = tempDir();
  try {
    const store = MemoryStore.open({ dir: t.dir });
    store.remember({ content: 'live memory', source: 's', scope: 'global', project: '/p' });
    store.close();
    const bad = join(t.dir, 'bad.db');
    writeFileSync(bad, 'garbage'.repeat(1000));
    assert.throws(() => restoreDatabase(t.dir, bad), DatabaseRefusedError);
    const again = MemoryStore.open({ dir: t.dir });
    assert.equal(again.count('/p'), 1);
    again.close();
  } finally {
    t.cleanup();
  }
});

test('MIGRATIONS are numbered 1..n without gaps, and reopening applies nothing twice', async () => {
  const { MIGRATIONS } = await import('../../src/memory/schema.ts');
  assert.deepEqual(MIGRATIONS.map((m) => m.version), MIGRATIONS.map((_, i) => i + 1));
  const t = tempDir();
  try {
    MemoryStore.open({ dir: t.dir }).close();
    const again = MemoryStore.open({ dir: t.dir });
    assert.equal(again.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
    again.close();
  } finally {
    t.cleanup();
  }
});
