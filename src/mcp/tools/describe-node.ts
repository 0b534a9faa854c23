import { z } from 'zod';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { sanitizedCandidates, similarNames, unresolvedText } from './format.ts';

const input = z.object({ label: z.string().min(1).describe('The symbol or file.') });
const output = z.looseObject({
  found: z.boolean(),
  id: z.string().optional(),
  label: z.string().optional(),
  kind: z.string().optional(),
  summary: z.string().optional(),
  callees: z.array(z.string()).optional(),
  signature: z.string().nullable().optional(),
  members: z.array(z.string()).optional(),
  member_count: z.number().optional(),
  dynamic_caveat: z.string().optional(),
  ambiguous: z.boolean().optional(),
  candidates: z.array(z.looseObject({})).optional(),
});

const MAX_CALLEES = 12;

/** describe_node: a compact "takes X, returns Y, calls Z" description from the graph. */
export function createDescribeNodeTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'describe_node',
    title: 'Describe a symbol',
    description:
      'A compact "takes X, returns Y, calls Z" summary of a symbol from its signature and call edges, without reading source; lists a class\'s members.',
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler({ label }) {
      const engine = await ctx.engine();
      const res = engine.resolve(label);
      if (res.status === 'not_found') return toolResult(`No node matches '${sanitize(label)}'.${similarNames(res)}`, { found: false });
      if (res.status === 'ambiguous') return toolResult(unresolvedText(res), { found: false, ambiguous: true, candidates: sanitizedCandidates(res.candidates) });
      const v = res.node;
      const node = engine.ix.node(v);
      const name = sanitize(engine.ix.label(v));
      const kind = sanitize(node.kind ?? 'symbol', 30);
      const sig = node.signature;
      const callees = engine.describeCallees(v).map((u) => sanitize(engine.ix.label(u)));
      const parts: string[] = [`${name} (${kind})`];
      if (sig) {
        const params = sig.params.map((p) => sanitize(`${p.name}${p.optional ? '?' : ''}${p.type ? `: ${p.type}` : ''}`, 80));
        parts.push(params.length ? `takes ${params.join(', ')}` : 'takes no parameters');
        if (sig.returns) parts.push(`returns ${sanitize(sig.returns, 80)}`);
      }
      if (callees.length) parts.push(`calls ${callees.slice(0, MAX_CALLEES).join(', ')}${callees.length > MAX_CALLEES ? ` and ${callees.length - MAX_CALLEES} more` : ''}`);
      const summary = parts.join(', ');
      const lines = [summary];
      if (node.doc) lines.push(`Doc: ${sanitize(node.doc, 300)}`);
      if (sig?.raw) lines.push(`Signature: ${sanitize(sig.raw, 300)}`);
      if (callees.length) lines.push(`Calls (${callees.length}): ${callees.join(', ')}`);
      const structured: Record<string, unknown> = {
        found: true,
        id: sanitize(node.id, 400),
        label: name,
        kind,
        summary,
        callees,
        signature: sig?.raw ? sanitize(sig.raw, 300) : null,
      };
      if (engine.ix.isType(v)) {
        const members = engine.ix.members(v).map((u) => sanitize(engine.ix.label(u)));
        lines.push(`Members (${members.length}): ${members.join(', ') || '(none)'}`);
        structured.members = members;
        structured.member_count = members.length;
      }
      // A symbol nothing depends on statically may still be reached by dynamic dispatch in its scope.
      if (node.kind !== 'file' && !engine.hasStaticDependents(v)) {
        const caveat = engine.dynamicCaveat(v);
        if (caveat) {
          lines.push(`Dynamic caveat: ${caveat}`);
          structured.dynamic_caveat = caveat;
        }
      }
      return toolResult(lines.join('\n'), structured);
    },
  };
}
