import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { coreTraversal } from '../query/core-traversal.ts';
import { realRoot } from '../query/source.node.ts';
import { LiveGraph } from '../mcp/live-graph.ts';
import type { ToolDefinition, ToolResult } from '../mcp/tool.ts';
import { NORMAL_DEFAULTS, type GraphToolContext } from '../mcp/tools/context.ts';
import { UsageError } from './command.ts';
import { defaultSourceRoot, findServeRoot } from './commands/serve.ts';

/**
 * The graph tools from the command line: `synaptic affected`, `predict`, `hazards` run the same tool
 * handler `synaptic serve` does (one implementation, two front ends) on the graph the server would
 * load, and print its text, or its structuredContent with --json.
 */

export interface CliGraph {
  ctx: GraphToolContext;
  close(): void;
}

/** The graph options every such command takes. */
export const GRAPH_OPTIONS = {
  graph: { type: 'string' },
  'source-root': { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const GRAPH_USAGE = `  --graph <path>        graph.json to read (default: synaptic-out/graph.json of this repository)
  --source-root <dir>   the repository (default: the directory above synaptic-out/)
  --json                print the structured result as JSON instead of text`;

/** Open the graph for one command: the same file and source root `synaptic serve` would use. */
export async function openCliGraph(values: { graph?: string; 'source-root'?: string }): Promise<CliGraph> {
  const graphPath = values.graph !== undefined
    ? resolve(values.graph.endsWith('.json') || values.graph.endsWith('.cbor') ? values.graph : join(values.graph, 'graph.json'))
    : join(findServeRoot(process.env.SYNAPTIC_PROJECT_DIR || process.cwd()), 'synaptic-out', 'graph.json');
  if (!existsSync(graphPath)) throw new UsageError(`no graph at ${graphPath}: run 'synaptic extract' in the repository first, or pass --graph <path>`);
  const sourceRoot = resolve(values['source-root'] ?? defaultSourceRoot(graphPath));
  const { Core } = await import('../core/index.ts');
  const live = await LiveGraph.open({ graphPath, traversal: coreTraversal(await Core.load()), watch: false, log: (line) => process.stderr.write(line + '\n') });
  const engine = live.engine;
  const ctx: GraphToolContext = { engine: async () => engine, sourceRoot: realRoot(sourceRoot), defaults: NORMAL_DEFAULTS, graphPath };
  return { ctx, close: () => live.close() };
}

/** Run one tool handler on arguments checked against its input schema (a bad one is a usage error). */
export async function runTool<T extends ToolDefinition>(tool: T, args: Record<string, unknown>): Promise<ToolResult> {
  const parsed = tool.inputSchema.safeParse(args);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; '));
  return tool.handler(parsed.data as never);
}

export function resultText(result: ToolResult): string {
  return result.content.map((c) => c.text).join('\n');
}

/** Print a tool's answer (text, or its structuredContent with --json); exit code 1 when it reports an error. */
export function printResult(result: ToolResult, json: boolean): number {
  const text = resultText(result);
  if (result.isError) {
    process.stderr.write(`${text}\n`);
    return 1;
  }
  process.stdout.write(json ? `${JSON.stringify(result.structuredContent ?? { text }, null, 2)}\n` : `${text}\n`);
  return 0;
}

/** Run one tool handler and print its answer; exit code 1 when the tool reports an error. */
export async function printTool<T extends ToolDefinition>(tool: T, args: Record<string, unknown>, json: boolean): Promise<number> {
  return printResult(await runTool(tool, args), json);
}

/** A positive integer option, or a usage error naming it. */
export function intOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} takes a positive integer, not '${value}'`);
  return Number(value);
}
