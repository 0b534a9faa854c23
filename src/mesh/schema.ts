import type Database from 'better-sqlite3';
import { projectKey } from '../memory/identity.ts';
import type { Migration } from '../memory/schema.ts';

/**
 * The mesh file's numbered migrations (mesh.db beside memory.db; same conventions: user_version,
 * one IMMEDIATE transaction per upgrade, append only). A separate file keeps the mesh's frequent small
 * writes (leases, messages) out of the memory database and its backups.
 */
export const MESH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'agents, messages, subscriptions, work items, workers',
    sql: `
      CREATE TABLE projects (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE
      ) STRICT;

      -- One row per held name; a lapsed lease (or a holder whose process is gone) may be taken over.
      CREATE TABLE agents (
        project_id INTEGER NOT NULL REFERENCES projects(id),
        name TEXT NOT NULL,
        session TEXT NOT NULL,
        role TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('idle', 'working', 'blocked')),
        detail TEXT NOT NULL,
        lease_until INTEGER NOT NULL,
        changed INTEGER NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        PRIMARY KEY (project_id, name)
      ) STRICT;
      CREATE INDEX agents_session ON agents(session);

      -- A row per recipient name, deleted by its ack: at-least-once, survives any crash of either side.
      -- handed_to: the session last handed the message (a later session gets it again, marked redelivered).
      CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects(id),
        recipient TEXT NOT NULL,
        sender TEXT NOT NULL,
        channel TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('direct', 'channel', 'status', 'worker')),
        body TEXT NOT NULL,
        created INTEGER NOT NULL,
        handed_to TEXT,
        handed INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX messages_inbox ON messages(project_id, recipient, id);

      -- channel '@<name>' is a watch of that agent's state.
      CREATE TABLE subscriptions (
        project_id INTEGER NOT NULL REFERENCES projects(id),
        channel TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (project_id, channel, name)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX subscriptions_name ON subscriptions(project_id, name);

      CREATE TABLE work (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects(id),
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        posted_by TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'claimed', 'done')),
        claimed_by TEXT NOT NULL,
        note TEXT NOT NULL,
        created INTEGER NOT NULL,
        changed INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX work_state ON work(project_id, state, id);

      CREATE TABLE workers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id INTEGER NOT NULL REFERENCES projects(id),
        worker TEXT NOT NULL,
        owner TEXT NOT NULL,
        owner_session TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'exited', 'failed', 'timed-out', 'stopped')),
        exit_code INTEGER,
        log TEXT NOT NULL,
        started INTEGER NOT NULL,
        ended INTEGER,
        limit_ms INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX workers_project ON workers(project_id, id);
    `,
  },
  {
    version: 2,
    description: 'projects keyed by their portable identity (the normalized git remote URL, else the path), as memory is',
    sql: '',
    run: rekeyMeshProjects,
  },
];

/**
 * Migration 2: each project row keyed by a path becomes its projectKey; two rows that now share a key
 * (two clones of one repository on this machine) merge into the older one: messages, work, workers
 * and subscriptions move; of two agents holding one name the one with the later lease keeps it.
 */
function rekeyMeshProjects(db: Database.Database): void {
  const projects = db.prepare<[], { id: number; key: string }>('SELECT id, key FROM projects ORDER BY id').all();
  const byKey = new Map<string, number>(projects.map((p) => [p.key, p.id]));
  for (const p of projects) {
    const key = projectKey(p.key);
    if (key === p.key) continue;
    const into = byKey.get(key);
    byKey.delete(p.key);
    if (into === undefined) {
      db.prepare('UPDATE projects SET key = ? WHERE id = ?').run(key, p.id);
      byKey.set(key, p.id);
      continue;
    }
    for (const table of ['messages', 'work', 'workers']) db.prepare(`UPDATE ${table} SET project_id = ? WHERE project_id = ?`).run(into, p.id);
    db.prepare('UPDATE OR IGNORE subscriptions SET project_id = ? WHERE project_id = ?').run(into, p.id);
    db.prepare(
      `DELETE FROM agents WHERE project_id = ? AND name IN (SELECT a.name FROM agents a JOIN agents b ON b.name = a.name AND b.project_id = ? WHERE a.project_id = ? AND a.lease_until < b.lease_until)`,
    ).run(into, p.id, into);
    db.prepare('UPDATE OR IGNORE agents SET project_id = ? WHERE project_id = ?').run(into, p.id);
    for (const table of ['agents', 'subscriptions']) db.prepare(`DELETE FROM ${table} WHERE project_id = ?`).run(p.id);
    db.prepare('DELETE FROM projects WHERE id = ?').run(p.id);
  }
}
