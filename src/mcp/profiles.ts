import type { ToolProvider } from './tool.ts';
import { MESH_TOOLS } from './tools/mesh/guidance.ts';

/** `serve --profile`: igraph adds the igraph-compatible tools; lean serves only the most used ones. */
export type ServeProfile = 'igraph' | 'lean';

export const PROFILES: readonly ServeProfile[] = ['igraph', 'lean'];

/**
 * What `--profile lean` keeps: the tools a coding session uses most (find, read, who calls, what
 * breaks, text search) and the three memory tools the session hooks ask for (recall, readmemory,
 * remember). Every tool definition costs context in every session; these ten cover most questions,
 * and the instructions name the rest.
 */
export const LEAN_TOOLS: ReadonlySet<string> = new Set([
  'query_graph',
  'get_source',
  'get_node',
  'get_neighbors',
  'find_callers',
  'affected',
  'search_text',
  'recall',
  'readmemory',
  'remember',
]);

/** Tools the owner switches on (`synaptic settings learn on`, `mesh on`): a profile never hides what the owner asked for. */
const OWNER_ENABLED: ReadonlySet<string> = new Set(['teach', 'revise', ...MESH_TOOLS]);

function keptByLean(name: string): boolean {
  return LEAN_TOOLS.has(name) || OWNER_ENABLED.has(name);
}

/** The providers as `--profile lean` serves them, and the tool names it leaves out (at start). */
export function leanProviders(providers: ToolProvider[]): { providers: ToolProvider[]; hidden: string[] } {
  const hidden = providers.flatMap((p) => p.tools().map((t) => t.name)).filter((name) => !keptByLean(name));
  const lean = providers.map((p): ToolProvider => ({
    tools: () => p.tools().filter((t) => keptByLean(t.name)),
    ...(p.onToolsChanged ? { onToolsChanged: (listener: () => void) => p.onToolsChanged!(listener) } : {}),
    ...(p.close ? { close: () => p.close!() } : {}),
  }));
  return { providers: lean, hidden };
}
