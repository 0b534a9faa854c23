import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTextAtomic } from './files.ts';

/** One edit an install made to one file: exactly the text inserted, so uninstall can take it out. */
export interface InstallEdit {
  target: 'claude' | 'codex';
  /** Absolute path of the edited file. */
  file: string;
  /** What the edit adds (mcp, SessionStart, PreCompact). */
  what: string;
  /** The exact inserted text. */
  inserted: string;
  /** The file did not exist (or held only whitespace) before the install: its original text. */
  original: string | null;
  createdFile: boolean;
  /** Top-most folder the install created for the file, removed again when empty. */
  createdDir: string | null;
}

interface Manifest {
  version: 1;
  edits: InstallEdit[];
}

const FILE = 'installs.json';

export function readManifest(dir: string): InstallEdit[] {
  const file = join(dir, FILE);
  if (!existsSync(file)) return [];
  try {
    const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    return Array.isArray(m.edits) ? m.edits : [];
  } catch {
    return []; // a damaged manifest: uninstall falls back to finding the entries by shape
  }
}

export function writeManifest(dir: string, edits: InstallEdit[]): void {
  const body: Manifest = { version: 1, edits };
  writeTextAtomic(join(dir, FILE), `${JSON.stringify(body, null, 2)}\n`, 0o600);
}
