import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeGraph, encodeGraph } from '../../src/graph/snapshot.ts';
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
