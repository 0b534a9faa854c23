// The server's lazy snapshot nodes (getters over the columns) must read exactly like the plain
// nodes of snapshotToDocument: every field, absent fields, extra columns and per-row extras.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeSnapshot, snapshotNodes, snapshotToDocument } from '../../src/graph/snapshot.ts';
import { EncodeMemo, encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { GraphDocument, GraphNode } from '../../src/graph/model.ts';

const FIELDS = ['id', 'label', 'file_type', 'source_file', 'source_location', 'kind', 'visibility', 'language', 'doc', 'community', 'is_test', 'span', 'signature', 'lines', 'exported', 'name', 'odd', 'weird'];

const word = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_.]{0,8}$/);
const node = fc.record(
  {
    label: word,
    file_type: fc.constantFrom('code', 'document'),
    source_file: fc.constantFrom('src/a.ts', 'src/b.py', 'lib/c.go'),
    source_location: fc.integer({ min: 1, max: 500 }).map((l) => `L${l}`),
    kind: fc.constantFrom('function', 'method', 'class', 'file'),
    visibility: fc.constantFrom('public', 'private'),
    language: fc.constantFrom('typescript', 'python'),
    doc: fc.string({ maxLength: 20 }),
    community: fc.integer({ min: 0, max: 5 }),
    is_test: fc.boolean(),
    span: fc.record({ start_line: fc.nat(900), start_col: fc.nat(80), end_line: fc.nat(900), end_col: fc.nat(80) }),
    signature: fc.record(
      {
        params: fc.array(fc.record({ name: word, type: word, optional: fc.boolean(), default: fc.string({ maxLength: 4 }) }, { requiredKeys: ['name'] }), { maxLength: 3 }),
        returns: word,
        raw: fc.string({ maxLength: 30 }),
      },
      { requiredKeys: ['params', 'raw'] },
    ),
    // Extra keys: one-type columns (string / boolean / int) and a mixed one that stays per row.
    lines: fc.integer({ min: 1, max: 2000 }),
    exported: fc.boolean(),
    name: word,
    odd: fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)),
  },
  { requiredKeys: [] },
);

function docOf(nodes: Partial<GraphNode>[]): GraphDocument {
  const withIds = nodes.map((n, i) => ({ id: `n${i}`, ...n }) as GraphNode);
  return { directed: true, multigraph: true, graph: {}, nodes: withIds, links: [], hyperedges: [], built_at_commit: null };
}

function assertSameNodes(doc: GraphDocument): void {
  const snap = decodeSnapshot(encodeGraph(doc));
  const plain = snapshotToDocument(snap).nodes;
  const lazy = snapshotNodes(snap);
  assert.equal(lazy.length, plain.length);
  for (let i = 0; i < plain.length; i++) {
    const p = plain[i] as unknown as Record<string, unknown>;
    const l = lazy[i] as unknown as Record<string, unknown>;
    for (const key of FIELDS) assert.deepEqual(l[key], p[key], `node ${i} field ${key}`);
    assert.equal(JSON.stringify(lazy[i]), JSON.stringify(plain[i]), `node ${i} as JSON`);
  }
}

test('lazy snapshot nodes read exactly like snapshotToDocument nodes (random documents)', () => {
  fc.assert(fc.property(fc.array(node, { maxLength: 25 }), (nodes) => assertSameNodes(docOf(nodes))), { numRuns: 200 });
});

test('lazy snapshot nodes: absent fields are undefined; a modelled key with an odd type travels as an extra', () => {
  const doc = docOf([{ label: 'a' }, { label: 'b', community: 0, is_test: false }, { kind: 'function', weird: { x: 1 } } as Partial<GraphNode>, { label: 7 as unknown as string }]);
  assertSameNodes(doc);
  const lazy = snapshotNodes(decodeSnapshot(encodeGraph(doc)));
  assert.equal(lazy[0]!.community, undefined);
  assert.equal(lazy[0]!.span, undefined);
  assert.equal(lazy[1]!.community, 0);
  assert.equal(lazy[1]!.is_test, false);
  assert.equal(lazy[3]!.label as unknown, 7);
});

