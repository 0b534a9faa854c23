import { join } from 'node:path';
import { readText, writeTextAtomic } from './files.ts';

/** The line install offers for the repository's .gitignore: the graph is build output. */
export const OUTPUT_IGNORE = 'synaptic-out/';

/** `.gitignore` text has a line that ignores the top-level synaptic-out folder. */
export function gitignoreCoversOutput(text: string | null): boolean {
  if (text === null) return false;
  return text.split(/\r?\n/).some((line) => /^\/?synaptic-out(?:\/|\/\*\*?)?\s*$/.test(line));
}

/** Appends `synaptic-out/` to `<project>/.gitignore` (created when missing), keeping its line endings. */
export function addOutputToGitignore(project: string): { file: string; created: boolean } {
  const file = join(project, '.gitignore');
  const text = readText(file);
  const eol = text?.includes('\r\n') ? '\r\n' : '\n';
  const sep = text === null || text === '' || text.endsWith('\n') ? '' : eol;
  writeTextAtomic(file, `${text ?? ''}${sep}${OUTPUT_IGNORE}${eol}`);
  return { file, created: text === null };
}
