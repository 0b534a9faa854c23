import type { PgMigration } from '../memory/pg/schema.ts';

/**
 * The mesh's numbered migrations in the team database (version table synaptic_mesh_schema, beside the
 * memory's). The same tables as mesh.db, each row scoped by team through its project.
 */
export const PG_MESH_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'mesh: agents, messages, subscriptions, work items, workers',
    sql: `
      CREATE TABLE mesh_projects (
        id BIGSERIAL PRIMARY KEY,
        team TEXT NOT NULL,
        key TEXT NOT NULL,
        UNIQUE (team, key)
      );
      CREATE TABLE mesh_agents (
        project_id BIGINT NOT NULL REFERENCES mesh_projects(id),
        name TEXT NOT NULL,
        session TEXT NOT NULL,
        role TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('idle', 'working', 'blocked')),
        detail TEXT NOT NULL,
        lease_until BIGINT NOT NULL,
        changed BIGINT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        PRIMARY KEY (project_id, name)
      );
      CREATE INDEX mesh_agents_session ON mesh_agents (session);
      CREATE TABLE mesh_messages (
        id BIGSERIAL PRIMARY KEY,
        project_id BIGINT NOT NULL REFERENCES mesh_projects(id),
        recipient TEXT NOT NULL,
        sender TEXT NOT NULL,
        channel TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('direct', 'channel', 'status', 'worker')),
        body TEXT NOT NULL,
        created BIGINT NOT NULL,
        handed_to TEXT,
        handed INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX mesh_messages_inbox ON mesh_messages (project_id, recipient, id);
      CREATE TABLE mesh_subscriptions (
        project_id BIGINT NOT NULL REFERENCES mesh_projects(id),
        channel TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (project_id, channel, name)
      );
      CREATE INDEX mesh_subscriptions_name ON mesh_subscriptions (project_id, name);
      CREATE TABLE mesh_work (
        id BIGSERIAL PRIMARY KEY,
        project_id BIGINT NOT NULL REFERENCES mesh_projects(id),
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        posted_by TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'claimed', 'done')),
        claimed_by TEXT NOT NULL,
        note TEXT NOT NULL,
        created BIGINT NOT NULL,
        changed BIGINT NOT NULL
      );
      CREATE INDEX mesh_work_state ON mesh_work (project_id, state, id);
      CREATE TABLE mesh_workers (
        id BIGSERIAL PRIMARY KEY,
        project_id BIGINT NOT NULL REFERENCES mesh_projects(id),
        worker TEXT NOT NULL,
        owner TEXT NOT NULL,
        owner_session TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'exited', 'failed', 'timed-out', 'stopped')),
        exit_code INTEGER,
        log TEXT NOT NULL,
        started BIGINT NOT NULL,
        ended BIGINT,
        limit_ms BIGINT NOT NULL
      );
      CREATE INDEX mesh_workers_project ON mesh_workers (project_id, id);
    `,
  },
];
