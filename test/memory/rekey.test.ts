// Schema migration 2: a memory.db written before projects were keyed by their git remote stays
// readable. Rows keyed by path are renamed to the remote's key; two clones' rows merge into one project,
// their live memories re-indexed under it, so recall from either clone finds both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearProjectKeys } from '../../src/memory/identity.ts';
import { openDatabase } from '../../src/memory/open.ts';
import { indexedText } from '../../src/memory/query.ts';
import { MIGRATIONS } from '../../src/memory/schema.ts';
import { MemoryStore } from '../../src/memory/store.ts';
import { tempDir } from './helpers.ts';

test('a version-1 database migrates: path keys become the remote key, two clones merge, a folder without a remote keeps its path', () => {
  const t = tempDir('synaptic-rekey-');
  try {
    const clone = (name: string, url: string | null) => {
      const root = join(t.dir, name);
      mkdirSync(join(root, '.git'), { recursive: true });
      if (url) writeFileSync(join(root, '.git', 'config'), `[remote "origin"]\n\turl = ${url}\n`);
      return root;
    };
    const laptop = clone('laptop', 'git@github.com:acme/app.git');
    const second = clone('second', 'https://github.com/acme/app');
    const plain = clone('plain', null);
    const data = join(t.dir, 'data');
    mkdirSync(data, { recursive: true });
    const db = openDatabase(join(data, 'memory.db'), { migrations: MIGRATIONS.slice(0, 1) });
    const put = (project: string, body: string, scope: 'global' | 'project', state = 0) => {
      db.prepare('INSERT OR IGNORE INTO projects (path) VALUES (?)').run(project);
      const pid = (db.prepare('SELECT id FROM projects WHERE path = ?').get(project) as { id: number }).id;
      const key = scope === 'global' ? 0 : pid;
      const id = Number(db.prepare('INSERT INTO memories (body, source, project_id, scope_key, created, changed, digest, state) VALUES (?, ?, ?, ?, 1, 1, 0, ?)').run(body, 's', pid, key, state).lastInsertRowid);
      if (state === 0) db.prepare('INSERT INTO memories_fts (rowid, text) VALUES (?, ?)').run(-id, indexedText(body, 's', key === 0 ? null : key));
      return id;
    };
    const a = put(laptop, 'Laptop clone: releases on Tuesday.', 'project');
    const b = put(second, 'Second clone: releases are tagged.', 'project');
    const g = put(second, 'Global: write tests first.', 'global');
    const p = put(plain, 'Plain folder: no remote here.', 'project');
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    db.close();

    clearProjectKeys();
    const store = MemoryStore.open({ dir: data, lock: false });
    try {
      assert.equal(store.db.pragma('user_version', { simple: true }), 2);
      const projects = store.db.prepare('SELECT path FROM projects ORDER BY id').all() as Array<{ path: string }>;
      assert.deepEqual(projects.map((r) => r.path), ['github.com/acme/app', plain]);
      for (const from of [laptop, second]) {
        const found = store.recall({ query: 'releases', project: from }).memories;
        assert.deepEqual(found.map((m) => m.id).sort(), [a, b].sort(), `recall from ${from}`);
        assert.ok(found.every((m) => m.project === 'github.com/acme/app'));
        assert.equal(store.read({ id: b, project: from }).memory?.id, b);
      }
      assert.deepEqual(store.recall({ query: 'releases', project: plain }).memories, [], 'a folder without the remote sees neither');
      assert.deepEqual(store.recall({ query: 'remote', project: plain }).memories.map((m) => m.id), [p]);
      assert.deepEqual(store.recall({ query: 'tests', project: plain }).memories.map((m) => m.id), [g], 'global memory moved with its project row, still global');
    } finally {
      store.close();
    }
  } finally {
    t.cleanup();
  }
});
