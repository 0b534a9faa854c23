import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_SURPRISES, surprisingConnections, whySurprising } from '../graph/surprises.ts';
import type { QueryEngine } from '../query/engine.ts';
import { sanitize, sanitizeProse, sanitizeRelation } from '../query/sanitize.ts';
import type { ResourceInfo, ResourceProvider, ResourceTemplateInfo } from './server.ts';
import { describeNodeMetadata } from './tools/get-node.ts';
import { godNodesPage } from './tools/god-nodes.ts';
import { statsText } from './tools/graph-stats.ts';

const RESOURCES: ResourceInfo[] = [
  { uri: 'synaptic://report', name: 'report', title: 'Graph report', description: 'GRAPH_REPORT.md next to the loaded graph (where to start reading, counts, god nodes, named communities, surprising connections, suggested questions).', mimeType: 'text/markdown' },
  { uri: 'synaptic://stats', name: 'stats', title: 'Graph statistics', description: 'The same content as graph_stats.', mimeType: 'text/plain' },
  { uri: 'synaptic://god-nodes', name: 'god-nodes', title: 'God nodes', description: 'The top 10 god nodes (most connected), with test reach.', mimeType: 'text/plain' },
  { uri: 'synaptic://surprises', name: 'surprises', title: 'Surprising connections', description: 'Links between communities that are otherwise barely connected, each with why (the list GRAPH_REPORT.md prints).', mimeType: 'text/plain' },
  { uri: 'synaptic://audit', name: 'audit', title: 'Edge-confidence audit', description: 'The edge-confidence breakdown, per relation.', mimeType: 'text/plain' },
  { uri: 'synaptic://questions', name: 'questions', title: 'Suggested questions', description: 'Questions worth asking this graph, from its hubs and communities.', mimeType: 'text/plain' },
];

const TEMPLATES: ResourceTemplateInfo[] = [
  { uriTemplate: 'synaptic://node/{label}', name: 'node', title: 'Node', description: 'Metadata for one node by label, id, or bare name (the same content as get_node).', mimeType: 'text/plain' },
  { uriTemplate: 'synaptic://community/{id}', name: 'community', title: 'Community', description: 'Members of one community by id.', mimeType: 'text/plain' },
];

/** Community label from the graph metadata, when extraction named it. */
export function communityLabel(engine: QueryEngine, id: number): string | undefined {
  const labels = engine.doc.graph?.community_labels;
  const l = labels?.[String(id)];
  return typeof l === 'string' ? sanitize(l) : undefined;
}

/** Surprising connections (graph/surprises.ts): the list GRAPH_REPORT.md prints, in the same order. */
export function surprises(engine: QueryEngine, limit = DEFAULT_SURPRISES): string {
  const ix = engine.ix;
  if (!ix.communities.size) return 'No communities in this graph (re-run synaptic extract to compute them).';
  const found = surprisingConnections(ix.g, ix.community, ix.edgeConf, { limit });
  if (!found.length) return 'No surprising connections: every pair of communities that link is about as connected as their links predict.';
  const name = (id: number): string => `${id} "${communityLabel(engine, id) ?? '?'}"`;
  const lines = [
    'Surprising connections (links between communities that are otherwise barely connected; imports, links from tests and links within a file left out):',
  ];
  for (const s of found) {
    const site = `${sanitize(ix.edgeSiteFile(s.edge), 400)}${ix.edgeLine[s.edge] ? `:L${ix.edgeLine[s.edge]}` : ''}`;
    lines.push(
      `  ${sanitize(engine.qualified(ix.g.src[s.edge]!), 400)} --${sanitizeRelation(ix.relName(s.edge))}--> ${sanitize(engine.qualified(ix.g.dst[s.edge]!), 400)}  (${site}): ${whySurprising(s, name)}`,
    );
  }
  return lines.join('\n');
}

