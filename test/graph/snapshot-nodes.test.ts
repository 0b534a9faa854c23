// The server's lazy snapshot nodes (getters over the columns) must read exactly like the plain
// nodes of snapshotToDocument: every field, absent fields, extra columns and per-row extras.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeSnapshot, encodeGraph, snapshotNodes, snapshotToDocument } from '../../src/graph/snapshot.ts';
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
