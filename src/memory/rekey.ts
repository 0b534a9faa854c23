import type Database from 'better-sqlite3';
import { projectKey } from './identity.ts';
import { indexedText } from './query.ts';

/**
 * Schema migration 2: projects are keyed by their portable identity (projectKey: the normalized git
 * remote URL, else the path) instead of the absolute path. Each project row is renamed to its key;
 * two rows that now share a key (two clones of one repository on this machine) are merged into the
 * older one, re-indexing the moved live project memories under the surviving project's scope token.
 * Runs inside the migration's transaction.
 */
export function rekeyProjects(db: Database.Database): void {
  const projects = db.prepare<[], { id: number; path: string }>('SELECT id, path FROM projects ORDER BY id').all();
  const byKey = new Map<string, number>(projects.map((p) => [p.path, p.id]));
  const rename = db.prepare<[string, number]>('UPDATE projects SET path = ? WHERE id = ?');
  for (const p of projects) {
    const key = projectKey(p.path);
    if (key === p.path) continue;
    const into = byKey.get(key);
    if (into === undefined) {
      rename.run(key, p.id);
      byKey.delete(p.path);
      byKey.set(key, p.id);
    } else {
      merge(db, p.id, into);
      byKey.delete(p.path);
    }
  }
}

function merge(db: Database.Database, from: number, into: number): void {
  const live = db
    .prepare<[number], { id: number; body: string; source: string }>('SELECT id, body, source FROM memories WHERE scope_key = ? AND state = 0')
    .all(from);
  const ftsDelete = db.prepare<[number, string]>("INSERT INTO memories_fts (memories_fts, rowid, text) VALUES ('delete', ?, ?)");
  const ftsInsert = db.prepare<[number, string]>('INSERT INTO memories_fts (rowid, text) VALUES (?, ?)');
  for (const m of live) ftsDelete.run(-m.id, indexedText(m.body, m.source, from));
  db.prepare<[number, number, number]>('UPDATE memories SET project_id = ?, scope_key = CASE scope_key WHEN 0 THEN 0 ELSE ? END WHERE project_id = ?').run(into, into, from);
  for (const m of live) ftsInsert.run(-m.id, indexedText(m.body, m.source, into));
  db.prepare<[number]>('DELETE FROM projects WHERE id = ?').run(from);
}
