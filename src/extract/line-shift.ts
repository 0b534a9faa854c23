/**
 * The "positions only" incremental path of `synaptic update`. Linking (src/extract/link/) never
 * looks at line or column numbers except to copy them into the output, and at symbol spans only to
 * bound the scan for a type's constructor. So when an edited file's facts equal its previous facts
 * in everything but positions (a function body edit, a comment, added blank lines, ...), every
 * node, link, target, confidence and community of the graph is what it was, and the new graph is
 * the previous one with that file's positions moved: its nodes' spans and locations, the lines of
 * the links it is the `source_file` of, its hazards' lines and its syntax-error and folded lines.
 * {@link positionFreeShape} decides the "everything but positions" equality (a shape mismatch means
 * a full relink); {@link lineMap} pairs each old line with its new line through the facts that
 * carry them, and refuses when one old line would map to two new ones. Browser-safe.
 */
import type { GraphDocument, GraphNode } from '../graph/model.ts';
import type { FileFacts } from './facts.ts';

/**
 * A canonical text of everything in a file's facts that linking can observe, with positions left
 * out. A symbol's span is replaced by how far the constructor scan of linkGraph reaches from it (the
 * index of the first later symbol that starts after its end), the only way linking reads spans.
 */
export function positionFreeShape(f: FileFacts): string {
  const syms = f.symbols;
  const reach = syms.map((s, i) => {
    let k = i + 1;
    while (k < syms.length && syms[k]!.span.start_line <= s.span.end_line) k++;
    return k;
  });
  return JSON.stringify({
    ...f,
    lines: 0,
    syntaxErrors: f.syntaxErrors ? f.syntaxErrors.length : undefined,
    folded: f.folded ? f.folded.definitions : undefined,
    queryStopped: f.queryStopped ? true : undefined,
    symbols: syms.map((s, i) => ({ ...s, span: reach[i], bases: s.bases?.map((b) => ({ ...b, line: 0 })), extra: s.extra && positionFreeExtra(s.extra) })),
    imports: f.imports.map((x) => ({ ...x, line: 0 })),
    exports: f.exports.map((x) => ({ ...x, line: 0 })),
    calls: f.calls.map((x) => ({ ...x, line: 0 })),
    typeRefs: f.typeRefs.map((x) => ({ ...x, line: 0 })),
    hazards: f.hazards.map((x) => ({ ...x, line: 0 })),
    sql: f.sql && { edges: f.sql.edges.map((x) => ({ ...x, line: 0 })), queries: f.sql.queries.map((x) => ({ ...x, line: 0 })) },
  });
}

/** Symbol attributes with their lines left out: `fk_line`, and the `L<n>` that SQL findings (each line of one) start with. */
function positionFreeExtra(extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in extra) {
    const v = extra[key];
    out[key] = key === 'fk_line' ? 0 : typeof v === 'string' && LINE_PREFIX.test(v) ? v.replace(LINE_PREFIXES, 'L') : v;
  }
  return out;
}
const LINE_PREFIX = /^L\d+/;
/** Every line's leading `L<n>` (`sql_checks` holds one check per line). */
const LINE_PREFIXES = /^L\d+/gm;

/**
 * Old line -> new line for every line a fact of the file carries (symbol starts, bases, imports,
 * calls, type references, hazards: the lines linking writes into links and nodes). Null when the
 * files do not pair up fact by fact or an old line would move to two different new lines.
 */
export function lineMap(before: FileFacts, after: FileFacts): Map<number, number> | null {
  const map = new Map<number, number>();
  let ok = true;
  const pair = (a: number, b: number): void => {
    const seen = map.get(a);
    if (seen === undefined) map.set(a, b);
    else if (seen !== b) ok = false;
  };
  const each = <T>(xs: T[], ys: T[], line: (x: T) => number): void => {
    if (xs.length !== ys.length) { ok = false; return; }
    for (let i = 0; i < xs.length; i++) pair(line(xs[i]!), line(ys[i]!));
  };
  each(before.symbols, after.symbols, (s) => s.span.start_line);
  if (before.symbols.length === after.symbols.length) {
    for (let i = 0; i < before.symbols.length; i++) each(before.symbols[i]!.bases ?? [], after.symbols[i]!.bases ?? [], (b) => b.line);
  }
  each(before.imports, after.imports, (x) => x.line);
  each(before.calls, after.calls, (x) => x.line);
  each(before.typeRefs, after.typeRefs, (x) => x.line);
  each(before.hazards, after.hazards, (x) => x.line);
  if (before.sql && after.sql) {
    each(before.sql.edges, after.sql.edges, (x) => x.line);
    each(before.sql.queries, after.sql.queries, (x) => x.line);
  } else if (before.sql || after.sql) ok = false;
  return ok ? map : null;
}

