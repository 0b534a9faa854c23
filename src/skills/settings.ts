import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir, ensureDataDir, writeFileAtomic, type Env } from './paths.ts';

/** Owner settings kept in `settings.json` under the data directory. Unknown keys are preserved. */
export interface Settings {
  /** Self-improvement: `teach` and `revise` are served while true. */
  learn: boolean;
}

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
  return { learn: readRaw(env).learn === true };
}

/** Sets `learn`, keeping every other key in the file. */
export function setLearn(on: boolean, env: Env = process.env): Settings {
  ensureDataDir(env);
  const doc = readRaw(env);
  doc.learn = on;
  writeFileAtomic(settingsFile(env), JSON.stringify(doc, null, 2) + '\n');
  return readSettings(env);
}
