import { z } from 'zod';
import { sanitize } from '../../query/sanitize.ts';
import { toolResult, type ToolDefinition } from '../tool.ts';
import { READ_ONLY, type GraphToolContext } from './context.ts';
import { paramsText, signatureObject } from './signature.ts';
import { sanitizedCandidates, similarNames, unresolvedText } from './format.ts';

const input = z.object({ label: z.string().min(1).describe('The symbol or file.') });
const output = z.looseObject({
  found: z.boolean(),
  id: z.string().optional(),
  label: z.string().optional(),
  source_file: z.string().optional(),
  file_type: z.string().optional(),
  degree: z.number().optional(),
  community: z.number().optional(),
  kind: z.string().optional(),
  visibility: z.string().optional(),
  loc: z.number().optional(),
  signature: z.looseObject({}).nullable().optional(),
  dynamic_caveat: z.string().optional(),
  ambiguous: z.boolean().optional(),
  candidates: z.array(z.looseObject({})).optional(),
});

/** Text and structured metadata of one node (shared with the synaptic://node/{label} template). */
export function describeNodeMetadata(engine: import('../../query/engine.ts').QueryEngine, label: string): { text: string; structured: Record<string, unknown> } {
  const res = engine.resolve(label);
  if (res.status === 'not_found') return { text: `No node matches '${sanitize(label)}'${res.similar?.length ? `.${similarNames(res)}` : ''}`, structured: { found: false } };
  if (res.status === 'ambiguous') return { text: unresolvedText(res), structured: { found: false, ambiguous: true, candidates: sanitizedCandidates(res.candidates) } };
  const v = res.node;
  const node = engine.ix.node(v);
  const structured: Record<string, unknown> = {
    found: true,
    id: sanitize(node.id, 400),
    label: sanitize(engine.ix.label(v)),
    source_file: sanitize(node.source_file ?? ''),
    file_type: sanitize(node.file_type ?? '', 30),
    degree: engine.ix.degree[v]!,
  };
  if (typeof node.community === 'number') structured.community = node.community;
  if (node.kind) structured.kind = sanitize(node.kind, 30);
  if (node.visibility) structured.visibility = sanitize(node.visibility, 30);
  const loc = node.span ? node.span.end_line - node.span.start_line + 1 : typeof node.loc === 'number' ? node.loc : undefined;
  if (loc !== undefined) structured.loc = loc;
  const lines = [
    `Node ${structured.label as string}`,
    `  id: ${structured.id as string}`,
    `  source: ${structured.source_file as string}${node.source_location ? ':' + sanitize(node.source_location, 20) : ''}`,
    `  type: ${structured.file_type as string}${node.kind ? ' / ' + (structured.kind as string) : ''}`,
    `  community: ${typeof node.community === 'number' ? node.community : '-'}`,
    `  degree: ${structured.degree as number} (in ${engine.ix.inOff[v + 1]! - engine.ix.inOff[v]!}, out ${engine.ix.outOff[v + 1]! - engine.ix.outOff[v]!})`,
  ];
  if (node.visibility) lines.push(`  visibility: ${structured.visibility as string}`);
  if (loc !== undefined) lines.push(`  loc: ${loc}`);
  if (node.signature?.raw) {
    lines.push(`  signature: ${sanitize(node.signature.raw, 300)}`);
    lines.push(`  params: ${paramsText(node.signature) || '(none)'}${node.signature.returns ? ` -> ${sanitize(node.signature.returns, 200)}` : ''}`);
    structured.signature = signatureObject(node.signature);
  }
  if (node.doc) lines.push(`  doc: ${sanitize(node.doc, 300)}`);
  if (engine.isDuplicateLabel(v)) lines.push(`  qualified: ${sanitize(engine.qualified(v), 400)}`);
  if (node.kind !== 'file' && !engine.hasStaticDependents(v)) {
    const caveat = engine.dynamicCaveat(v);
    if (caveat) {
      lines.push(`  dynamic_caveat: ${caveat}`);
      structured.dynamic_caveat = caveat;
    }
  }
  return { text: lines.join('\n'), structured };
}

/** get_node: a node's metadata and degree. */
export function createGetNodeTool(ctx: GraphToolContext): ToolDefinition<typeof input> {
  return {
    name: 'get_node',
    title: 'Get node metadata',
    description:
      "One node's metadata: id, file and line, kind, community, degree, visibility, LOC, signature and doc.",
    inputSchema: input,
    outputSchema: output,
    annotations: READ_ONLY,
    async handler({ label }) {
      const { text, structured } = describeNodeMetadata(await ctx.engine(), label);
      return toolResult(text, structured);
    },
  };
}
