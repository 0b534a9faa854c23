import type { GraphDocument, GraphLink, GraphNode } from '../model.ts';

/**
 * What an export writes: the nodes and links of a graph, or of one member of a federated graph
 * (nodes whose `repo` is the tag, links with both ends among them, so every writer's output is a
 * closed graph a consumer can load without dangling references). Browser-safe.
 */
export interface ExportGraph {
  name: string;
  meta: GraphDocument['graph'];
  nodes: readonly GraphNode[];
  links: readonly GraphLink[];
  built_at_commit: string | null;
}

/** The graph (or its member `repo`) to export; an unknown tag is an error that lists the known ones. */
export function selectForExport(doc: GraphDocument, name: string, repo?: string): ExportGraph {
  const base = { name, meta: doc.graph ?? {}, built_at_commit: doc.built_at_commit ?? null };
  if (repo === undefined) return { ...base, nodes: doc.nodes, links: doc.links };
  const nodes = doc.nodes.filter((n) => n.repo === repo);
  if (nodes.length === 0) {
    const tags = [...new Set(doc.nodes.map((n) => n.repo).filter((r): r is string => typeof r === 'string'))].sort();
    throw new Error(tags.length ? `no repo '${repo}' in this graph (repos: ${tags.join(', ')})` : `no repo '${repo}': this graph is not federated (no node has a repo tag)`);
  }
  const ids = new Set(nodes.map((n) => n.id));
  return { ...base, name: repo, nodes, links: doc.links.filter((l) => ids.has(l.source) && ids.has(l.target)) };
}

/** Scalar node attributes every writer exports, with their type (GraphML declares them as keys). */
export const NODE_ATTRS = [
  ['label', 'string'], ['kind', 'string'], ['file_type', 'string'], ['source_file', 'string'],
  ['source_location', 'string'], ['language', 'string'], ['visibility', 'string'], ['repo', 'string'],
  ['doc', 'string'], ['community', 'int'], ['is_test', 'boolean'], ['start_line', 'int'], ['end_line', 'int'],
] as const;

/** Scalar link attributes every writer exports. */
export const LINK_ATTRS = [
  ['relation', 'string'], ['confidence', 'string'], ['confidence_score', 'double'],
  ['source_file', 'string'], ['source_location', 'string'],
] as const;

export type AttrType = 'string' | 'int' | 'double' | 'boolean';

/** One attribute of a node or link, when present and of its declared type (spans give start/end_line). */
export function attrValue(item: GraphNode | GraphLink, name: string, type: AttrType): string | number | boolean | undefined {
  const raw = name === 'start_line' || name === 'end_line' ? (item as GraphNode).span?.[name] : (item as Record<string, unknown>)[name];
  if (type === 'string') return typeof raw === 'string' && raw !== '' ? raw : undefined;
  if (type === 'boolean') return typeof raw === 'boolean' ? raw : undefined;
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return undefined;
  return type === 'int' ? Math.trunc(raw) : raw;
}
