import type { QueryEngine } from '../../query/engine.ts';

/** Default list sizes; `--concise` / SYNAPTIC_CONCISE lowers them (an explicit argument always wins). */
export interface ToolDefaults {
  tokenBudget: number;
  listLimit: number;
  hazardLimit: number;
  communityLimit: number;
  topN: number;
  contextLines: number;
}

export const NORMAL_DEFAULTS: ToolDefaults = { tokenBudget: 1200, listLimit: 50, hazardLimit: 30, communityLimit: 100, topN: 10, contextLines: 40 };
export const CONCISE_DEFAULTS: ToolDefaults = { tokenBudget: 800, listLimit: 20, hazardLimit: 20, communityLimit: 40, topN: 6, contextLines: 25 };

/** What every graph tool gets: the current engine (reload-aware), the source jail and the defaults. */
export interface GraphToolContext {
  /** The engine to answer this call with; a call keeps it even if the graph reloads meanwhile. */
  engine(): Promise<QueryEngine>;
  /** Real path of the --source-root jail, or undefined when none could be derived. */
  sourceRoot: string | undefined;
  defaults: ToolDefaults;
  /** Path of the served graph.json (for the report resource and messages). */
  graphPath: string;
  /** Append one JSONL record per query_graph call (SYNAPTIC_QUERY_LOG), if configured. */
  logQuery?(record: Record<string, unknown>): void;
}

export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Read-only tools that shell out (git, gh) and so reach outside the graph (spec: annotations). */
export const OPEN_WORLD = { ...READ_ONLY, openWorldHint: true } as const;