/** Confidence breakdown per relation. */
export function audit(engine: QueryEngine): string {
  const ix = engine.ix;
  const per = new Map<string, { EXTRACTED: number; INFERRED: number; AMBIGUOUS: number }>();
  for (let e = 0; e < ix.m; e++) {
    const rel = sanitizeRelation(ix.relName(e));
    const c = ix.confidence(e);
    const row = per.get(rel) ?? { EXTRACTED: 0, INFERRED: 0, AMBIGUOUS: 0 };
    if (c === 'INFERRED') row.INFERRED++;
    else if (c === 'AMBIGUOUS') row.AMBIGUOUS++;
    else row.EXTRACTED++;
    per.set(rel, row);
  }
  const s = engine.stats();
  const lines = [`Edge confidence: ${s.extracted} EXTRACTED, ${s.inferred} INFERRED, ${s.ambiguous} AMBIGUOUS (of ${s.edges})`, 'By relation:'];
  for (const [rel, row] of [...per.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push(`  ${rel}: ${row.EXTRACTED} EXTRACTED, ${row.INFERRED} INFERRED, ${row.AMBIGUOUS} AMBIGUOUS`);
  }
  return lines.join('\n');
}

/** Suggested questions from the hubs and communities. */
export function questions(engine: QueryEngine): string {
  const hubs = engine.godNodes().slice(0, 5);
  const lines = ['Suggested questions for this graph:'];
  for (const v of hubs) {
    const l = sanitize(engine.qualified(v), 400);
    lines.push(`  - What depends on ${l}? (affected label="${l}")`);
    lines.push(`  - Who calls ${l}, and from where? (find_callers label="${l}" show_sites=true)`);
  }
  const comms = [...engine.ix.communities.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 3);
  for (const [id, members] of comms) {
    lines.push(`  - What does community ${id}${communityLabel(engine, id) ? ` (${communityLabel(engine, id)})` : ''} do? (${members.length} members; get_community community_id=${id})`);
  }
  if (engine.stats().dynamic_sites) lines.push('  - Which symbols are reached only dynamically? (dynamic_hazards)');
  return lines.join('\n');
}

/** Community members page (shared with get_community). */
export function communityPage(engine: QueryEngine, id: number, offset: number, limit: number): { text: string; found: boolean } {
  const members = engine.ix.communities.get(id);
  if (!members || !members.length) return { text: `No community ${id}`, found: false };
  const sorted = [...members].sort((a, b) => engine.ix.degree[b]! - engine.ix.degree[a]! || a - b);
  const page = sorted.slice(offset, offset + limit);
  const label = communityLabel(engine, id);
  const lines = [`Community ${id}${label ? ` (${label})` : ''} (showing ${page.length} of ${members.length}):`];
  for (const v of page) lines.push(`  ${sanitize(engine.ix.label(v))}  ${sanitize(engine.ix.node(v).source_file ?? '')}`);
  if (offset + page.length < members.length) lines.push(`  (pass offset=${offset + page.length} for the next page)`);
  return { text: lines.join('\n'), found: true };
}

/** The six synaptic:// resources and the node/community templates over the live graph. */
export function createGraphResources(engine: () => Promise<QueryEngine>, graphPath: string): ResourceProvider {
  return {
    list: () => RESOURCES,
    templates: () => TEMPLATES,
    async read(uri) {
      const e = await engine();
      switch (uri) {
        case 'synaptic://report': {
          // Extraction writes every name in the report sanitized; a report from an older version or
          // planted in the output folder may not be, so it is served as prose (sanitizeProse).
          const report = join(dirname(graphPath), 'GRAPH_REPORT.md');
          if (existsSync(report)) return { mimeType: 'text/markdown', text: sanitizeProse(readFileSync(report, 'utf8')) };
          return { mimeType: 'text/markdown', text: `# Graph report\n\nNo GRAPH_REPORT.md next to ${sanitize(graphPath, 400)} (run synaptic extract to write it).\n\n${statsText(e)}\n` };
        }
        case 'synaptic://stats':
          return { mimeType: 'text/plain', text: statsText(e) };
        case 'synaptic://god-nodes':
          return { mimeType: 'text/plain', text: godNodesPage(e, 10, 0).text };
        case 'synaptic://surprises':
          return { mimeType: 'text/plain', text: surprises(e) };
        case 'synaptic://audit':
          return { mimeType: 'text/plain', text: audit(e) };
        case 'synaptic://questions':
          return { mimeType: 'text/plain', text: questions(e) };
        default:
          break;
      }
      const node = /^synaptic:\/\/node\/(.+)$/.exec(uri);
      if (node) {
        let label: string;
        try {
          label = decodeURIComponent(node[1]!);
        } catch {
          label = node[1]!;
        }
        const r = describeNodeMetadata(e, label);
        return r.structured.found === true || r.structured.ambiguous === true ? { mimeType: 'text/plain', text: r.text } : undefined;
      }
      const comm = /^synaptic:\/\/community\/(-?\d+)$/.exec(uri);
      if (comm) {
        const page = communityPage(e, Number(comm[1]), 0, 100);
        return page.found ? { mimeType: 'text/plain', text: page.text } : undefined;
      }
      return undefined;
    },
  };
}
