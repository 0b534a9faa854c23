import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { projectKey } from '../memory/identity.ts';
import { openMigratedPool, redactUrl, unavailable } from '../memory/pg/connect.ts';
import { dataDir, writeFileAtomic, type Env } from './paths.ts';
import { PG_SKILL_MIGRATIONS } from './pg-schema.ts';
import { SkillExistsError, type Installation, type SkillChange, type SkillMeta, type SkillRef, type SkillStore, type TextSlot } from './store.ts';

interface Row {
  id: number;
  scope: SkillMeta['scope'];
  project_key: string;
  name: string;
  description: string;
  status: SkillMeta['status'];
  note: string;
  taught_by: string;
  created: number;
  updated: number;
  revisions: Array<{ rev: number; at: number; note: string }> | null;
}

const COLUMNS = `s.id, s.scope, s.project_key, s.name, s.description, s.status, s.note, s.taught_by, s.created, s.updated,
  (SELECT json_agg(json_build_object('rev', r.rev, 'at', r.at, 'note', r.note) ORDER BY r.rev) FROM skill_revisions r WHERE r.skill_id = s.id) AS revisions`;

/** PostgreSQL text cannot hold U+0000: refused with the reason rather than as a driver error. */
function checkText(action: string, fields: Record<string, string | null>): void {
  for (const [field, value] of Object.entries(fields)) {
    if (value?.includes('\u0000')) throw new TypeError(`Cannot ${action}: the ${field} holds a NUL character (U+0000), which the team database cannot store`);
  }
}

/**
 * The skill library in the team's PostgreSQL database: every machine of the team lists, shows, revises
 * and approves the same skills (metadata, current, approved and revised texts; rows scoped by team, and
 * project skills by the project's portable key, so two clones of one repository share them). Where this
 * machine installed a skill's SKILL.md is kept in this machine's data dir (`skills/installed.json`):
 * approving on one machine installs there only.
 */
export class PgSkillStore implements SkillStore {
  readonly location: string;

  private constructor(
    private readonly pool: pg.Pool,
    url: string,
    private readonly team: string,
    private readonly env: Env,
  ) {
    this.location = redactUrl(url);
  }

  static async open(options: { url: string; team?: string; env?: Env }): Promise<PgSkillStore> {
    const { pool } = await openMigratedPool(options.url, 'open the skill library', 'the skill library', PG_SKILL_MIGRATIONS, 'synaptic_skills_schema');
    return new PgSkillStore(pool, options.url, options.team ?? 'default', options.env ?? process.env);
  }

  async create(meta: SkillMeta, instructions: string): Promise<void> {
    checkText('teach the skill', { description: meta.description, instructions, note: meta.note });
    const res = await this.run('teach the skill', (c) =>
      c.query(
        `INSERT INTO skills (team, scope, project_key, name, description, status, note, taught_by, created, updated, instructions)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (team, scope, project_key, name) DO NOTHING`,
        [this.team, meta.scope, this.keyOf(meta), meta.name, meta.description, meta.status, meta.note, meta.taughtBy ?? '', meta.created, meta.updated, instructions],
      ),
    );
    if (res.rowCount === 0) throw new SkillExistsError(meta.name);
  }

  async get(ref: SkillRef): Promise<SkillMeta | null> {
    const { rows } = await this.run('look up the skill', (c) =>
      c.query<Row>(`SELECT ${COLUMNS} FROM skills s WHERE s.team = $1 AND s.scope = $2 AND s.project_key = $3 AND s.name = $4`, [this.team, ref.scope, this.keyOf(ref), ref.name]),
    );
    return rows[0] ? this.meta(rows[0], ref.project) : null;
  }

  async list(): Promise<SkillMeta[]> {
    const { rows } = await this.run('list the skills', (c) => c.query<Row>(`SELECT ${COLUMNS} FROM skills s WHERE s.team = $1 ORDER BY s.scope, s.project_key, s.name`, [this.team]));
    return rows.map((r) => this.meta(r, r.scope === 'global' ? null : r.project_key));
  }

  async text(meta: SkillMeta, slot: TextSlot): Promise<string | null> {
    return this.run('read the skill', (c) => this.readText(c, meta, slot));
  }

