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
];
