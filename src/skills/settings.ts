import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, ensureDataDir, writeFileAtomic, type Env } from './paths.ts';

/** Owner settings kept in `settings.json` under the data directory. Unknown keys are preserved. */
export interface Settings {
  /** Self-improvement: `teach` and `revise` are served while true. */
  learn: boolean;
  /** The agent mesh: its tools and guidance are served while true. */
  mesh: boolean;
  /** Whether mesh sessions may start the configured workers (off unless the owner turns it on). */
  workers: boolean;
  /** Configured workers by name: an argv ("{prompt}" is replaced by the prompt) and a time limit. */
  workerCommands: Record<string, WorkerCommand>;
}

/** A background worker the owner configured (`synaptic settings worker NAME -- COMMAND...`). */
export interface WorkerCommand {
  command: string[];
  limitSeconds: number;
}

/** A worker's time limit when the owner names none. */
export const DEFAULT_WORKER_LIMIT_SECONDS = 600;

/** Path of the settings file. */
export function settingsFile(env: Env = process.env): string {
  return join(dataDir(env), 'settings.json');
}

function readRaw(env: Env): Record<string, unknown> {
  const file = settingsFile(env);
  if (!existsSync(file)) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new Error(`Cannot read ${file}: it is not valid JSON (fix or delete it)`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`Cannot read ${file}: it is not a JSON object`);
  return doc as Record<string, unknown>;
}

/** The current settings (defaults when the file does not exist). */
export function readSettings(env: Env = process.env): Settings {
  const raw = readRaw(env);
  return { learn: raw.learn === true, mesh: raw.mesh === true, workers: raw.workers === true, workerCommands: workerCommandsOf(raw.workerCommands) };
}

/** The well-formed entries of `workerCommands` (a hand-edited bad entry is left out, not fatal). */
function workerCommandsOf(value: unknown): Record<string, WorkerCommand> {
  const out: Record<string, WorkerCommand> = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const e = entry as { command?: unknown; limitSeconds?: unknown } | null;
    if (!e || !Array.isArray(e.command) || e.command.length === 0 || !e.command.every((a) => typeof a === 'string')) continue;
    const limit = typeof e.limitSeconds === 'number' && e.limitSeconds > 0 ? e.limitSeconds : DEFAULT_WORKER_LIMIT_SECONDS;
    out[name] = { command: e.command as string[], limitSeconds: limit };
  }
  return out;
}

function update(env: Env, change: (doc: Record<string, unknown>) => void): Settings {
  ensureDataDir(env);
  const doc = readRaw(env);
  change(doc);
  writeFileAtomic(settingsFile(env), JSON.stringify(doc, null, 2) + '\n');
  return readSettings(env);
}

/** Sets `learn`, keeping every other key in the file. */
export function setLearn(on: boolean, env: Env = process.env): Settings {
  return update(env, (doc) => void (doc.learn = on));
}

/** Sets a switch (`learn`, `mesh`, `workers`), keeping every other key in the file. */
export function setSwitch(key: 'learn' | 'mesh' | 'workers', on: boolean, env: Env = process.env): Settings {
  return update(env, (doc) => void (doc[key] = on));
}

/** Adds or replaces (a command) or removes (null) a configured worker. */
export function setWorkerCommand(name: string, command: WorkerCommand | null, env: Env = process.env): Settings {
  return update(env, (doc) => {
    const all = doc.workerCommands && typeof doc.workerCommands === 'object' && !Array.isArray(doc.workerCommands) ? (doc.workerCommands as Record<string, unknown>) : {};
    if (command) all[name] = command;
    else delete all[name];
    doc.workerCommands = all;
  });
}
