import { z } from 'zod';
import { sanitize } from '../../query/sanitize.ts';
import { globToRegExp } from '../../query/source.node.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';

const input = z.object({
  repo: z.string().optional().describe('Only this federated member.'),
  path_glob: z.string().optional().describe('Only files matching this glob.'),
  kind: z.enum(['reflection', 'dynamic_import', 'eval']).optional(),
  target: z.string().optional().describe('Only sites that could reach this symbol.'),
  max_results: z.number().int().min(1).max(1000).optional().describe('Sites before the list is cut.'),
});
const output = z.looseObject({
  total: z.number(),
  truncated: z.boolean(),
  sites: z.array(z.looseObject({ repo: z.string().optional(), file: z.string(), line: z.number(), kind: z.string(), key: z.string().optional(), host: z.string() })),
});

/** dynamic_hazards: reflection / dynamic-dispatch sites static analysis cannot follow. */
export function createDynamicHazardsTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'dynamic_hazards',
    title: 'Dynamic-dispatch hazards',
    description:
      'The reflection and dynamic-dispatch sites (by-name lookups, eval, dynamic import()) the graph records: a symbol reached only this way has no static dependent, so check here before reading 0 callers as dead code.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      let sites = engine.dynamicSites();
      if (args.repo) sites = sites.filter((s) => s.repo === args.repo);
      if (args.kind) sites = sites.filter((s) => s.kind === args.kind);
      if (args.path_glob) {
        const re = globToRegExp(args.path_glob);
        sites = sites.filter((s) => re.test(s.file));
      }
      if (args.target) {
        const t = engine.resolve(args.target);
        if (t.status === 'found') {
          // The scope the dynamic_caveat of get_node / affected / describe_node names.
          const scope = engine.dynamicScope(t.node);
          const reach = new Set([...scope.keyed, ...scope.inFile]);
          sites = sites.filter((s) => reach.has(s));
        } else sites = sites.filter((s) => s.key !== undefined && s.key === args.target);
      }
      const max = args.max_results ?? ctx.defaults.hazardLimit;
      const shown = sites.slice(0, max).map((s) => ({
        ...(s.repo !== undefined ? { repo: sanitize(s.repo) } : {}),
        file: sanitize(s.file),
        line: s.line,
        kind: s.kind,
        ...(s.key !== undefined ? { key: sanitize(s.key) } : {}),
        host: sanitize(s.host),
      }));
      const all = engine.dynamicSites().length;
      const lines = [`${sites.length} dynamic-dispatch site(s)${sites.length !== all ? ` (of ${all})` : ''}:`];
      for (const s of shown) lines.push(`  ${s.repo ? `[${s.repo}] ` : ''}${s.file}:${s.line} ${s.kind} ${s.key !== undefined ? `"${s.key}"` : '(opaque)'} in ${s.host}`);
      if (sites.length > shown.length) lines.push(`  +${sites.length - shown.length} more (narrow with repo / path_glob / kind / target)`);
      if (!sites.length) lines.push(all ? '  (none match the filters)' : '  (the extractor recorded no reflection, eval or dynamic import sites)');
      return toolResult(lines.join('\n'), { total: sites.length, truncated: sites.length > shown.length, sites: shown });
    },
  };
}
