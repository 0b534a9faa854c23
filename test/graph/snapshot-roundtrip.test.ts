import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeGraph } from '../../src/graph/snapshot.ts';
import { encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';

// Locations in every form the string table has a shortcut for, or must not take one for.
const location = fc.oneof(
  fc.integer({ min: 0, max: 3000 }).map((l) => `L${l}`),
  fc.constantFrom('L', 'L0', 'L00', 'L05', 'Lx', '12', 'L1234567', 'L12345678', 'L123456789', 'l7', ''),
);
const file = fc.constantFrom('src/a.ts', 'src/b.ts', 'lib/c.go', 'x');

test('graph.cbor round trip: links whose site file or location is any string, or absent, come back unchanged', () => {
  const docs = fc.record({
    nodes: fc.array(fc.record({ source_file: file, source_location: location, kind: fc.constantFrom('function', 'file') }, { requiredKeys: [] }), { minLength: 1, maxLength: 20 }),
    links: fc.array(
      fc.record(
        { s: fc.nat(22), t: fc.nat(22), relation: fc.constantFrom('calls', 'imports', 'odd_rel'), source_file: file, source_location: location },
        { requiredKeys: ['s', 't', 'relation'] },
      ),
      { maxLength: 40 },
    ),
  });
  fc.assert(
    fc.property(docs, ({ nodes, links }) => {
      const doc: GraphDocument = {
        directed: true, multigraph: true, graph: {}, hyperedges: [], built_at_commit: null,
        nodes: nodes.map((n, i) => ({ id: `n${i}`, label: `n${i}`, ...n }) as GraphNode),
        links: links.map(({ s, t, ...rest }) => ({ source: `n${s}`, target: `n${t}`, confidence: 'EXTRACTED', confidence_score: 1, ...rest }) as GraphLink),
      };
      const bytes = encodeGraph(doc);
      assert.deepEqual(decodeGraph(bytes), doc);
      assert.ok(Buffer.from(encodeGraph(decodeGraph(bytes))).equals(Buffer.from(bytes)), 'encoding the decoded graph gives the same bytes');
      // With indexGraph's endpoints (no dangling link): the same bytes.
      const indexed = indexGraph(doc);
      if (indexed.danglingLinks === 0) assert.ok(Buffer.from(encodeGraph(doc, indexed)).equals(Buffer.from(bytes)), 'endpoints given: same bytes');
    }),
    { numRuns: 300 },
  );
});

test('graph.cbor bytes do not depend on the order of a node\'s keys (an update mixes decoded and freshly linked nodes)', () => {
  const base = {
    id: 'src/a.ts#f', label: 'f', file_type: 'code', source_file: 'src/a.ts', source_location: 'L3', kind: 'function', language: 'typescript',
    visibility: 'public', span: { start_line: 3, start_col: 0, end_line: 5, end_col: 1 }, signature: { params: [{ name: 'x', type: 'number' }], returns: 'void', raw: 'function f(x: number): void' },
    doc: 'Does f.', community: 2, name: 'f', exported: true, lines: 9, zeta: 'z', alpha: { nested: 1 },
  } as Record<string, unknown>;
  const keys = Object.keys(base);
  fc.assert(
    fc.property(fc.array(fc.nat(), { minLength: keys.length, maxLength: keys.length }), fc.array(fc.nat(), { minLength: keys.length, maxLength: keys.length }), (r1, r2) => {
      const shuffled = (r: number[]): Record<string, unknown> => {
        const order = keys.map((k, i) => [k, r[i]!] as const).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
        return Object.fromEntries(order.map(([k]) => [k, base[k]]));
      };
      const docOf = (first: Record<string, unknown>): GraphDocument => ({
        directed: true, multigraph: true, graph: {}, hyperedges: [], built_at_commit: null,
        nodes: [first as unknown as GraphNode, { id: 'src/a.ts', label: 'a.ts', kind: 'file', lines: 9, source_file: 'src/a.ts' } as unknown as GraphNode],
        links: [{ source: 'src/a.ts', target: 'src/a.ts#f', relation: 'contains', confidence: 'EXTRACTED', confidence_score: 1, source_file: 'src/a.ts', source_location: 'L3' } as GraphLink],
      });
      assert.ok(Buffer.from(encodeGraph(docOf(shuffled(r1)))).equals(Buffer.from(encodeGraph(docOf(shuffled(r2))))), 'same bytes for both key orders');
    }),
    { numRuns: 100 },
  );
});
