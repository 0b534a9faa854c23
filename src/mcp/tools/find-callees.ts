import type { ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { listingInput, runListing } from './listing.ts';

/** find_callees: find callees. */
export function createFindCalleesTool(ctx: GraphToolContext): ToolDefinition<typeof listingInput> {
  return {
    name: 'find_callees',
    title: 'Find callees',
    description:
      'What does X call: the nodes a symbol calls, uses or references, with a per-relation breakdown; for a class, its members\' callees too.',
    inputSchema: listingInput,
    annotations: READ_ONLY,
    handler: (args) => runListing(ctx, args, 'callees'),
  };
}
