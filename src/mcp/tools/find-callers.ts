import type { ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { listingInput, runListing } from './listing.ts';

/** find_callers: find callers. */
export function createFindCallersTool(ctx: GraphToolContext): ToolDefinition<typeof listingInput> {
  return {
    name: 'find_callers',
    title: 'Find callers',
    description:
      'Who calls X: the nodes that call, use or reference this symbol (incoming call-like edges). The header carries the true total and a per-relation breakdown; for a class the external callers of its members are folded in. Zero results mean no static caller, not dead code (see dynamic_hazards).',
    inputSchema: listingInput,
    annotations: READ_ONLY,
    handler: (args) => runListing(ctx, args, 'callers'),
  };
}
