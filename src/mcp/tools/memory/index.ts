import type { ToolDefinition, ToolProvider } from '../../tool.ts';
import { createMemoryContext } from './context.ts';
import { readMemoryTool } from './readmemory.ts';
import { recallTool } from './recall.ts';
import { rememberTool } from './remember.ts';

export { rememberTool } from './remember.ts';
export { recallTool } from './recall.ts';
export { readMemoryTool } from './readmemory.ts';
export { createMemoryContext, memoryResult, type MemoryToolContext } from './context.ts';

/**
 * The agent-memory tools (`remember`, `recall`, `readmemory`) over the configured backend (SQLite, or
 * PostgreSQL in team mode). It opens (the SQLite store takes the shared lifecycle lock) when the provider
 * is created and closes with it; if it cannot open, each call retries and reports why.
 */
export function createMemoryTools(options: { cwd: string; env?: NodeJS.ProcessEnv; dir?: string }): ToolProvider {
  const ctx = createMemoryContext(options);
  const tools = [rememberTool(ctx), recallTool(ctx), readMemoryTool(ctx)] as unknown as ToolDefinition[];
  return {
    tools: () => tools,
    close: () => ctx.close(),
  };
}
