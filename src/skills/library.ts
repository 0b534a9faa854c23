import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, unlinkSync, rmdirSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { claudeDir, dataDir, ensureDataDir, projectRoot, writeFileAtomic, type Env } from './paths.ts';
import { checkDescription, checkInstructions, checkSkillName, renderSkillFile } from './skill-file.ts';

export type SkillScope = 'project' | 'global';
export type SkillStatus = 'pending' | 'approved' | 'rejected';

/** An older text of a skill, kept under its revision id (`r1`, `r2`, ...). */
export interface SkillRevision {
  id: string;
  at: number;
  /** Why it was replaced: the revise note, or the owner's rejection. */
  note: string;
}

/** Where an approved skill was written, and the hash of what was written there. */
export interface Installation {
  tool: 'claude-code';
  path: string;
  hash: string;
  at: number;
}

/** A skill in the library (metadata; the texts are files beside it). */
export interface SkillMeta {
  name: string;
  description: string;
  scope: SkillScope;
  /** Project root for project skills, null for global ones. */
  project: string | null;
  status: SkillStatus;
  /** The teaching session's note on why the skill is worth keeping. */
  note: string;
  created: number;
  updated: number;
  revisions: SkillRevision[];
  installed: Installation | null;
}

/** A skill was not found (by name, in this project or globally). */
export class SkillNotFoundError extends Error {
  override name = 'SkillNotFoundError';
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const now = (): number => Math.floor(Date.now() / 1000);

/**
 * The skill library under `<data>/skills/`: pending skills a session taught, their revisions, and
 * the owner's approvals. Only `approve` writes outside it (the SKILL.md Claude Code reads).
 */
export class SkillLibrary {
  readonly root: string;

  constructor(private readonly env: Env = process.env) {
    this.root = join(dataDir(env), 'skills');
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

  /** Stores a new pending skill. Frontmatter is never taken from the caller. */
  teach(input: { name: string; description: string; instructions: string; scope: SkillScope; project: string | null; note: string }): SkillMeta {
    checkSkillName(input.name);
    checkDescription(input.description);
    checkInstructions(input.instructions);
    const project = input.scope === 'project' ? SkillLibrary.projectOf(input.project ?? '') : null;
    const dir = this.dirOf(input.name, input.scope, project);
    ensureDataDir(this.env);
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    try {
      mkdirSync(dir, { mode: 0o700 }); // not recursive: EEXIST makes two teaches of one name race-free
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new TypeError(`Cannot teach skill "${input.name}": it already exists${project ? ` for ${project}` : ' globally'}; use revise to correct it`);
      }
      throw err;
    }
    const t = now();
    const meta: SkillMeta = {
      name: input.name,
      description: input.description,
      scope: input.scope,
      project,
      status: 'pending',
      note: input.note,
      created: t,
      updated: t,
      revisions: [],
      installed: null,
    };
    writeFileAtomic(join(dir, 'instructions.md'), input.instructions);
    this.save(meta);
    return meta;
  }

  /**
   * Replaces a skill's instructions, keeping the old text as a new revision. The skill goes back to
   * pending: an approved copy stays where it was installed until the owner approves the new text.
   */
  revise(input: { name: string; instructions: string; note: string; project: string | null }): { meta: SkillMeta; revision: string } {
    checkInstructions(input.instructions);
    const meta = this.find(input.name, input.project);
    const dir = this.dirOf(meta.name, meta.scope, meta.project);
    const revision = `r${meta.revisions.length + 1}`;
    mkdirSync(join(dir, 'revisions'), { recursive: true, mode: 0o700 });
    writeFileAtomic(join(dir, 'revisions', `${revision}.md`), this.instructions(meta));
    meta.revisions.push({ id: revision, at: now(), note: input.note });
    writeFileAtomic(join(dir, 'instructions.md'), input.instructions);
    meta.status = 'pending';
    meta.updated = now();
    this.save(meta);
    return { meta, revision };
  }

  /** Every skill (rejected ones only with `all`), by scope, project, then name. */
  list(options: { all?: boolean } = {}): SkillMeta[] {
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
    return out
      .filter((m) => options.all || m.status !== 'rejected')
      .sort((a, b) => a.scope.localeCompare(b.scope) || (a.project ?? '').localeCompare(b.project ?? '') || a.name.localeCompare(b.name));
  }

