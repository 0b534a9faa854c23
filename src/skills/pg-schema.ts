import type { PgMigration } from '../memory/pg/schema.ts';

/**
 * The skill library's numbered migrations in the team database (version table synaptic_skills_schema,
 * beside memory's synaptic_schema and the mesh's synaptic_mesh_schema). Append; never edit a released one.
 */
export const PG_SKILL_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'skills: metadata, current and approved texts, revisions, scoped by team and project',
    sql: `
      -- project_key: the project's portable key (normalized git remote, else its path); '' for global skills.
      -- approved: the text last approved (null until approved, and again once the skill is rejected).
      -- Where a machine installed its SKILL.md is that machine's business: it stays in its data dir.
      CREATE TABLE skills (
        id BIGSERIAL PRIMARY KEY,
        team TEXT NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('project', 'global')),
        project_key TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
        note TEXT NOT NULL,
        taught_by TEXT NOT NULL,
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL,
        instructions TEXT NOT NULL,
        approved TEXT,
        UNIQUE (team, scope, project_key, name),
        CHECK ((scope = 'global') = (project_key = ''))
      );
      -- One row per replaced text: revision r<rev>, when, why, and the text it kept.
      CREATE TABLE skill_revisions (
        skill_id BIGINT NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
        rev INTEGER NOT NULL CHECK (rev > 0),
        at BIGINT NOT NULL,
        note TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (skill_id, rev)
      );
    `,
  },
];
