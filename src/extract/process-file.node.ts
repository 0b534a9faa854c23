import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FileFacts } from './facts.ts';
import { extractFileFacts } from './file-facts.ts';
import type { LanguageId } from './languages.ts';
import { classifyContent } from './walk.node.ts';
import { sqlSettingFor } from './sql/dialect-project.node.ts';

/** One file to extract (what the pipeline sends to a worker). */
export interface FileTask {
  path: string;
  abs: string;
  language: LanguageId;
  /** Size from the walk (for scheduling only). */
  size?: number;
  /** Hash from the previous run: when the content still has it, the worker skips parsing. */
  knownHash?: string;
}

/** What came of one file. Exactly one of `facts`, `error`, `skip`, `unchanged` describes it. */
export interface FileResult {
  path: string;
  hash: string;
  size: number;
  lines: number;
  facts?: FileFacts;
  error?: string;
  skip?: string;
  /** The content hash equals `knownHash`: the cached facts still hold. */
  unchanged?: boolean;
}

/** Read, classify, hash and parse one file. Never throws: failures come back as `error`. */
export async function processFile(task: FileTask): Promise<FileResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(task.abs);
  } catch (err) {
    return { path: task.path, hash: '', size: 0, lines: 0, error: `Cannot read file: ${messageOf(err)}` };
  }
  const hash = 'sha256:' + createHash('sha256').update(bytes).digest('hex');
  const size = bytes.length;
  if (task.knownHash === hash) return { path: task.path, hash, size, lines: 0, unchanged: true };
  const skip = classifyContent(bytes);
  if (skip) return { path: task.path, hash, size, lines: 0, skip };
  let source = bytes.toString('utf8');
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  const lines = countLines(source);
  try {
    const sqlDialect = sqlSettingFor(task.abs.endsWith(task.path) ? task.abs.slice(0, task.abs.length - task.path.length) : task.abs);
    const facts = await extractFileFacts({ path: task.path, source, language: task.language, ...(sqlDialect ? { sqlDialect } : {}) });
    return { path: task.path, hash, size, lines, facts };
  } catch (err) {
    return { path: task.path, hash, size, lines, error: messageOf(err) };
  }
}

function countLines(source: string): number {
  if (source.length === 0) return 0;
  let n = 1;
  let i = -1;
  while ((i = source.indexOf('\n', i + 1)) !== -1) n++;
  return source.endsWith('\n') ? n - 1 : n;
}

function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.slice(0, 300) || 'unknown error';
}