  /** The skill named `name` for `project` (its project skill first, then the global one). */
  find(name: string, project: string | null): SkillMeta {
    checkSkillName(name);
    const root = project ? SkillLibrary.projectOf(project) : null;
    const candidates: Array<[SkillScope, string | null]> = root ? [['project', root], ['global', null]] : [['global', null]];
    for (const [scope, p] of candidates) {
      const file = join(this.dirOf(name, scope, p), 'meta.json');
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SkillMeta;
    }
    throw new SkillNotFoundError(`Cannot find skill "${name}"${root ? ` for ${root} or globally` : ' globally'}: see \`synaptic skills list\``);
  }

  /** The current instructions of a skill. */
  instructions(meta: SkillMeta): string {
    return readFileSync(join(this.dirOf(meta.name, meta.scope, meta.project), 'instructions.md'), 'utf8');
  }

  /** The text a revision kept. */
  revisionText(meta: SkillMeta, id: string): string {
    if (!meta.revisions.some((r) => r.id === id)) throw new SkillNotFoundError(`Cannot find revision "${id}" of skill "${meta.name}"`);
    return readFileSync(join(this.dirOf(meta.name, meta.scope, meta.project), 'revisions', `${id}.md`), 'utf8');
  }

  /** The SKILL.md approve would write now. */
  render(meta: SkillMeta): string {
    return renderSkillFile(meta.name, meta.description, this.instructions(meta));
  }

  /** Where Claude Code reads this skill: `~/.claude/skills/<name>/SKILL.md` or `<project>/.claude/skills/...`. */
  targetPath(meta: SkillMeta): string {
    const base = meta.scope === 'global' ? claudeDir(this.env) : join(meta.project!, '.claude');
    return join(base, 'skills', meta.name, 'SKILL.md');
  }

  /**
   * Approves the current text: writes SKILL.md where Claude Code reads it. Refuses to replace a file
   * Synaptic did not write (or that was edited since) unless `force`.
   */
  approve(name: string, project: string | null, options: { force?: boolean } = {}): { meta: SkillMeta; path: string } {
    const meta = this.find(name, project);
    const path = this.targetPath(meta);
    this.checkOurs(meta, path, options.force === true, 'approve');
    const text = this.render(meta);
    writeFileAtomic(path, text, 0o644);
    writeFileAtomic(join(this.dirOf(meta.name, meta.scope, meta.project), 'approved.md'), this.instructions(meta));
    meta.status = 'approved';
    meta.installed = { tool: 'claude-code', path, hash: sha(text), at: now() };
    meta.updated = now();
    this.save(meta);
    return { meta, path };
  }

  /**
   * Rejects the pending text. A revision of an approved skill is rolled back to the approved text (the
   * rejected one kept as a revision); otherwise the skill becomes rejected and, if installed, its
   * SKILL.md (when still as Synaptic wrote it) is removed.
   */
  reject(name: string, project: string | null): { meta: SkillMeta; restored: boolean; removed: string | null } {
    const meta = this.find(name, project);
    const dir = this.dirOf(meta.name, meta.scope, meta.project);
    if (meta.status === 'pending' && meta.installed && existsSync(join(dir, 'approved.md'))) {
      const revision = `r${meta.revisions.length + 1}`;
      mkdirSync(join(dir, 'revisions'), { recursive: true, mode: 0o700 });
      writeFileAtomic(join(dir, 'revisions', `${revision}.md`), this.instructions(meta));
      meta.revisions.push({ id: revision, at: now(), note: 'rejected by the owner' });
      writeFileAtomic(join(dir, 'instructions.md'), readFileSync(join(dir, 'approved.md'), 'utf8'));
      meta.status = 'approved';
      meta.updated = now();
      this.save(meta);
      return { meta, restored: true, removed: null };
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
    this.save(meta);
    return { meta, restored: false, removed };
  }

  private checkOurs(meta: SkillMeta, path: string, force: boolean, action: string): void {
    if (force || !existsSync(path)) return;
    const current = sha(readFileSync(path, 'utf8'));
    if (meta.installed?.path === path && meta.installed.hash === current) return;
    throw new Error(`Cannot ${action} skill "${meta.name}": ${path} was not written by Synaptic or was edited since; move it away${action === 'approve' ? ' or pass --force' : ''}`);
  }

  private dirOf(name: string, scope: SkillScope, project: string | null): string {
    return scope === 'global' ? join(this.root, 'global', name) : join(this.root, 'project', sha(project!).slice(0, 16), name);
  }

  private save(meta: SkillMeta): void {
    writeFileAtomic(join(this.dirOf(meta.name, meta.scope, meta.project), 'meta.json'), JSON.stringify(meta, null, 1) + '\n');
  }
}
