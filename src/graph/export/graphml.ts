import { LINK_ATTRS, NODE_ATTRS, attrValue, type ExportGraph } from './select.ts';

/**
 * GraphML for Gephi and yEd: every attribute declared as a typed <key>, values XML-escaped, and
 * characters XML 1.0 cannot carry at all (controls, lone surrogates, U+FFFE/U+FFFF) removed, since
 * no escape makes them legal. Yields one element at a time so a large graph is never one string.
 */

/** Characters outside XML 1.0's Char production. */
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe inside an XML attribute or element: invalid characters dropped, markup and line breaks escaped. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML_CHAR, '').replace(/[&<>"'\n\r\t]/g, (c) => XML_ESCAPES[c]!);
}
/**
 * An id (node id, edge endpoint): invalid characters become visible `\uXXXX` text instead of being
 * dropped, so two ids that differ only in them stay two nodes.
 */
export function xmlId(s: string): string {
  return xmlText(s.replace(NOT_XML_CHAR, (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`));
}
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

export function* graphmlChunks(g: ExportGraph): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n';
  for (const [name, type] of NODE_ATTRS) yield `  <key id="n_${name}" for="node" attr.name="${name}" attr.type="${type}"/>\n`;
  for (const [name, type] of LINK_ATTRS) yield `  <key id="e_${name}" for="edge" attr.name="${name}" attr.type="${type}"/>\n`;
  yield `  <graph id="${xmlText(g.name)}" edgedefault="directed" parse.nodes="${g.nodes.length}" parse.edges="${g.links.length}">\n`;
  for (const n of g.nodes) {
    let s = `    <node id="${xmlId(n.id)}">`;
    for (const [name, type] of NODE_ATTRS) {
      const v = attrValue(n, name, type);
      if (v !== undefined) s += `<data key="n_${name}">${typeof v === 'string' ? xmlText(v) : String(v)}</data>`;
    }
    yield s + '</node>\n';
  }
  let i = 0;
  for (const l of g.links) {
    let s = `    <edge id="e${i++}" source="${xmlId(l.source)}" target="${xmlId(l.target)}">`;
    for (const [name, type] of LINK_ATTRS) {
      const v = attrValue(l, name, type);
      if (v !== undefined) s += `<data key="e_${name}">${typeof v === 'string' ? xmlText(v) : String(v)}</data>`;
    }
    yield s + '</edge>\n';
  }
  yield '  </graph>\n</graphml>\n';
}
