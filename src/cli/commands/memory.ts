import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { UsageError, type Command } from '../command.ts';
import { jsonWithoutInvisible, sanitize, sanitizeSource, sanitizeSourceText } from '../../graph/sanitize.ts';
import { resolveProject } from '../../memory/project.ts';
import { openMemoryBackend } from '../../memory/database.ts';
import type { MemoryRecord } from '../../memory/types.ts';

const USAGE = `Usage: synaptic memory <list|show|forget|restore|export|import> [options]

  synaptic memory list [--project DIR] [--all] [--limit N] [--json]
      live memories this project sees (global + its own), newest first;
      --all: every memory of every project, in any state
  synaptic memory show <id> [--json]     one memory with its hidden history (superseded, forgotten)
  synaptic memory forget <id>            hide a memory from every tool (kept as history)
  synaptic memory restore <id>           bring a superseded or forgotten memory back
  synaptic memory export                 every memory and its history as JSON lines on stdout
  synaptic memory import [FILE]          JSON lines from FILE (or stdin); duplicates are skipped

The database is $SYNAPTIC_DATA_DIR/memory.db (default ~/.local/share/synaptic/memory.db), or the
team's PostgreSQL database when SYNAPTIC_DATABASE_URL (or synaptic settings database) is set.`;

interface Flags {
  positional: string[];
  json: boolean;
  all: boolean;
  project?: string;
  limit?: number;
}

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { positional: [], json: false, all: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') flags.json = true;
    else if (a === '--all') flags.all = true;
    else if (a === '--project' || a === '--limit') {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      if (a === '--project') flags.project = v;
      else {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--limit takes a positive integer, not '${v}'`);
        flags.limit = n;
      }
    } else if (a.startsWith('--')) throw new UsageError(`unknown option '${a}'`);
    else flags.positional.push(a);
  }
  return flags;
}

function parseId(value: string | undefined, verb: string): number {
  if (value === undefined) throw new UsageError(`${verb} needs a memory id (synaptic memory list shows ids)`);
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError(`'${value}' is not a memory id`);
  return id;
}

function stamp(created: number): string {
  return new Date(created * 1000).toISOString().replace('T', ' ').slice(0, 16);
}

// What a memory holds was written by an agent: the project and source print as names (sanitize),
// bodies keep their text with invisible characters escaped (sanitizeSource), and JSON escapes them
// as \uXXXX, so nothing in a memory can drive the owner's terminal.

function describe(m: MemoryRecord): string {
  const state = m.state === 'live' ? '' : m.state === 'superseded' ? ` [superseded by ${m.supersededBy ?? '?'}]` : ' [forgotten]';
  return `#${m.id}  ${stamp(m.created)}  ${m.scope}  ${sanitize(m.project, 400)}  (${sanitize(m.source)})${state}`;
}

function oneLine(body: string, max = 100): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return sanitizeSource(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

function printJson(value: unknown): void {
  print(jsonWithoutInvisible(JSON.stringify(value, null, 2)));
}

export const memoryCommand: Command = {
  name: 'memory',
  summary: 'list, show, forget, restore, export or import agent memories',
  usage: USAGE,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === undefined) throw new UsageError('needs a subcommand: list, show, forget, restore, export or import');
    if (!['list', 'show', 'forget', 'restore', 'export', 'import'].includes(sub)) {
      throw new UsageError(`unknown subcommand '${sub}' (list, show, forget, restore, export, import)`);
    }
    const flags = parseFlags(rest);
    const store = await openMemoryBackend();
    try {
      switch (sub) {
        case 'list': {
          if (flags.positional.length) throw new UsageError(`unexpected argument '${flags.positional[0]}'`);
          const project = flags.all ? undefined : resolveProject(flags.project === undefined ? undefined : resolve(flags.project)).path;
          const items = await store.list({ project, all: flags.all, limit: flags.limit ?? 100 });
          if (flags.json) printJson(items);
          else if (items.length === 0) print(project ? `No memories for ${sanitize(project, 400)}.` : 'No memories.');
          else print(items.map((m) => `${describe(m)}\n    ${oneLine(m.body)}`).join('\n'));
          return 0;
        }
        case 'show': {
          const { memory, history } = await store.show(parseId(flags.positional[0], 'show'));
          if (flags.json) printJson({ memory, history });
          else {
            const lines = [describe(memory), '', sanitizeSourceText(memory.body), ''];
            if (history.length === 0) lines.push('No other versions.');
            else {
              lines.push('History:');
              for (const h of history) lines.push(`  ${describe(h)}`, `      ${oneLine(h.body)}`);
            }
            print(lines.join('\n'));
          }
          return 0;
        }
        case 'forget': {
          const m = await store.forget(parseId(flags.positional[0], 'forget'));
          print(`Forgot memory ${m.id}; tools no longer return it (synaptic memory restore ${m.id} brings it back).`);
          return 0;
        }
        case 'restore': {
          const m = await store.restore(parseId(flags.positional[0], 'restore'));
          print(`Memory ${m.id} is live again.`);
          return 0;
        }
        case 'export': {
          for await (const m of store.exportAll()) process.stdout.write(`${jsonWithoutInvisible(JSON.stringify(m))}\n`);
          return 0;
        }
        case 'import': {
          const file = flags.positional[0];
          const text = readFileSync(file === undefined || file === '-' ? 0 : file, 'utf8');
          const records = parseRecords(text);
          const { imported, skipped } = await store.importRecords(records);
          print(`Imported ${imported} memories${skipped ? `, skipped ${skipped} already present` : ''}.`);
          return 0;
        }
        default:
          throw new UsageError(`unknown subcommand '${sub}' (list, show, forget, restore, export, import)`);
      }
    } finally {
      await store.close();
    }
  },
};

/** Parses `memory export` output (JSON lines, or one JSON array), checking each record's shape. */
export function parseRecords(text: string): MemoryRecord[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const raw: unknown[] = trimmed.startsWith('[') ? JSON.parse(trimmed) : trimmed.split('\n').filter((l) => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l);
    } catch {
      throw new RangeError(`Cannot import: line ${i + 1} is not JSON`);
    }
  });
  return raw.map((r, i) => {
    const m = r as Partial<MemoryRecord>;
    const ok =
      typeof m.id === 'number' && typeof m.body === 'string' && typeof m.source === 'string' && (m.scope === 'global' || m.scope === 'project') &&
      typeof m.project === 'string' && typeof m.created === 'number' && (m.state === undefined || ['live', 'superseded', 'forgotten'].includes(m.state));
    if (!ok) throw new RangeError(`Cannot import: record ${i + 1} is not a memory (needs id, body, source, scope, project, created)`);
    return { state: 'live', supersededBy: null, changed: m.created, ...m } as MemoryRecord;
  });
}