test('a string table of several 64 KB pieces (multi-byte characters, empty strings) decodes exactly', () => {
  const words = ['café', '数据', '', 'plain', 'emoji😀', 'x'.repeat(300), 'ünïcödé'];
  const nodes = Array.from({ length: 6000 }, (_, i) => ({ label: `${words[i % words.length]}${i}`, doc: i % 5 === 0 ? '' : `${words[(i * 3) % words.length]} ${i}` }));
  const doc = docOf(nodes);
  const back = snapshotToDocument(decodeSnapshot(encodeGraph(doc)));
  assert.deepEqual(back.nodes, doc.nodes);
});

test('encodeGraph copying unchanged rows from an EncodeMemo gives the bytes of a plain encode (kept, edited, dropped and new nodes and links; right and scrambled plans)', () => {
  const step = fc.record({
    keep: fc.array(fc.boolean(), { maxLength: 30 }),
    added: fc.array(node, { maxLength: 5 }),
    edits: fc.array(fc.record({ at: fc.nat(40), field: fc.constantFrom('label', 'doc', 'source_file', 'lines', 'name', 'param', 'raw', 'span', 'drop-signature'), value: word }), { maxLength: 4 }),
    community: fc.array(fc.nat(6), { maxLength: 30 }),
    keepLinks: fc.array(fc.boolean(), { maxLength: 30 }),
    linkEdits: fc.array(fc.record({ at: fc.nat(40), line: fc.nat(300) }), { maxLength: 3 }),
    newLinks: fc.array(fc.record({ s: fc.nat(40), t: fc.nat(40), rel: fc.constantFrom('calls', 'imports', 'contains'), site: fc.constantFrom('src/a.ts', 'src/b.py', 'zz.py'), line: fc.nat(300) }), { maxLength: 8 }),
    scramble: fc.boolean(),
  });
  const plain = fc.oneof(node, node.map(({ odd: _odd, ...rest }) => rest)); // with and without a mixed-type extra
  fc.assert(
    fc.property(fc.array(plain, { maxLength: 15 }), fc.array(step, { minLength: 1, maxLength: 5 }), (first, steps) => {
      const memo = new EncodeMemo();
      // One output buffer for every encode (as a resident updater sets it up).
      memo.allocate = (bytes) => Buffer.allocUnsafeSlow(bytes);
      let nodes: GraphNode[] = docOf(first).nodes;
      let links: GraphDocument['links'] = [];
      let prevNodes: GraphNode[] = [];
      let prevLinks: GraphDocument['links'] = [];
      let fresh = 0;
      for (const s of steps) {
        const edited = new Set<object>();
        nodes = nodes.filter((_, i) => s.keep[i] ?? true);
        nodes.push(...s.added.map((n) => ({ id: `new${fresh++}`, ...n }) as GraphNode));
        for (const e of s.edits) {
          const target = nodes[e.at % Math.max(1, nodes.length)] as unknown as Record<string, unknown> | undefined;
          if (!target) continue;
          edited.add(target);
          const sig = target.signature as { params: { name: string }[]; raw: string } | undefined;
          if (e.field === 'param') {
            if (sig?.params[0]) sig.params[0].name = e.value;
          } else if (e.field === 'raw') {
            if (sig) sig.raw = e.value;
          } else if (e.field === 'drop-signature') delete target.signature;
          else if (e.field === 'span') target.span = { start_line: e.value.length, start_col: 0, end_line: 9, end_col: 1 };
          else if (e.field === 'lines') target.lines = e.value.length;
          else target[e.field] = e.value;
        }
        // Communities are numbered again after an edit: in place, without making a row unchanged.
        nodes.forEach((n, i) => {
          if (s.community[i] !== undefined) n.community = s.community[i]!;
        });
        const ids = new Set(nodes.map((n) => n.id));
        links = links.filter((l, j) => (s.keepLinks[j] ?? true) && ids.has(l.source) && ids.has(l.target));
        for (const e of s.linkEdits) {
          const l = links[e.at % Math.max(1, links.length)];
          if (!l) continue;
          l.source_location = `L${e.line}`;
          edited.add(l);
        }
        if (nodes.length) {
          for (const l of s.newLinks) {
            links.push({ source: nodes[l.s % nodes.length]!.id, target: nodes[l.t % nodes.length]!.id, relation: l.rel, confidence: 'EXTRACTED', confidence_score: 1, source_file: l.site, source_location: `L${l.line}` } as GraphDocument['links'][number]);
          }
        }
        const doc: GraphDocument = { ...docOf([]), nodes: [...nodes], links: [...links] };
        const indexed = indexGraph(doc);
        const endpoints = indexed.danglingLinks === 0 && indexed.idOf.size === nodes.length ? indexed : undefined;
        // The plan an update makes: the previous row of every record it did not touch.
        const nodeFrom = Int32Array.from(nodes, (n) => (edited.has(n) ? -1 : prevNodes.indexOf(n)));
        const linkFrom = Int32Array.from(links, (l) => (edited.has(l) ? -1 : prevLinks.indexOf(l)));
        if (s.scramble) {
          nodeFrom.reverse();
          linkFrom.reverse();
        }
        const output = memo.output;
        const bytes = encodeGraph(doc, endpoints, { memo, nodeFrom, linkFrom });
        if (output && bytes.length + 4096 < output.length) assert.equal(bytes.buffer, output.buffer, 'encoded into the kept output buffer');
        assert.ok(Buffer.from(bytes).equals(Buffer.from(encodeGraph(doc))), 'same bytes as a plain encode');
        prevNodes = [...nodes];
        prevLinks = [...links];
      }
    }),
    { numRuns: 400 },
  );
});

