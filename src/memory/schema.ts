import type Database from 'better-sqlite3';
import { rekeyProjects } from './rekey.ts';

/**
 * Numbered schema migrations. `PRAGMA user_version` holds the number of the last one applied; each
 * runs inside the same IMMEDIATE transaction that bumps it, so a migration is all or nothing.
 * Append new migrations; never edit a released one.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** A step SQL cannot express, run after `sql` in the same transaction. */
  run?: (db: Database.Database) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'projects, memories, full-text index',
    sql: `
      CREATE TABLE projects (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE
      ) STRICT;

      -- state: 0 live, 1 superseded, 2 forgotten. scope_key: 0 for global memory, else project_id (the
      -- scope is derived from it; project_id is where a memory was stored, global ones included), so one
      -- partial index serves "recent memory for this project" and "recent global memory". digest: 48 bits
      -- of the body's SHA-256, to answer a repeated remember with the memory already stored.
      CREATE TABLE memories (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        body TEXT NOT NULL,
        source TEXT NOT NULL,
        project_id INTEGER NOT NULL REFERENCES projects(id),
        scope_key INTEGER NOT NULL,
        created INTEGER NOT NULL,
        state INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
        superseded_by INTEGER REFERENCES memories(id),
        changed INTEGER NOT NULL,
        digest INTEGER NOT NULL,
        CHECK (scope_key = 0 OR scope_key = project_id)
      ) STRICT;
      CREATE INDEX memories_live ON memories(scope_key, id) WHERE state = 0;
      CREATE INDEX memories_digest ON memories(scope_key, digest) WHERE state = 0;
      CREATE INDEX memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;

      -- Contentless index of live memories only: a row is deleted (FTS5 'delete' command with the same
      -- text, rebuilt from the immutable memory row) when its memory is superseded or forgotten, and
      -- re-added on restore. Its rowid is the NEGATED memory id, so FTS5's cheap
      -- ascending rowid order is newest-first. One column: body, source, and a scope token
      -- (zzsynscopeg for global, zzsynscopep<project id>) that applies the scope rule inside the index;
      -- results are re-checked against the memories table, so a body that spells a token leaks nothing.
      -- detail=none: recall ranks with its own statistics, not positions, which keeps the index small.
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        text,
        content = '', columnsize = 0, detail = none,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
    `,
  },
  {
    version: 2,
    description: 'projects keyed by their portable identity (git remote URL, else path)',
    sql: '',
    run: rekeyProjects,
  },
];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