/** The `L<n>` location with its line moved through `map`; null when the line is not in it. */
function moved(location: string, map: Map<number, number>): string | null {
  if (!location.startsWith('L')) return null;
  const n = map.get(Number(location.slice(1)));
  return n === undefined ? null : `L${n}`;
}

/**
 * Move one file's positions in a previous graph document (in place), given its facts before and
 * after an edit with equal {@link positionFreeShape}s; the indices of the nodes and links it
 * rewrote are added to `touched`. Returns false (the document is then partly
 * changed and must be thrown away) when something does not line up.
 */
export function shiftFilePositions(
  doc: GraphDocument, nodeIndex: ReadonlyMap<string, number>, before: FileFacts, after: FileFacts, map: Map<number, number>,
  touched: { nodes: number[]; links: number[] } = { nodes: [], links: [] },
): boolean {
  if (before.path !== after.path || before.fileId !== after.fileId) return false;
  const fileNode = nodeIndex.get(after.fileId);
  if (fileNode === undefined) return false;
  const fnode = doc.nodes[fileNode]!;
  if (fnode.source_file !== after.path || fnode.kind !== 'file') return false;
  fnode.lines = after.lines;
  touched.nodes.push(fileNode);
  for (const s of after.symbols) {
    const at = nodeIndex.get(s.id);
    if (at === undefined) return false;
    const n: GraphNode = doc.nodes[at]!;
    if (n.source_file !== after.path) return false;
    n.span = s.span;
    n.source_location = `L${s.span.start_line}`;
    if (s.extra) Object.assign(n, s.extra); // its SQL findings quote their lines, as linking writes them
    touched.nodes.push(at);
  }
  for (let j = 0; j < doc.links.length; j++) {
    const l = doc.links[j]!;
    if (l.source_file !== after.path) continue;
    const loc = moved(l.source_location, map);
    if (loc === null) return false;
    l.source_location = loc;
    if (typeof l.injection === 'string') {
      const at = moved(l.injection.slice(0, l.injection.indexOf(' ') >>> 0), map);
      if (at === null) return false;
      l.injection = at + l.injection.slice(l.injection.indexOf(' '));
    }
    touched.links.push(j);
  }
  for (const h of doc.graph.hazards ?? []) {
    if (h.source_file !== after.path) continue;
    const loc = moved(h.source_location, map);
    if (loc === null) return false;
    h.source_location = loc;
  }
  return true;
}

/**
 * The key order linkGraph gives nodes: these keys, then a symbol's own attributes (its `extra`:
 * SQL findings, route paths, ...) in their order, then `community` (added last). graph.cbor
 * interns strings in key order, so a node rebuilt from graph.cbor must have its keys in this
 * order to encode to the same bytes as a freshly linked one.
 */
const NODE_KEY_ORDER = [
  'id', 'label', 'file_type', 'source_file', 'source_location', 'kind', 'span', 'language', 'name', 'visibility',
  'signature', 'doc', 'is_test', 'lines', 'exported',
];
const NODE_KEYS = new Set([...NODE_KEY_ORDER, 'community']);

/** Nodes decoded from graph.cbor with keys in linkGraph's order. */
export function inLinkKeyOrder(nodes: GraphNode[]): GraphNode[] {
  const out: GraphNode[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as Record<string, unknown>;
    const o: Record<string, unknown> = {};
    for (const key of NODE_KEY_ORDER) if (n[key] !== undefined) o[key] = n[key];
    for (const key in n) if (!NODE_KEYS.has(key)) o[key] = n[key];
    if (n.community !== undefined) o.community = n.community;
    out[i] = o as GraphNode;
  }
  return out;
}
