import type { ExportGraph } from './select.ts';

/**
 * NetworkX node-link JSON (the shape graph.json has: `networkx.node_link_graph(data, edges="links")`
 * reads it), one node or link per line so a large graph streams instead of being stringified whole.
 */
export function* nodeLinkChunks(g: ExportGraph): Generator<string> {
  yield `{"directed":true,"multigraph":true,"graph":${JSON.stringify(g.meta)},"nodes":[`;
  let first = true;
  for (const n of g.nodes) {
    yield `${first ? '' : ','}\n${JSON.stringify(n)}`;
    first = false;
  }
  yield '\n],"links":[';
  first = true;
  for (const l of g.links) {
    yield `${first ? '' : ','}\n${JSON.stringify(l)}`;
    first = false;
  }
  yield `\n],"hyperedges":[],"built_at_commit":${JSON.stringify(g.built_at_commit)}}\n`;
}
