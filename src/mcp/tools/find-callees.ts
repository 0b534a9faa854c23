import type { ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { listingInput, runListing } from './listing.ts';

/** find_callees: find callees. */
export function createFindCalleesTool(ctx: GraphToolContext): ToolDefinition<typeof listingInput> {
  return {
    name: 'find_callees',
    title: 'Find callees',
    description:
      'What does X call: the nodes this symbol calls, uses or references (outgoing call-like edges), with a per-relation breakdown; for a class the callees of its members are folded in. Pass show_sites=true to see each call line.',
    inputSchema: listingInput,
    annotations: READ_ONLY,
    handler: (args) => runListing(ctx, args, 'callees'),
  };
}