test('EncodeMemo.fromDecoded: a graph read back from graph.cbor, then edited, encodes with the memo to the bytes of a plain encode', () => {
  fc.assert(
    fc.property(fc.array(node, { minLength: 1, maxLength: 15 }), fc.array(fc.boolean(), { maxLength: 15 }), fc.nat(20), word, (first, keep, at, label) => {
      const start = docOf(first);
      start.links = start.nodes.slice(1).map((n, i) => ({ source: start.nodes[i]!.id, target: n.id, relation: 'calls', confidence: 'EXTRACTED', confidence_score: 1, source_file: 'src/a.ts', source_location: `L${i + 1}` }) as GraphDocument['links'][number]);
      const snap = decodeSnapshot(encodeGraph(start));
      const read = snapshotToDocument(snap);
      const memo = EncodeMemo.fromDecoded(snap, read);
      const before = { nodes: [...read.nodes], links: [...read.links] };
      // An update: some nodes dropped (and their links), one relabelled in place (not in the plan).
      const nodes = read.nodes.filter((_, i) => keep[i] ?? true);
      const edited = nodes[at % nodes.length];
      if (edited) edited.label = label;
      const ids = new Set(nodes.map((n) => n.id));
      const doc: GraphDocument = { ...read, nodes, links: read.links.filter((l) => ids.has(l.source) && ids.has(l.target)) };
      const indexed = indexGraph(doc);
      const nodeFrom = Int32Array.from(doc.nodes, (n) => (n === edited ? -1 : before.nodes.indexOf(n)));
      const linkFrom = Int32Array.from(doc.links, (l) => before.links.indexOf(l));
      const bytes = encodeGraph(doc, indexed.danglingLinks === 0 ? indexed : undefined, { memo, nodeFrom, linkFrom });
      assert.ok(Buffer.from(bytes).equals(Buffer.from(encodeGraph(doc))), 'same bytes as a plain encode');
    }),
    // (no shrinking: these records shrink for minutes; the first counterexample is small enough)
    { numRuns: 300, endOnFailure: true },
  );
});
