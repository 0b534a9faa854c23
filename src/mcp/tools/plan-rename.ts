import { z } from 'zod';
import { planRename, RenameInputError, type RenameSite } from '../../query/edit-plan/rename.ts';
import { bareName } from '../../query/tokens.ts';
import { sanitize } from '../../query/sanitize.ts';
import { readSourceText } from '../../query/source.node.ts';
import { toolError, toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { unresolvedText } from './format.ts';

const input = z.object({
  name: z.string().min(1).describe('The symbol to rename (name or node id).'),
  to: z.string().min(1).describe('The new name.'),
  id: z.string().optional().describe('Node id, when the name matches several symbols.'),
  file: z.string().optional().describe('File path substring, when the name matches several symbols.'),
  limit: z.number().int().min(1).optional().describe('Most sites per section (default 50).'),
  verbose: z.boolean().optional().describe('List every site.'),
});

/** plan_rename: a confidence-scored rename plan (edit sites with file:line:col, review sites); never edits. */
export function createPlanRenameTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'plan_rename',
    title: 'Plan a rename',
    description: 'Plan (never apply) a rename: every edit site as file:line:col old -> new with reason and confidence, plus lower-confidence sites to review. Check afterwards with `synaptic refactor verify`.',
    inputSchema: input,
    annotations: READ_ONLY,
    async handler(args) {
      const engine = await ctx.engine();
      let v: number;
      if (args.id !== undefined) {
        const byId = engine.ix.g.idOf.get(args.id);
        if (byId === undefined) return toolResult(`No node has the id '${sanitize(args.id, 400)}'.`);
        if (bareName(engine.ix.label(byId)) !== bareName(args.name) && engine.ix.node(byId).id !== args.name) {
          return toolError(`Cannot plan a rename: node '${sanitize(args.id, 400)}' is ${engine.safeLabel(byId)}, not '${sanitize(args.name)}'`);
        }
        v = byId;
      } else {
        const res = engine.resolve(args.file ? `${args.name}@${args.file}` : args.name);
        if (res.status !== 'found') return toolResult(unresolvedText(res));
        // A rename needs the symbol itself: a substring or file match is a guess.
        if (res.via === 'substring' || res.via === 'file') return toolResult(`No symbol named '${sanitize(args.name)}'${args.file ? ` in a file matching '${sanitize(args.file)}'` : ''} (closest: ${engine.safeQualified(res.node)}; pass its exact name).`);
        v = res.node;
      }
      if (!ctx.sourceRoot) return toolError('Cannot plan a rename: no source root configured (start the server with --source-root <dir>); the plan reads the source to find each column');
      const root = ctx.sourceRoot;
      let plan;
      try {
        plan = planRename(engine, v, args.to, (file) => readSourceText(root, file));
      } catch (err) {
        if (err instanceof RenameInputError) return toolError(sanitize(err.message, 600));
        throw err;
      }
      const limit = args.verbose ? Infinity : (args.limit ?? ctx.defaults.listLimit);
      const old = sanitize(plan.old);
      const to = sanitize(plan.to);
      const lines = [
        `Rename ${old} -> ${to} [${plan.confidence}], ${plan.edits.length} edit(s) across ${plan.files} file(s), ${plan.review.length} to review, ${plan.affected} affected`,
        `(${engine.safeQualified(v)}; columns are 1-based; ${plan.scanned} file(s) read${plan.unreadable.length ? `, ${plan.unreadable.length} unreadable: ${plan.unreadable.slice(0, 3).map((f) => sanitize(f)).join(', ')}` : ''})`,
      ];
      section(lines, 'Edits', plan.edits, limit);
      section(lines, 'Review', plan.review, limit);
      lines.push('After applying the edits, run `synaptic refactor verify ' + `${old} ${to}` + '` to check the graph.');
      return toolResult(lines.join('\n'));
    },
  };
}

function section(lines: string[], title: string, sites: RenameSite[], limit: number): void {
  lines.push(`${title} (${sites.length}):`);
  const shown = Math.min(limit, sites.length);
  for (let i = 0; i < shown; i++) lines.push(`  ${siteText(sites[i]!)}`);
  if (sites.length > shown) lines.push(`  +${sites.length - shown} more (pass verbose=true or a larger limit)`);
}

/** `src/a.ts:12:5 old -> new (call, 0.95)`; a site with no column: `src/a.ts:12 (reason, 0.30)`. */
export function siteText(s: RenameSite): string {
  const where = s.col > 0 ? `${sanitize(s.file)}:${s.line}:${s.col} ${sanitize(s.old)} -> ${sanitize(s.to)}` : `${sanitize(s.file)}:${s.line}`;
  return `${where} (${sanitize(s.reason, 400)}, ${s.confidence.toFixed(2)})`;
}
