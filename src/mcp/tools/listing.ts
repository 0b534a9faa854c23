import { z } from 'zod';
import type { EdgeListing, QueryEngine } from '../../query/engine.ts';
import { sanitize } from '../../query/sanitize.ts';
import { lineReader } from '../../query/source.node.ts';
import { toolResult, type ToolResult } from '../tool.ts';
import type { GraphToolContext } from './context.ts';
import { breakdown, edgeLines, libraryFirst, nodeLine, siteLines, testFoldLine, unresolvedText } from './format.ts';

/** Input shared by find_callers / find_callees / find_references. */
export const listingInput = z.object({
  label: z.string().min(1).describe('The symbol or file.'),
  limit: z.number().int().min(1).optional().describe('Most entries listed.'),
  verbose: z.boolean().optional().describe('List all.'),
  show_sites: z.boolean().optional().describe("Add each site's source line."),
});

export type ListingArgs = z.infer<typeof listingInput>;

/** Run one caller/callee/reference listing and format it. */
export async function runListing(
  ctx: GraphToolContext,
  args: ListingArgs,
  kind: 'callers' | 'callees' | 'references',
): Promise<ToolResult> {
  const engine = await ctx.engine();
  const res = engine.resolve(args.label);
  if (res.status !== 'found') return toolResult(unresolvedText(res));
  const v = res.node;
  const listing: EdgeListing = kind === 'callers' ? engine.callers(v) : kind === 'callees' ? engine.callees(v) : engine.references(v);
  const limit = args.verbose ? Infinity : (args.limit ?? ctx.defaults.listLimit);
  const read = args.show_sites ? lineReader(ctx.sourceRoot) : undefined;
  const sites = read ? (h: { edge: number }) => siteLines(engine, read, h.edge) : undefined;
  const seed = sanitize(engine.ix.label(v));
  const noun = kind === 'callers' ? 'caller' : kind === 'callees' ? 'callee' : 'reference';
  const header = `${listing.hits.length} ${noun}(s) of ${seed}${listing.hits.length ? ` (${breakdown(listing.byRelation)})` : ''}:`;
  const lines: string[] = [];
  if (listing.foldedMembers) {
    lines.push(
      kind === 'callers'
        ? `${seed} is a ${sanitize(engine.ix.node(v).kind, 30)} with ${listing.foldedMembers} members; external callers of its members are folded in (a class's callers attach to its methods).`
        : `${seed} is a ${sanitize(engine.ix.node(v).kind, 30)} with ${listing.foldedMembers} members; the callees of its members are folded in (a class doesn't call; its methods do).`,
    );
  }
  lines.push(header);
  if (!listing.hits.length) lines.push(emptyReason(engine, v, kind));
  else if (kind === 'callees') lines.push(...edgeLines(engine, listing.hits, limit, sites).lines);
  else {
    // Library callers first; test callers fold into a count per file unless verbose lists them all.
    const { library, tests, fold } = libraryFirst(engine, listing.hits);
    if (args.verbose) lines.push(...edgeLines(engine, [...library, ...tests], Infinity, sites).lines);
    else {
      if (library.length) lines.push(...edgeLines(engine, library, limit, sites).lines);
      if (fold.count) lines.push(testFoldLine(fold, 'verbose=true lists them'));
    }
  }
  return toolResult(lines.join('\n'));
}

function emptyReason(engine: QueryEngine, v: number, kind: 'callers' | 'callees' | 'references'): string {
  if (kind === 'callees') {
    const unresolved = Number(engine.doc.graph?.unresolved_calls?.[String(engine.ix.node(v).source_file ?? '')] ?? 0);
    return unresolved
      ? `  (no resolved callees; ${unresolved} call site(s) in ${sanitize(engine.ix.node(v).source_file)} could not be resolved statically)`
      : '  (no outgoing call/use/reference edges in the graph)';
  }
  const caveat = engine.dynamicCaveat(v);
  return `  (no static ${kind === 'callers' ? 'caller' : 'reference'} found${caveat ? `; ${caveat}` : '; an entry point, test, or a symbol reached only at run time can have none'})`;
}

export { nodeLine };
