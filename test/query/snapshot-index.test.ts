// A GraphIndex built from graph.cbor (with its stored edge columns, or recomputing them for a file
// written before they existed) must equal one built from the same graph.json document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Encoder, decode } from 'cbor-x';
import fc from 'fast-check';
import { decodeSnapshot } from '../../src/graph/snapshot.ts';
import { encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { openSnapshot, sealSnapshot } from '../../src/graph/snapshot-envelope.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { GraphIndex } from '../../src/query/graph-index.ts';
import { indexSnapshot } from '../../src/query/snapshot-index.ts';

const FILES = ['src/a.ts', 'src/b.ts', 'lib/c.py'];
const graph = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    files: fc.array(fc.constantFrom(...FILES, undefined), { minLength: n, maxLength: n }),
    links: fc.array(
      fc.record(
        {
          // Indices past n make dangling links.
          source: fc.integer({ min: 0, max: n + 1 }),
          target: fc.integer({ min: 0, max: n + 1 }),
          relation: fc.constantFrom('calls', 'imports', 'contains', 'method', 'tests', 'references', 'weird_relation', 'other'),
          confidence: fc.constantFrom('EXTRACTED', 'INFERRED', 'AMBIGUOUS', 'MAYBE'),
          source_file: fc.constantFrom(...FILES),
          source_location: fc.oneof(fc.integer({ min: 1, max: 999 }).map((l) => `L${l}`), fc.constant('nowhere')),
        },
        { requiredKeys: ['source', 'target', 'relation'] },
      ),
      { maxLength: 80 },
    ),
  }),
);

function docOf(g: { n: number; files: (string | undefined)[]; links: Array<Record<string, unknown>> }): GraphDocument {
  const nodes: GraphNode[] = Array.from({ length: g.n }, (_, i) => ({ id: `n${i}`, label: `f${i % 7}`, ...(g.files[i] ? { source_file: g.files[i] } : {}) }) as GraphNode);
  const links = g.links.map((l) => ({ ...l, source: `n${l.source as number}`, target: `n${l.target as number}` }) as unknown as GraphLink);
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
}

function summary(ix: GraphIndex) {
  const edges = Array.from({ length: ix.m }, (_, e) => [ix.relName(e), ix.confidence(e), ix.edgeLine[e], ix.edgeSiteFile(e)]);
  return {
    src: [...ix.g.src], dst: [...ix.g.dst], rel: [...ix.g.rel], dangling: ix.g.danglingLinks, edges,
    outOff: [...ix.outOff], outEdges: [...ix.outEdges], inOff: [...ix.inOff], inEdges: [...ix.inEdges], degree: [...ix.degree],
  };
}

test('GraphIndex from graph.cbor (stored or recomputed edge columns) equals GraphIndex from graph.json', () => {
  fc.assert(
    fc.property(graph, (g) => {
      const fromJson = summary(new GraphIndex(docOf(g)));
      const snap = decodeSnapshot(encodeGraph(docOf(g)));
      assert.ok(snap.edges, 'graph.cbor carries the edge columns');
      const stored = indexSnapshot(snap);
      assert.deepEqual(summary(new GraphIndex(stored.doc, { edges: stored.edges })), fromJson, 'stored edge columns');
      const recomputed = indexSnapshot({ ...snap, edges: undefined });
      assert.deepEqual(summary(new GraphIndex(recomputed.doc, { edges: recomputed.edges })), fromJson, 'recomputed edge columns');
    }),
    { numRuns: 300 },
  );
});

test('inconsistent stored edge columns are ignored and recomputed, never trusted', () => {
  const small = { n: 3, files: ['src/a.ts', 'src/b.ts', undefined], links: [{ source: 0, target: 1, relation: 'calls', source_location: 'L4' }, { source: 1, target: 2, relation: 'imports' }] };
  const bytes = encodeGraph(docOf(small));
  const snap = decodeSnapshot(bytes);
  assert.ok(snap.edges);
  // A truncated CSR (as a damaged or foreign writer could leave) fails the size check on decode.
  const wire = decode(openSnapshot(bytes)) as { edges: { outEdges: Uint32Array } };
  wire.edges.outEdges = wire.edges.outEdges.subarray(0, 1);
  const damaged = decodeSnapshot(sealSnapshot(new Encoder({ useRecords: false, tagUint8Array: true }).encode(wire)));
  assert.equal(damaged.edges, undefined);
  const ix = indexSnapshot(damaged);
  assert.deepEqual(summary(new GraphIndex(ix.doc, { edges: ix.edges })), summary(new GraphIndex(docOf(small))));
});
