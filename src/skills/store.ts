import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dataDir, ensureDataDir, writeFileAtomic, type Env } from './paths.ts';

export type SkillScope = 'project' | 'global';
export type SkillStatus = 'pending' | 'approved' | 'rejected';

/** An older text of a skill, kept under its revision id (`r1`, `r2`, ...). */
export interface SkillRevision {
  id: string;
  at: number;
  /** Why it was replaced: the revise note, or the owner's rejection. */
  note: string;
}

/** Where an approved skill was written on this machine, and the hash of what was written there. */
export interface Installation {
  tool: 'claude-code';
  path: string;
  hash: string;
  at: number;
}

/** A skill in the library (metadata; the texts are kept beside it by the store). */
export interface SkillMeta {
  name: string;
  description: string;
  scope: SkillScope;
  /**
   * Project skills: the project root on this machine when looked up for a project (find, teach), or,
   * in a team database's list, the project's portable key (its normalized git remote). Null for global ones.
   */
  project: string | null;
  status: SkillStatus;
  /** The teaching session's note on why the skill is worth keeping. */
  note: string;
  /** `user@host` of the session that taught it (absent in skills taught before it was recorded). */
  taughtBy?: string;
  created: number;
  updated: number;
  revisions: SkillRevision[];
  /** This machine's SKILL.md (never shared: another machine installs its own copy). */
  installed: Installation | null;
}

/** The texts of a skill: the current instructions, the last approved ones, and each revision's. */
export type TextSlot = 'instructions' | 'approved' | `r${number}`;

/** Which skill: its name in a scope, for a project root on this machine (null for global). */
export interface SkillRef {
  name: string;
  scope: SkillScope;
  project: string | null;
}

/** What an update writes: the new metadata and the texts to set (null: remove). */
export interface SkillChange<T> {
  meta: SkillMeta;
  texts: Map<TextSlot, string | null>;
  result: T;
}

/** A skill of that name already exists in its scope (teach refuses; revise corrects). */
export class SkillExistsError extends Error {
  override name = 'SkillExistsError';
}

/**
 * Where the skill library keeps metadata and texts: files under the data directory (FileSkillStore),
 * or the team database in team mode (PgSkillStore, src/skills/pg-store.ts). SKILL.md installations are
 * always this machine's files; the store only records them.
 */
export interface SkillStore {
  /** The team database (password redacted), or null for this machine's files. */
  readonly location: string | null;
  create(meta: SkillMeta, instructions: string): Promise<void>;
  get(ref: SkillRef): Promise<SkillMeta | null>;
  /** Every skill of every project (and the global ones), any status. */
  list(): Promise<SkillMeta[]>;
  text(meta: SkillMeta, slot: TextSlot): Promise<string | null>;
  /**
   * Reads the skill, lets `fn` decide, writes what it returns: one transaction in the team database
   * (two sessions revising at once cannot both take the same revision id). Null when it is gone.
   */
  update<T>(ref: SkillRef, fn: (meta: SkillMeta, text: (slot: TextSlot) => Promise<string | null>) => Promise<SkillChange<T>>): Promise<T | null>;
  /**
   * Writes a whole skill as it is (data migrate): its metadata (status, who taught it, timestamps,
   * revisions, this machine's installation record) and texts (`instructions`, `approved`, each `rN`).
   * False, writing nothing, when a skill of that name is already in its scope.
   */
  put(meta: SkillMeta, texts: ReadonlyMap<TextSlot, string>): Promise<boolean>;
  close(): Promise<void>;
}

export const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/** The library as files under `<data>/skills/`: `meta.json`, `instructions.md`, `approved.md`, `revisions/rN.md` per skill. */
export class FileSkillStore implements SkillStore {
  readonly location = null;
  readonly root: string;

  constructor(private readonly env: Env = process.env) {
    this.root = join(dataDir(env), 'skills');
  }

  async create(meta: SkillMeta, instructions: string): Promise<void> {
    const dir = this.dirOf(meta);
    ensureDataDir(this.env);
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    try {
      mkdirSync(dir, { mode: 0o700 }); // not recursive: EEXIST makes two teaches of one name race-free
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new SkillExistsError(meta.name);
      throw err;
    }
    writeFileAtomic(join(dir, 'instructions.md'), instructions);
    this.save(meta);
  }

  async get(ref: SkillRef): Promise<SkillMeta | null> {
    const file = join(this.dirOf(ref), 'meta.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SkillMeta) : null;
  }

  async list(): Promise<SkillMeta[]> {
    const out: SkillMeta[] = [];
    const read = (dir: string): void => {
      if (!existsSync(dir)) return;
      for (const name of readdirSync(dir).sort()) {
        const file = join(dir, name, 'meta.json');
        if (existsSync(file)) out.push(JSON.parse(readFileSync(file, 'utf8')) as SkillMeta);
      }
    };
    read(join(this.root, 'global'));
    const projects = join(this.root, 'project');
    if (existsSync(projects)) for (const p of readdirSync(projects).sort()) read(join(projects, p));
    return out;
  }

  async text(meta: SkillMeta, slot: TextSlot): Promise<string | null> {
    const file = this.fileOf(meta, slot);
    return existsSync(file) ? readFileSync(file, 'utf8') : null;
  }

  async update<T>(ref: SkillRef, fn: (meta: SkillMeta, text: (slot: TextSlot) => Promise<string | null>) => Promise<SkillChange<T>>): Promise<T | null> {
    const dir = this.dirOf(ref);
    if (!existsSync(join(dir, 'meta.json'))) return null;
    const release = await lockDir(join(dir, '.lock'));
    try {
      const meta = await this.get(ref);
      if (!meta) return null;
      const change = await fn(meta, (slot) => this.text(meta, slot));
      for (const [slot, body] of change.texts) {
        const file = this.fileOf(meta, slot);
        if (body !== null) writeFileAtomic(file, body);
        else if (existsSync(file)) unlinkSync(file);
      }
      this.save(change.meta);
      return change.result;
    } finally {
      release();
    }
  }

  async put(meta: SkillMeta, texts: ReadonlyMap<TextSlot, string>): Promise<boolean> {
    try {
      await this.create(meta, texts.get('instructions') ?? '');
    } catch (err) {
      if (err instanceof SkillExistsError) return false;
      throw err;
    }
    for (const [slot, body] of texts) if (slot !== 'instructions') writeFileAtomic(this.fileOf(meta, slot), body);
    return true;
  }

  async close(): Promise<void> {}

  private dirOf(ref: SkillRef): string {
    return ref.scope === 'global' ? join(this.root, 'global', ref.name) : join(this.root, 'project', sha(ref.project!).slice(0, 16), ref.name);
  }

  private fileOf(meta: SkillMeta, slot: TextSlot): string {
    const dir = this.dirOf(meta);
    return slot === 'instructions' || slot === 'approved' ? join(dir, `${slot}.md`) : join(dir, 'revisions', `${slot}.md`);
  }

  private save(meta: SkillMeta): void {
    writeFileAtomic(join(this.dirOf(meta), 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
  }
}

/**
 * A lock shared by every process of the data dir: a folder made with mkdir (atomic), removed on
 * release. A lock older than 30 s belongs to a process that died holding it and is taken over.
 */
async function lockDir(path: string): Promise<() => void> {
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(path, { mode: 0o700 });
      return () => rmdirSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(path).mtimeMs > 30_000) rmdirSync(path);
      } catch {
        // released meanwhile: try again
      }
      if (attempt > 2000) throw new Error(`Cannot change the skill: ${path} stays locked (remove it if no synaptic process is running)`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
