import { jsonWithoutInvisible, sanitize } from '../../../graph/sanitize.ts';
import type { MemoryBackend } from '../../../memory/backend.ts';
import { openMemoryBackend } from '../../../memory/database.ts';
import { resolveProject } from '../../../memory/project.ts';
import type { ToolResult } from '../../tool.ts';

/** What the memory tools share: the backend (opened once per server) and how to resolve a project. */
export interface MemoryToolContext {
  /** The open backend; rejects with the reason when it cannot be opened (retried on each call). */
  store(): Promise<MemoryBackend>;
  /** The project a call is about: argument, SYNAPTIC_PROJECT_DIR, then the server's working directory. */
  project(argument: string | undefined): string;
}

export function createMemoryContext(options: { cwd: string; env?: NodeJS.ProcessEnv; dir?: string }): MemoryToolContext & { close(): Promise<void> } {
  const env = options.env ?? process.env;
  let opening: Promise<MemoryBackend> | null = null;
  const open = (): Promise<MemoryBackend> => {
    opening ??= openMemoryBackend({ env, dir: options.dir }).catch((err: unknown) => {
      opening = null; // the next call tries again (a database that was down may be back)
      throw err;
    });
    return opening;
  };
  // Hold the shared lifecycle lock (or the team connection) from server start, not from the first call.
  open().catch((err: unknown) => process.stderr.write(`synaptic: memory tools: ${(err as Error).message}\n`));
  return {
    store: open,
    project: (argument) => resolveProject(argument, env, options.cwd).path,
    async close() {
      const pending = opening;
      opening = null;
      if (pending) await (await pending.catch(() => null))?.close();
    },
  };
}

/**
 * A memory tool result: the spec's JSON exactly (text and structuredContent), plus a second text block
 * echoing the resolved project, so every response says which project's memory it used. The text's
 * JSON writes invisible characters as \uXXXX escapes (the same values, nothing raw for a terminal
 * or a model to act on).
 */
export function memoryResult(shape: object, project: string): ToolResult {
  return {
    content: [
      { type: 'text', text: jsonWithoutInvisible(JSON.stringify(shape)) },
      { type: 'text', text: `project: ${sanitize(project, 400)}` },
    ],
    structuredContent: shape as Record<string, unknown>,
  };
}

/** Runs a tool body; an error it throws keeps its message and class, with the resolved project appended. */
export async function echoProjectOnError<T>(project: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Error) err.message = `${err.message} (project: ${sanitize(project, 400)})`;
    throw err;
  }
}
