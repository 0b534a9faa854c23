/**
 * Numbered migrations of the team memory database. `synaptic_schema` records each applied version;
 * all pending ones run in one transaction under an advisory lock, so servers starting together
 * apply them once. Append new migrations; never edit a released one.
 */
export interface PgMigration {
  version: number;
  description: string;
  sql: string;
}

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'projects and memories scoped by team, full-text index',
    sql: `
      -- Every row belongs to a team: one database can hold several teams and no query crosses them.
      -- key: the project's portable identity (normalized git remote URL, else the path).
      CREATE TABLE projects (
        id BIGSERIAL PRIMARY KEY,
        team TEXT NOT NULL,
        key TEXT NOT NULL,
        UNIQUE (team, key)
      );
      -- As in SQLite: state 0 live, 1 superseded, 2 forgotten; scope_key 0 for global memory, else
      -- project_id; digest 48 bits of the body's SHA-256. search: the body and source as the same
      -- letter/number runs the SQLite tokenizer sees, stemmed, without stopwords.
      CREATE TABLE memories (
        id BIGSERIAL PRIMARY KEY,
        team TEXT NOT NULL,
        body TEXT NOT NULL,
        source TEXT NOT NULL,
        project_id BIGINT NOT NULL REFERENCES projects(id),
        scope_key BIGINT NOT NULL,
        created BIGINT NOT NULL,
        state SMALLINT NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
        superseded_by BIGINT REFERENCES memories(id),
        changed BIGINT NOT NULL,
        digest BIGINT NOT NULL,
        search TSVECTOR NOT NULL,
        CHECK (scope_key = 0 OR scope_key = project_id)
      );
      CREATE INDEX memories_live ON memories (team, scope_key, id) WHERE state = 0;
      CREATE INDEX memories_digest ON memories (team, scope_key, digest) WHERE state = 0;
      CREATE INDEX memories_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
      CREATE INDEX memories_search ON memories USING GIN (search) WHERE state = 0;
      CREATE TEXT SEARCH DICTIONARY synaptic_stem (TEMPLATE = snowball, language = english);
      CREATE TEXT SEARCH CONFIGURATION synaptic_memory (COPY = pg_catalog.simple);
      ALTER TEXT SEARCH CONFIGURATION synaptic_memory ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword,
        hword_asciipart, hword_part, hword_numpart WITH synaptic_stem;
    `,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]!.version;
