import type { ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { listingInput, runListing } from './listing.ts';

/** find_references: find references. */
export function createFindReferencesTool(ctx: GraphToolContext): ToolDefinition<typeof listingInput> {
  return {
    name: 'find_references',
    title: 'Find references',
    description:
      'Where is X used: every incoming edge but ownership (calls, imports, inheritance, type uses, cross-language, dynamic_ref), for types, interfaces, enums and constants; members are not folded in.',
    inputSchema: listingInput,
    annotations: READ_ONLY,
    handler: (args) => runListing(ctx, args, 'references'),
  };
}
