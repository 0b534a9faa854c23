import { existsSync, readFileSync, realpathSync, statSync, unlinkSync, rmdirSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { isAbsolute, join, dirname } from 'node:path';
import { claudeDir, projectRoot, writeFileAtomic, type Env } from './paths.ts';
import { checkDescription, checkInstructions, checkSkillName, renderSkillFile } from './skill-file.ts';
import { FileSkillStore, sha, SkillExistsError, type SkillMeta, type SkillChange, type SkillRef, type SkillScope, type SkillStore, type TextSlot } from './store.ts';

export type { Installation, SkillMeta, SkillRevision, SkillScope, SkillStatus, SkillStore } from './store.ts';

/** A skill was not found (by name, in this project or globally). */
export class SkillNotFoundError extends Error {
  override name = 'SkillNotFoundError';
}

const now = (): number => Math.floor(Date.now() / 1000);

function taughtBy(): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (a container's numeric uid): keep "unknown"
  }
  return `${user}@${hostname()}`;
}

/**
 * The skill library: pending skills a session taught, their revisions, and the owner's approvals. The
 * metadata and texts live in a SkillStore: files under `<data>/skills/` on one machine, or the team
 * database in team mode, so a skill taught on one machine is listed, shown and approved on another.
 * Only `approve` writes outside it (the SKILL.md Claude Code reads, always on this machine).
 */
export class SkillLibrary {
  readonly store: SkillStore;

  /** The library of this machine's files; `SkillLibrary.open` picks the team database when configured. */
  constructor(private readonly env: Env = process.env, store?: SkillStore) {
    this.store = store ?? new FileSkillStore(env);
  }

  /** The configured library: the team database in team mode (SYNAPTIC_DATABASE_URL or `settings database`), else files. */
  static async open(env: Env = process.env): Promise<SkillLibrary> {
    const { databaseUrl, teamName } = await import('../memory/database.ts');
    const url = databaseUrl(env as NodeJS.ProcessEnv);
    if (url === null) return new SkillLibrary(env);
    const { PgSkillStore } = await import('./pg-store.ts');
    return new SkillLibrary(env, await PgSkillStore.open({ url, team: teamName(env as NodeJS.ProcessEnv), env }));
  }

