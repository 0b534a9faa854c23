import type { GraphNode } from '../model.ts';
import type { ExportGraph } from './select.ts';

/**
 * Graphviz DOT: every id a quoted string, labels escaped (quotes, backslashes, line breaks), and
 * optionally one `cluster_<n>` subgraph per community so `dot` draws the communities as boxes.
 */

/** A DOT quoted string: `"` and `\` escaped, line breaks as DOT's `\n`, other controls as visible `\uXXXX` text. */
export function dotString(s: string): string {
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\r\n|\n|\r/g, '\\n')
    .replace(/[\p{Cc}\p{Cs}\uFFFE\uFFFF]/gu, (c) => `\\\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  return `"${body}"`;
}

export interface DotOptions {
  /** Group nodes into one cluster per community (nodes without one stay at the top level). */
  clusters?: boolean;
}

function nodeLine(n: GraphNode, indent: string): string {
  const tip = `${n.kind} ${n.source_file}:${n.source_location.replace(/^L/, '')}`;
  return `${indent}${dotString(n.id)} [label=${dotString(n.label ?? n.id)}, tooltip=${dotString(tip)}, kind=${dotString(n.kind ?? '')}];\n`;
}

export function* dotChunks(g: ExportGraph, opts: DotOptions = {}): Generator<string> {
  yield `digraph ${dotString(g.name)} {\n  graph [rankdir=LR];\n  node [shape=box, fontsize=10];\n`;
  if (opts.clusters) {
    const byCommunity = new Map<number, GraphNode[]>();
    for (const n of g.nodes) {
      if (typeof n.community === 'number' && Number.isInteger(n.community)) {
        let list = byCommunity.get(n.community);
        if (!list) byCommunity.set(n.community, (list = []));
        list.push(n);
      } else yield nodeLine(n, '  ');
    }
    const names = (g.meta.community_labels ?? {}) as Record<string, string>;
    for (const [c, members] of [...byCommunity].sort((a, b) => a[0] - b[0])) {
      yield `  subgraph ${dotString(`cluster_${c}`)} {\n    label=${dotString(names[String(c)] ?? `community ${c}`)};\n`;
      for (const n of members) yield nodeLine(n, '    ');
      yield '  }\n';
    }
  } else {
    for (const n of g.nodes) yield nodeLine(n, '  ');
  }
  for (const l of g.links) {
    yield `  ${dotString(l.source)} -> ${dotString(l.target)} [label=${dotString(l.relation)}, relation=${dotString(l.relation)}];\n`;
  }
  yield '}\n';
}
