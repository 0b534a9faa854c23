import type { ToolDefinition, ToolProvider } from '../../tool.ts';
import type { GraphToolContext } from '../context.ts';
import { createIgraphExploreTool } from './explore.ts';
import { createIgraphFileTool } from './file.ts';
import { createIgraphNodeTool } from './node.ts';
import { createIgraphRelatedTool } from './related.ts';

/** The igraph-compatible tools (`serve --profile igraph`). */
export function createIgraphTools(ctx: GraphToolContext): ToolProvider {
  const tools = [createIgraphExploreTool(ctx), createIgraphNodeTool(ctx), createIgraphFileTool(ctx), createIgraphRelatedTool(ctx)] as ToolDefinition[];
  return { tools: () => tools };
}