  async update<T>(ref: SkillRef, fn: (meta: SkillMeta, text: (slot: TextSlot) => Promise<string | null>) => Promise<SkillChange<T>>): Promise<T | null> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      unavailable('change the skill', this.location, err, 'the skill library');
    }
    const dropped = () => {}; // a connection lost mid-transaction: the pending query rejects and says so
    client.on('error', dropped);
    try {
      await client.query('BEGIN');
      // Lock first, then read in a new statement: its snapshot sees what the previous holder committed.
      const where = [this.team, ref.scope, this.keyOf(ref), ref.name];
      await client.query('SELECT id FROM skills WHERE team = $1 AND scope = $2 AND project_key = $3 AND name = $4 FOR UPDATE', where);
      const { rows } = await client.query<Row>(`SELECT ${COLUMNS} FROM skills s WHERE s.team = $1 AND s.scope = $2 AND s.project_key = $3 AND s.name = $4`, where);
      if (!rows[0]) {
        await client.query('ROLLBACK');
        return null;
      }
      const id = rows[0].id;
      const before = this.meta(rows[0], ref.project);
      const known = before.revisions.length;
      const change = await fn(before, (slot) => this.readText(client, before, slot));
      const { meta, texts } = change;
      checkText('change the skill', Object.fromEntries(texts));
      const params: unknown[] = [id, meta.description, meta.status, meta.note, meta.updated];
      let sets = '';
      for (const slot of ['instructions', 'approved'] as const) {
        if (!texts.has(slot)) continue;
        params.push(texts.get(slot));
        sets += `, ${slot} = $${params.length}`;
      }
      await client.query(`UPDATE skills SET description = $2, status = $3, note = $4, updated = $5${sets} WHERE id = $1`, params);
      for (const r of meta.revisions.slice(known)) {
        await client.query('INSERT INTO skill_revisions (skill_id, rev, at, note, body) VALUES ($1, $2, $3, $4, $5)', [id, Number(r.id.slice(1)), r.at, r.note, texts.get(r.id as TextSlot) ?? '']);
      }
      await client.query('COMMIT');
      this.saveInstalled(meta);
      return change.result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      unavailable('change the skill', this.location, err, 'the skill library');
    } finally {
      client.off('error', dropped);
      client.release();
    }
  }

  async put(meta: SkillMeta, texts: ReadonlyMap<TextSlot, string>): Promise<boolean> {
    checkText('copy the skill', { description: meta.description, note: meta.note, ...Object.fromEntries(texts) });
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      unavailable('copy the skill', this.location, err, 'the skill library');
    }
    const dropped = () => {};
    client.on('error', dropped);
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO skills (team, scope, project_key, name, description, status, note, taught_by, created, updated, instructions, approved)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (team, scope, project_key, name) DO NOTHING RETURNING id`,
        [this.team, meta.scope, this.keyOf(meta), meta.name, meta.description, meta.status, meta.note, meta.taughtBy ?? '', meta.created, meta.updated, texts.get('instructions') ?? '', texts.get('approved') ?? null],
      );
      if (!rows[0]) {
        await client.query('ROLLBACK');
        return false;
      }
      for (const r of meta.revisions) {
        await client.query('INSERT INTO skill_revisions (skill_id, rev, at, note, body) VALUES ($1, $2, $3, $4, $5)', [rows[0].id, Number(r.id.slice(1)), r.at, r.note, texts.get(r.id as TextSlot) ?? '']);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      unavailable('copy the skill', this.location, err, 'the skill library');
    } finally {
      client.off('error', dropped);
      client.release();
    }
    this.saveInstalled(meta);
    return true;
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => {});
  }

  private async run<T>(action: string, fn: (c: pg.Pool) => Promise<T>): Promise<T> {
    try {
      return await fn(this.pool);
    } catch (err) {
      unavailable(action, this.location, err, 'the skill library');
    }
  }

  private async readText(c: pg.Pool | pg.PoolClient, meta: SkillMeta, slot: TextSlot): Promise<string | null> {
    if (slot === 'instructions' || slot === 'approved') {
      const { rows } = await c.query<{ t: string | null }>(`SELECT ${slot} AS t FROM skills WHERE team = $1 AND scope = $2 AND project_key = $3 AND name = $4`, [this.team, meta.scope, this.keyOf(meta), meta.name]);
      return rows[0]?.t ?? null;
    }
    const { rows } = await c.query<{ t: string }>(
      'SELECT r.body AS t FROM skill_revisions r JOIN skills s ON s.id = r.skill_id WHERE s.team = $1 AND s.scope = $2 AND s.project_key = $3 AND s.name = $4 AND r.rev = $5',
      [this.team, meta.scope, this.keyOf(meta), meta.name, Number(slot.slice(1))],
    );
    return rows[0]?.t ?? null;
  }

  /** The project's portable key ('' for global skills); a list's project is already a key. */
  private keyOf(ref: { scope: SkillMeta['scope']; project: string | null }): string {
    return ref.scope === 'global' ? '' : projectKey(ref.project!);
  }

  private meta(r: Row, project: string | null): SkillMeta {
    const meta: SkillMeta = {
      name: r.name,
      description: r.description,
      scope: r.scope,
      project,
      status: r.status,
      note: r.note,
      taughtBy: r.taught_by,
      created: r.created,
      updated: r.updated,
      revisions: (r.revisions ?? []).map((x) => ({ id: `r${x.rev}`, at: x.at, note: x.note })),
      installed: null,
    };
    meta.installed = this.installedMap()[this.installKey(meta)] ?? null;
    return meta;
  }

  // This machine's installations, keyed by team, scope, project key and name.
  private get installedFile(): string {
    return join(dataDir(this.env), 'skills', 'installed.json');
  }

  private installKey(meta: SkillMeta): string {
    return JSON.stringify([this.team, meta.scope, this.keyOf(meta), meta.name]);
  }

  private installedMap(): Record<string, Installation> {
    if (!existsSync(this.installedFile)) return {};
    try {
      return JSON.parse(readFileSync(this.installedFile, 'utf8')) as Record<string, Installation>;
    } catch {
      return {};
    }
  }

  private saveInstalled(meta: SkillMeta): void {
    const map = this.installedMap();
    const key = this.installKey(meta);
    if ((map[key] ?? null) === meta.installed) return;
    if (meta.installed) map[key] = meta.installed;
    else delete map[key];
    writeFileAtomic(this.installedFile, JSON.stringify(map, null, 1) + '\n');
  }
}
