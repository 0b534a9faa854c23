import { z } from 'zod';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { communityPage } from '../resources.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({
  community_id: z.number().int().describe('The community id.'),
  offset: z.number().int().min(0).optional().describe('Members to skip.'),
  limit: z.number().int().min(1).optional().describe('Members per page.'),
});

/** get_community: one page of a community's members. */
export function createGetCommunityTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'get_community',
    title: 'Get community members',
    description:
      'The members of a community (a cluster of tightly connected code), highest degree first, a page at a time.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      const page = communityPage(engine, args.community_id, args.offset ?? 0, args.limit ?? ctx.defaults.communityLimit);
      if (!page.found) {
        const ids = [...engine.ix.communities.keys()].sort((a, b) => a - b);
        return toolResult(`${page.text}${ids.length ? ` (communities: ${ids.length ? `${ids[0]}..${ids[ids.length - 1]}` : 'none'})` : ' (this graph has no communities)'}`);
      }
      return toolResult(page.text);
    },
  };
}
