import { LINK_ATTRS, NODE_ATTRS, attrValue, type ExportGraph } from './select.ts';

/**
 * Cypher statements that load the graph into Neo4j or any openCypher database, one statement per
 * line, literal (no parameters) so the file runs as-is in cypher-shell or a browser. Every node
 * carries the label `SynapticNode` (the key its relationships MATCH on; index it for speed) plus a
 * label from its kind (`Function`, `TypeAlias`); relationship types come from relations (`CALLS`).
 * MERGE keeps a re-run idempotent: nodes on their id, links on (type, source_file, source_location).
 */

/** A single-quoted Cypher string: backslash escapes for quotes, controls and invisible characters. */
export function cypherString(s: string): string {
  return `'${s.replace(/[\\'\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, (c) => CYPHER_ESCAPES[c] ?? `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)}'`;
}
const CYPHER_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A label or relationship type: bare when it is a plain identifier, else backtick-quoted. */
export function cypherName(s: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) ? s : `\`${s.replace(/`/g, '``')}\``;
}

/** `type_alias` -> `TypeAlias`. */
export function kindLabel(kind: string): string {
  return kind.split(/[_\s-]+/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') || 'Node';
}

/** `imports_from` -> `IMPORTS_FROM`. */
export function relationType(relation: string): string {
  return relation.toUpperCase() || 'RELATED';
}

function literal(v: string | number | boolean): string {
  return typeof v === 'string' ? cypherString(v) : String(v);
}

const NODE_KEY = 'SynapticNode';

export function* cypherChunks(g: ExportGraph): Generator<string> {
  yield `// Synaptic graph ${g.name.replace(/[\r\n\u2028\u2029]/g, ' ')}: ${g.nodes.length} nodes, ${g.links.length} relationships.\n`;
  yield `// Neo4j: CREATE CONSTRAINT IF NOT EXISTS FOR (n:${NODE_KEY}) REQUIRE n.id IS UNIQUE; first makes the MATCHes below fast.\n`;
  for (const n of g.nodes) {
    const sets = [`n:${cypherName(kindLabel(String(n.kind ?? 'node')))}`];
    for (const [name, type] of NODE_ATTRS) {
      const v = attrValue(n, name, type);
      if (v !== undefined) sets.push(`n.${name} = ${literal(v)}`);
    }
    yield `MERGE (n:${NODE_KEY} {id: ${cypherString(n.id)}}) SET ${sets.join(', ')};\n`;
  }
  for (const l of g.links) {
    const key = `source_file: ${cypherString(l.source_file ?? '')}, source_location: ${cypherString(l.source_location ?? '')}`;
    const sets: string[] = [];
    for (const [name, type] of LINK_ATTRS) {
      if (name === 'source_file' || name === 'source_location' || name === 'relation') continue;
      const v = attrValue(l, name, type);
      if (v !== undefined) sets.push(`r.${name} = ${literal(v)}`);
    }
    yield `MATCH (a:${NODE_KEY} {id: ${cypherString(l.source)}}), (b:${NODE_KEY} {id: ${cypherString(l.target)}}) MERGE (a)-[r:${cypherName(relationType(l.relation))} {${key}}]->(b)${sets.length ? ` SET ${sets.join(', ')}` : ''};\n`;
  }
}
