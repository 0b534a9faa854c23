import { jsonWithoutInvisible, sanitize } from '../../../graph/sanitize.ts';
import { MemoryStore } from '../../../memory/store.ts';
import { resolveProject } from '../../../memory/project.ts';
import type { ToolResult } from '../../tool.ts';

/** What the memory tools share: the store (opened once per server) and how to resolve a project. */
export interface MemoryToolContext {
  /** The open store; throws the reason when the database cannot be opened (retried on each call). */
  store(): MemoryStore;
  /** The project a call is about: argument, SYNAPTIC_PROJECT_DIR, then the server's working directory. */
  project(argument: string | undefined): string;
}

export function createMemoryContext(options: { cwd: string; env?: NodeJS.ProcessEnv; dir?: string }): MemoryToolContext & { close(): void } {
  const env = options.env ?? process.env;
  let store: MemoryStore | null = null;
  const open = (): MemoryStore => {
    store ??= MemoryStore.open({ env, dir: options.dir });
    return store;
  };
  try {
    open(); // hold the shared lifecycle lock from server start, not from the first call
  } catch (err) {
    process.stderr.write(`synaptic: memory tools: ${(err as Error).message}\n`);
  }
  return {
    store: open,
    project: (argument) => resolveProject(argument, env, options.cwd).path,
    close() {
      store?.close();
      store = null;
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
export function echoProjectOnError<T>(project: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Error) err.message = `${err.message} (project: ${sanitize(project, 400)})`;
    throw err;
  }
}
