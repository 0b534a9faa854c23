import type { GraphDocument, GraphLink, GraphNode } from '../../graph/model.ts';

/**
 * The canonical graph.json text: nodes sorted by id, links by (source, target, relation, line), keys
 * in a fixed order (known keys first, then any others sorted), one node or link per line. The same
 * document content always gives the same bytes, whatever order it was built in. Browser-safe.
 */

const NODE_KEYS = [
  'id', 'label', 'kind', 'file_type', 'source_file', 'source_location', 'language', 'visibility', 'span',
  'signature', 'doc', 'is_test', 'community',
];
const LINK_KEYS = ['source', 'target', 'relation', 'confidence', 'confidence_score', 'source_file', 'source_location'];
const SPAN_KEYS = ['start_line', 'start_col', 'end_line', 'end_col'];
const SIGNATURE_KEYS = ['params', 'returns', 'raw'];
const PARAM_KEYS = ['name', 'type', 'optional', 'default'];

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The line number of a `L42` location (0 when absent or malformed). */
export function lineOf(location: unknown): number {
  if (typeof location !== 'string') return 0;
  const n = Number.parseInt(location.startsWith('L') ? location.slice(1) : location, 10);
  return Number.isFinite(n) ? n : 0;
}

/** Sort nodes and links in place into the canonical order. */
export function sortGraph(doc: GraphDocument): void {
  doc.nodes.sort((a, b) => cmp(a.id, b.id));
  const keyed = doc.links.map((link) => ({ link, text: orderedJson(link, LINK_KEYS), line: lineOf(link.source_location) }));
  keyed.sort(
    (a, b) =>
      cmp(a.link.source, b.link.source) || cmp(a.link.target, b.link.target) || cmp(String(a.link.relation), String(b.link.relation))
      || a.line - b.line || cmp(a.text, b.text),
  );
  doc.links = keyed.map((k) => k.link);
}

/** Serialize a (sorted) graph document canonically. */
export function stringifyGraph(doc: GraphDocument): string {
  const parts: string[] = [];
  parts.push(`{"directed":${JSON.stringify(doc.directed)},"multigraph":${JSON.stringify(doc.multigraph)},`);
  parts.push(`"built_at_commit":${JSON.stringify(doc.built_at_commit ?? null)},\n`);
  parts.push(`"graph":${canonicalJson(doc.graph)},\n`);
  parts.push('"nodes":[\n');
  parts.push(doc.nodes.map((n: GraphNode) => orderedJson(n, NODE_KEYS)).join(',\n'));
  parts.push('\n],\n"links":[\n');
  parts.push(doc.links.map((l: GraphLink) => orderedJson(l, LINK_KEYS)).join(',\n'));
  parts.push(`\n],\n"hyperedges":${canonicalJson(doc.hyperedges ?? [])}}\n`);
  return parts.join('');
}

function orderedJson(obj: object, known: readonly string[]): string {
  const record = obj as Record<string, unknown>;
  const fields: string[] = [];
  for (const key of known) {
    if (!(key in record) || record[key] === undefined) continue;
    fields.push(`${JSON.stringify(key)}:${valueJson(key, record[key])}`);
  }
  const rest = Object.keys(record).filter((k) => !known.includes(k) && record[k] !== undefined).sort(cmp);
  for (const key of rest) fields.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${fields.join(',')}}`;
}

function valueJson(key: string, value: unknown): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    if (key === 'span') return orderedJson(value, SPAN_KEYS);
    if (key === 'signature') {
      const sig = value as Record<string, unknown>;
      if (Array.isArray(sig.params)) {
        const params = `[${sig.params.map((p) => (p && typeof p === 'object' ? orderedJson(p, PARAM_KEYS) : canonicalJson(p))).join(',')}]`;
        const rest = orderedJson({ ...sig, params: undefined }, SIGNATURE_KEYS);
        return rest === '{}' ? `{"params":${params}}` : `{"params":${params},${rest.slice(1)}`;
      }
      return orderedJson(value, SIGNATURE_KEYS);
    }
  }
  return canonicalJson(value);
}

/** JSON with object keys sorted at every depth (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort(cmp);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}
