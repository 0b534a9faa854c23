import type { GraphDocument, GraphLink, GraphNode } from '../../graph/model.ts';

/**
 * The canonical graph.json text: nodes sorted by id, links by (source, target, relation, line), keys
 * in a fixed order (known keys first, then any others sorted), one node or link per line. The same
 * document content always gives the same bytes, whatever order it was built in. Browser-safe.
 */

export const NODE_KEYS = [
  'id', 'label', 'kind', 'file_type', 'source_file', 'source_location', 'language', 'visibility', 'span',
  'signature', 'doc', 'is_test', 'community',
];
export const LINK_KEYS = ['source', 'target', 'relation', 'confidence', 'confidence_score', 'source_file', 'source_location'];
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
  const keyed = doc.links.map((link) => ({ link, line: lineOf(link.source_location), text: '' }));
  const full = (k: { link: GraphLink; text: string }): string => k.text || (k.text = orderedJson(k.link, LINK_KEYS));
  keyed.sort(
    (a, b) =>
      cmp(a.link.source, b.link.source) || cmp(a.link.target, b.link.target) || cmp(String(a.link.relation), String(b.link.relation))
      || a.line - b.line || cmp(String(a.link.source_location), String(b.link.source_location))
      || cmp(String(a.link.confidence), String(b.link.confidence)) || cmp(String(a.link.source_file), String(b.link.source_file))
      || cmp(full(a), full(b)),
  );
  doc.links = keyed.map((k) => k.link);
}

/** Serialize a (sorted) graph document canonically. */
export function stringifyGraph(doc: GraphDocument): string {
  const parts: string[] = [headerText(doc)];
  // One array stringify each (much faster than one call per record), then a line break per record.
  const nodes = JSON.stringify(doc.nodes.map((n: GraphNode) => ordered(n, NODE_KEYS)));
  const links = JSON.stringify(doc.links.map((l: GraphLink) => ordered(l, LINK_KEYS)));
  parts.push('"nodes":[\n', nodes.slice(1, -1).replaceAll('},{"id":', '},\n{"id":'));
  parts.push('\n],\n"links":[\n', links.slice(1, -1).replaceAll('},{"source":', '},\n{"source":'));
  parts.push(`\n],\n"hyperedges":${canonicalJson(doc.hyperedges ?? [])}}\n`);
  return parts.join('');
}

/** The first two lines of graph.json: the top-level flags and commit, then the graph meta. */
export function headerText(doc: GraphDocument): string {
  return `{"directed":${JSON.stringify(doc.directed)},"multigraph":${JSON.stringify(doc.multigraph)},`
    + `"built_at_commit":${JSON.stringify(doc.built_at_commit ?? null)},\n`
    + `"graph":${canonicalJson(doc.graph)},\n`;
}

function orderedJson(obj: object, known: readonly string[]): string {
  return JSON.stringify(ordered(obj, known));
}

/**
 * A copy of `obj` with keys in canonical order (known keys first, then the rest sorted; nested values
 * canonical too). JSON.stringify keeps insertion order (integer-like keys aside, which it orders
 * numerically: deterministic either way) and is fast on such plain objects.
 */
export function ordered(obj: object, known: readonly string[]): Record<string, unknown> {
  const record = obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of known) {
    const value = record[key];
    if (value === undefined) continue;
    out[key] = typeof value === 'object' && value !== null ? canonicalValue(key, value) : value;
  }
  let extra = false;
  for (const key in record) {
    if (!known.includes(key)) {
      extra = true;
      break;
    }
  }
  if (extra) {
    const rest = Object.keys(record).filter((k) => !known.includes(k) && record[k] !== undefined).sort(cmp);
    for (const key of rest) out[key] = canonical(record[key]);
  }
  return out;
}

function canonicalValue(key: string, value: object): unknown {
  if (Array.isArray(value)) return canonical(value);
  if (key === 'span') return ordered(value, SPAN_KEYS);
  if (key === 'signature') {
    const sig = ordered(value, SIGNATURE_KEYS);
    const params = (value as { params?: unknown }).params;
    if (Array.isArray(params)) sig.params = params.map((p) => (p && typeof p === 'object' && !Array.isArray(p) ? ordered(p, PARAM_KEYS) : canonical(p)));
    return sig;
  }
  return canonical(value);
}

/** Deep copy with object keys sorted (arrays keep their order; undefined members dropped). */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonical(v)));
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record).sort(cmp)) if (record[k] !== undefined) out[k] = canonical(record[k]);
  return out;
}

/** JSON with object keys sorted at every depth (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'null';
}
