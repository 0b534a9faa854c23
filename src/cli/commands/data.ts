import { UsageError, type Command } from '../command.ts';
import { createWriteStream, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { jsonWithoutInvisible } from '../../graph/sanitize.ts';
import { backupDatabase, restoreDatabase } from '../../memory/backup.ts';
import type { MemoryBackend } from '../../memory/backend.ts';
import { checkDatabaseUrl, databaseUrl, openMemoryBackend, teamName } from '../../memory/database.ts';
import { projectKey } from '../../memory/identity.ts';
import { redactUrl } from '../../memory/pg/connect.ts';
import { dataDir } from '../../memory/paths.ts';
import type { MemoryRecord } from '../../memory/types.ts';
import { projectRoot } from '../../skills/paths.ts';
import { FileSkillStore, type SkillMeta, type SkillStore, type TextSlot } from '../../skills/store.ts';
import { parseRecords } from './memory.ts';

const USAGE = `Usage: synaptic data <backup|restore|export|import|migrate> ...

  synaptic data backup <file>    consistent copy of the memory database, safe while servers run
  synaptic data restore <file>   replace the memory database with a backup; refuses while any
                                 server or command is connected (close agent sessions first).
                                 The replaced database is kept as memory.db.before-restore.
  synaptic data export [FILE]    every memory (any state) as JSON lines, exact bodies, to FILE or stdout
  synaptic data import [FILE]    JSON lines from FILE (or stdin): new ids, supersedes chains remapped,
                                 memories already present skipped
  synaptic data migrate --to postgres://USER@HOST/DB
                                 copy the local SQLite memory and this machine's skill library (texts,
                                 revisions, status) into the team database (SYNAPTIC_TEAM)
  synaptic data migrate --to sqlite
                                 copy the team database's memory and skills into the local files (a
                                 project's skills when run in a clone of it, or its key is a path)
migrate skips memories and skills already there, and installs no SKILL.md: each machine keeps its
own installations (synaptic skills approve NAME installs the shared text on another machine).
export and import use the configured store: the team database when SYNAPTIC_DATABASE_URL (or
synaptic settings database) is set, else the local SQLite file.`;

export const dataCommand: Command = {
  name: 'data',
  summary: 'back up, restore, export, import or migrate the memory database',
  usage: USAGE,
  async run(argv) {
    if (argv[0] === 'export' || argv[0] === 'import' || argv[0] === 'migrate') return transfer(argv);
    const [sub, file, ...extra] = argv;
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    if (sub !== 'backup' && sub !== 'restore') throw new UsageError('needs backup, restore, export, import or migrate');
    if (!file) throw new UsageError(`${sub} needs a file`);
    const dir = dataDir();
    const team = databaseUrl();
    if (team !== null) {
      throw new UsageError(
        `${sub} works on the local SQLite file, but memory is in the team database ${redactUrl(team)} (team mode): ` +
          (sub === 'backup' ? 'use synaptic data export FILE, or pg_dump' : 'use synaptic data import FILE, or restore the database with pg_restore'),
      );
    }
    if (sub === 'backup') {
      const r = await backupDatabase(dir, file);
      process.stdout.write(`Backed up ${r.memories} memories to ${r.file}\n`);
    } else {
      const r = restoreDatabase(dir, file);
      process.stdout.write(`Restored ${r.memories} memories from ${file}${r.previous ? ` (previous database kept as ${r.previous})` : ''}\n`);
    }
    return 0;
  },
};

async function exportTo(store: MemoryBackend, file: string | undefined): Promise<number> {
  const out: NodeJS.WritableStream & { end(cb: (err?: Error | null) => void): unknown } = file === undefined || file === '-' ? process.stdout : createWriteStream(file, { mode: 0o600 });
  let n = 0;
  for await (const m of store.exportAll()) {
    if (!out.write(`${jsonWithoutInvisible(JSON.stringify(m))}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    n++;
  }
  if (out !== process.stdout) await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return n;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * Copies every skill (metadata, texts, revisions) from this machine's files into the team database, or
 * back. The team database keys project skills by the project's portable key; this machine's files by
 * the project's root here: a key is mapped back to the current project's root when it is that
 * project's key (else, when it is a path, to that path); other projects' skills stay (`elsewhere`).
 */
async function migrateSkills(url: string, toFiles: boolean): Promise<{ copied: number; skipped: number; elsewhere: number }> {
  const { PgSkillStore } = await import('../../skills/pg-store.ts');
  const files = new FileSkillStore();
  const database = await PgSkillStore.open({ url: checkDatabaseUrl(url), team: teamName(), env: process.env });
  try {
    const [from, to]: [SkillStore, SkillStore] = toFiles ? [database, files] : [files, database];
    const here = toFiles ? projectRoot(realpathSync(process.cwd())) : null;
    const out = { copied: 0, skipped: 0, elsewhere: 0 };
    for (const meta of await from.list()) {
      let copy: SkillMeta = meta;
      if (toFiles && meta.scope === 'project') {
        const key = meta.project!;
        const root = here !== null && projectKey(here) === key ? here : isAbsolute(key) ? key : null;
        if (root === null) {
          out.elsewhere++;
          continue;
        }
        copy = { ...meta, project: root };
      }
      const texts = new Map<TextSlot, string>();
      for (const slot of ['instructions', 'approved', ...meta.revisions.map((r) => r.id)] as TextSlot[]) {
        const body = await from.text(meta, slot);
        if (body !== null) texts.set(slot, body);
      }
      if (await to.put(copy, texts)) out.copied++;
      else out.skipped++;
    }
    return out;
  } finally {
    await database.close();
  }
}

async function collect(store: MemoryBackend): Promise<MemoryRecord[]> {
  const all: MemoryRecord[] = [];
  for await (const m of store.exportAll()) all.push(m);
  return all;
}

/** export, import and migrate: JSON lines of MemoryRecord between the configured store, files and the other backend. */
async function transfer(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'migrate') {
    if (rest[0] !== '--to' || rest[1] === undefined) throw new UsageError('migrate needs --to postgres://USER@HOST/DB or --to sqlite');
    if (rest.length > 2) throw new UsageError(`unexpected argument '${rest[2]}'`);
    const toSqlite = rest[1] === 'sqlite';
    const team = toSqlite ? databaseUrl() : null;
    if (toSqlite && team === null) throw new UsageError('--to sqlite copies the team database, but no SYNAPTIC_DATABASE_URL (or synaptic settings database) is set');
    const from = await openMemoryBackend({ url: toSqlite ? team! : null });
    try {
      const records = await collect(from);
      const to = await openMemoryBackend({ url: toSqlite ? null : checkDatabaseUrl(rest[1]!) });
      try {
        const r = await to.importRecords(records);
        const skills = await migrateSkills(toSqlite ? team! : rest[1]!, toSqlite);
        const where = toSqlite ? to.location : redactUrl(rest[1]!);
        const skipped = [r.skipped ? plural(r.skipped, 'memory', 'memories') : '', skills.skipped ? plural(skills.skipped, 'skill', 'skills') : ''].filter(Boolean).join(' and ');
        process.stdout.write(
          `Migrated ${plural(r.imported, 'memory', 'memories')} and ${plural(skills.copied, 'skill', 'skills')} from ${from.location} to ${where}${skipped ? ` (${skipped} already there, skipped)` : ''}\n`,
        );
        if (skills.elsewhere) {
          process.stdout.write(`${plural(skills.elsewhere, 'skill', 'skills')} of other projects not copied: run synaptic data migrate --to sqlite in a clone of each project.\n`);
        }
        if (skills.copied) process.stdout.write('No SKILL.md was installed: each machine installs its own copy (synaptic skills approve NAME).\n');
        if (!toSqlite) process.stdout.write(`Set SYNAPTIC_DATABASE_URL=${redactUrl(rest[1]!)} (or synaptic settings database) for servers to use it.\n`);
      } finally {
        await to.close();
      }
    } finally {
      await from.close();
    }
    return 0;
  }
  if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}'`);
  const store = await openMemoryBackend();
  try {
    if (sub === 'export') {
      const n = await exportTo(store, rest[0]);
      if (rest[0] !== undefined && rest[0] !== '-') process.stdout.write(`Exported ${n} memories from ${store.location} to ${rest[0]}\n`);
    } else {
      const file = rest[0];
      const records = parseRecords(readFileSync(file === undefined || file === '-' ? 0 : file, 'utf8'));
      const r = await store.importRecords(records);
      process.stdout.write(`Imported ${r.imported} memories into ${store.location}${r.skipped ? `, skipped ${r.skipped} already present` : ''}\n`);
    }
  } finally {
    await store.close();
  }
  return 0;
}
