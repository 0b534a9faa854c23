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
  {
    version: 2,
    description: 'a postings table (lexeme, memory id) kept by a trigger: newest matches of a term read in id order',
    sql: `
      -- One row per (live memory, lexeme of its search vector). GIN answers "which rows hold this term"
      -- but not "the newest 48 of them": a common term's bitmap is thousands of heap rows to sort, and
      -- the planner's other choice (the id index backwards, filtering) walks tens of thousands of rows
      -- for a mid-frequency one. A btree on (team, term, scope_key, id) reads the newest matches of a
      -- term in one scope directly (recall's windows), one on (team, term, id) across scopes (document
      -- frequency) and probes whether a memory holds a term (the other terms of an all-terms match).
      CREATE TABLE memory_terms (
        team TEXT NOT NULL,
        term TEXT NOT NULL,
        id BIGINT NOT NULL,
        scope_key BIGINT NOT NULL,
        PRIMARY KEY (team, term, id)
      );
      CREATE INDEX memory_terms_scoped ON memory_terms (team, term, scope_key, id);
      -- Recall reads the newest postings first, by index only where the visibility map allows: vacuum
      -- after every 1% of new rows (not the default 20%) so the newest pages do not stay heap fetches.
      ALTER TABLE memory_terms SET (autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_scale_factor = 0.02);
      -- Every writer (remember, supersede, forget, restore, import, a bulk load) keeps it by this trigger.
      CREATE FUNCTION synaptic_memory_terms() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.state = NEW.state AND OLD.scope_key = NEW.scope_key AND OLD.search = NEW.search THEN
          RETURN NULL;
        END IF;
        IF TG_OP <> 'INSERT' AND OLD.state = 0 THEN
          DELETE FROM memory_terms WHERE team = OLD.team AND term = ANY (tsvector_to_array(OLD.search)) AND id = OLD.id;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.state = 0 THEN
          INSERT INTO memory_terms (team, term, id, scope_key)
            SELECT NEW.team, t, NEW.id, NEW.scope_key FROM unnest(tsvector_to_array(NEW.search)) AS t;
        END IF;
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER memories_terms AFTER INSERT OR UPDATE OF state, scope_key, search OR DELETE ON memories
        FOR EACH ROW EXECUTE FUNCTION synaptic_memory_terms();
      INSERT INTO memory_terms (team, term, id, scope_key)
        SELECT team, unnest(tsvector_to_array(search)), id, scope_key FROM memories WHERE state = 0;
      -- Recall no longer reads the GIN index; it only cost every write.
      DROP INDEX memories_search;
    `,
  },
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]!.version;
