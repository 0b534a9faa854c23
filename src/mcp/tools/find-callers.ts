import type { ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { listingInput, runListing } from './listing.ts';

/** find_callers: find callers. */
export function createFindCallersTool(ctx: GraphToolContext): ToolDefinition<typeof listingInput> {
  return {
    name: 'find_callers',
    title: 'Find callers',
    description:
      'Who calls X: the nodes that call, use or reference a symbol, with the total and a per-relation breakdown; for a class, its members\' callers too.',
    inputSchema: listingInput,
    annotations: READ_ONLY,
    handler: (args) => runListing(ctx, args, 'callers'),
  };
}