  /** Normalizes a project argument: absolute, existing, symlink-free, at its repository root. */
  static projectOf(project: string): string {
    if (!isAbsolute(project)) throw new TypeError(`Cannot use project "${project}": give an absolute path`);
    let real: string;
    try {
      real = realpathSync(project);
    } catch {
      throw new TypeError(`Cannot use project "${project}": it does not exist`);
    }
    if (!statSync(real).isDirectory()) throw new TypeError(`Cannot use project "${project}": it is not a folder`);
    return projectRoot(real);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /** Stores a new pending skill. Frontmatter is never taken from the caller. */
  async teach(input: { name: string; description: string; instructions: string; scope: SkillScope; project: string | null; note: string }): Promise<SkillMeta> {
    checkSkillName(input.name);
    checkDescription(input.description);
    checkInstructions(input.instructions);
    const project = input.scope === 'project' ? SkillLibrary.projectOf(input.project ?? '') : null;
    const t = now();
    const meta: SkillMeta = {
      name: input.name,
      description: input.description,
      scope: input.scope,
      project,
      status: 'pending',
      note: input.note,
      taughtBy: taughtBy(),
      created: t,
      updated: t,
      revisions: [],
      installed: null,
    };
    try {
      await this.store.create(meta, input.instructions);
    } catch (err) {
      if (err instanceof SkillExistsError) {
        throw new TypeError(`Cannot teach skill "${input.name}": it already exists${project ? ` for ${project}` : ' globally'}; use revise to correct it`);
      }
      throw err;
    }
    return meta;
  }

  /**
   * Replaces a skill's instructions, keeping the old text as a new revision. The skill goes back to
   * pending: an approved copy stays where it was installed until the owner approves the new text.
   */
  async revise(input: { name: string; instructions: string; note: string; project: string | null }): Promise<{ meta: SkillMeta; revision: string }> {
    checkInstructions(input.instructions);
    const found = await this.find(input.name, input.project);
    return this.change(found, async (meta, text) => {
      const revision = `r${meta.revisions.length + 1}` as TextSlot;
      const texts = new Map<TextSlot, string | null>([[revision, (await text('instructions')) ?? ''], ['instructions', input.instructions]]);
      meta.revisions.push({ id: revision, at: now(), note: input.note });
      meta.status = 'pending';
      meta.updated = now();
      return { meta, texts, result: { meta, revision } };
    });
  }

  /** Every skill (rejected ones only with `all`), by scope, project, then name. */
  async list(options: { all?: boolean } = {}): Promise<SkillMeta[]> {
    return (await this.store.list())
      .filter((m) => options.all || m.status !== 'rejected')
      .sort((a, b) => a.scope.localeCompare(b.scope) || (a.project ?? '').localeCompare(b.project ?? '') || a.name.localeCompare(b.name));
  }

  /** The skill named `name` for `project` (its project skill first, then the global one). */
  async find(name: string, project: string | null): Promise<SkillMeta> {
    checkSkillName(name);
    const root = project ? SkillLibrary.projectOf(project) : null;
    const candidates: SkillRef[] = root ? [{ name, scope: 'project', project: root }, { name, scope: 'global', project: null }] : [{ name, scope: 'global', project: null }];
    for (const ref of candidates) {
      const meta = await this.store.get(ref);
      if (meta) return meta;
    }
    throw new SkillNotFoundError(`Cannot find skill "${name}"${root ? ` for ${root} or globally` : ' globally'}: see \`synaptic skills list\``);
  }

  /** The current instructions of a skill. */
  async instructions(meta: SkillMeta): Promise<string> {
    const text = await this.store.text(meta, 'instructions');
    if (text === null) throw new SkillNotFoundError(`Cannot read skill "${meta.name}": its instructions are missing`);
    return text;
  }

  /** The text a revision kept. */
  async revisionText(meta: SkillMeta, id: string): Promise<string> {
    const text = meta.revisions.some((r) => r.id === id) ? await this.store.text(meta, id as TextSlot) : null;
    if (text === null) throw new SkillNotFoundError(`Cannot find revision "${id}" of skill "${meta.name}"`);
    return text;
  }

  /** The SKILL.md approve would write now. */
  async render(meta: SkillMeta): Promise<string> {
    return renderSkillFile(meta.name, meta.description, await this.instructions(meta));
  }

  /** Where Claude Code reads this skill: `~/.claude/skills/<name>/SKILL.md` or `<project>/.claude/skills/...`. */
  targetPath(meta: SkillMeta): string {
    const base = meta.scope === 'global' ? claudeDir(this.env) : join(meta.project!, '.claude');
    return join(base, 'skills', meta.name, 'SKILL.md');
  }

  /**
   * Approves the current text: writes SKILL.md where Claude Code reads it on this machine. Refuses to
   * replace a file Synaptic did not write (or that was edited since) unless `force`. In team mode
   * another machine approves the shared text again to install its own copy.
   */
  async approve(name: string, project: string | null, options: { force?: boolean } = {}): Promise<{ meta: SkillMeta; path: string }> {
    const found = await this.find(name, project);
    return this.change(found, async (meta, text) => {
      const path = this.targetPath(meta);
      this.checkOurs(meta, path, options.force === true, 'approve');
      const instructions = (await text('instructions')) ?? '';
      const rendered = renderSkillFile(meta.name, meta.description, instructions);
      writeFileAtomic(path, rendered, 0o644);
      meta.status = 'approved';
      meta.installed = { tool: 'claude-code', path, hash: sha(rendered), at: now() };
      meta.updated = now();
      return { meta, texts: new Map<TextSlot, string | null>([['approved', instructions]]), result: { meta, path } };
    });
  }

  /**
   * Rejects the pending text. A revision of an approved skill is rolled back to the approved text (the
   * rejected one kept as a revision); otherwise the skill becomes rejected and, if installed on this
   * machine, its SKILL.md (when still as Synaptic wrote it) is removed.
   */
  async reject(name: string, project: string | null): Promise<{ meta: SkillMeta; restored: boolean; removed: string | null }> {
    const found = await this.find(name, project);
    return this.change<{ meta: SkillMeta; restored: boolean; removed: string | null }>(found, async (meta, text) => {
      const approved = meta.status === 'pending' ? await text('approved') : null;
      if (approved !== null) {
        const revision = `r${meta.revisions.length + 1}` as TextSlot;
        const texts = new Map<TextSlot, string | null>([[revision, (await text('instructions')) ?? ''], ['instructions', approved]]);
        meta.revisions.push({ id: revision, at: now(), note: 'rejected by the owner' });
        meta.status = 'approved';
        meta.updated = now();
        return { meta, texts, result: { meta, restored: true, removed: null } };
      }
      let removed: string | null = null;
      if (meta.installed) {
        this.checkOurs(meta, meta.installed.path, false, 'reject');
        if (existsSync(meta.installed.path)) {
          unlinkSync(meta.installed.path);
          removed = meta.installed.path;
          try {
            rmdirSync(dirname(meta.installed.path)); // only if now empty
          } catch {
            // The folder holds other files: leave it.
          }
        }
        meta.installed = null;
      }
      meta.status = 'rejected';
      meta.updated = now();
      // No approved text any more: a later revision that is rejected rejects the skill.
      return { meta, texts: new Map<TextSlot, string | null>([['approved', null]]), result: { meta, restored: false, removed } };
    });
  }

  private async change<T>(found: SkillMeta, fn: (meta: SkillMeta, text: (slot: TextSlot) => Promise<string | null>) => Promise<SkillChange<T>>): Promise<T> {
    const out = await this.store.update<T>({ name: found.name, scope: found.scope, project: found.project }, fn);
    if (out === null) throw new SkillNotFoundError(`Cannot change skill "${found.name}": it was removed meanwhile`);
    return out;
  }

  private checkOurs(meta: SkillMeta, path: string, force: boolean, action: string): void {
    if (force || !existsSync(path)) return;
    const current = sha(readFileSync(path, 'utf8'));
    if (meta.installed?.path === path && meta.installed.hash === current) return;
    throw new Error(`Cannot ${action} skill "${meta.name}": ${path} was not written by Synaptic or was edited since; move it away${action === 'approve' ? ' or pass --force' : ''}`);
  }
}
