import type { NodeId } from '../../../graph/model.ts';
import type { QueryEngine } from '../../../query/engine.ts';
import { lineOf } from '../../../query/engine.ts';
import { sanitize } from '../../../query/sanitize.ts';
import { bareName } from '../../../query/tokens.ts';
import { toolResult, type ToolResult } from '../../tool.ts';

/** igraph's NodeBrief view of a node. */
export interface NodeBrief {
  nodeId: number;
  name: string;
  kind: string;
  filePath: string;
  startLine: number;
  endLine: number;
}

export function brief(engine: QueryEngine, v: NodeId): NodeBrief {
  const node = engine.ix.node(v);
  const start = node.span?.start_line ?? lineOf(node.source_location);
  return {
    nodeId: v,
    name: sanitize(node.kind === 'file' ? engine.ix.label(v) : bareName(engine.ix.label(v)) || engine.ix.label(v)),
    kind: sanitize(node.kind ?? 'unknown', 30),
    filePath: sanitize(node.source_file ?? ''),
    startLine: start,
    endLine: node.span?.end_line ?? start,
  };
}

/** igraph tools answer with the JSON document as text, mirrored as structuredContent. */
export function jsonResult(doc: Record<string, unknown>): ToolResult {
  return toolResult(JSON.stringify(doc, null, 2), doc);
}

/** Nodes named `name` (bare name or label, case-sensitive first, then case-insensitive), optionally in a file. */
export function nodesNamed(engine: QueryEngine, name: string, file?: string): NodeId[] {
  const lower = name.toLowerCase();
  let ids = [...new Set([...(engine.ix.byBare.get(lower) ?? []), ...(engine.ix.byLabel.get(lower) ?? [])])];
  if (!ids.length) {
    const r = engine.resolve(name);
    if (r.status === 'found') ids = [r.node];
    else if (r.status === 'ambiguous') ids = r.candidates.map((c) => engine.ix.g.idOf.get(c.id)!).filter((v) => v !== undefined);
  }
  if (file) {
    const f = file.replace(/^\.\//, '');
    ids = ids.filter((v) => String(engine.ix.node(v).source_file ?? '').includes(f));
  }
  const exact = ids.filter((v) => bareName(engine.ix.label(v)) === name || engine.ix.label(v) === name);
  const out = exact.length ? exact : ids;
  return out.sort((a, b) => engine.ix.degree[b]! - engine.ix.degree[a]! || a - b);
}
