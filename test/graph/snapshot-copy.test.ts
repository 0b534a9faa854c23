// An update's graph.cbor encode copies the rows it kept from the previous encode (EncodeMemo, nodeFrom,
// linkFrom): the bytes must equal a fresh encode of the same document, also when links carry extra
// fields in columns (SQL links' `columns`, `select_star`), which before #15 sent every such update
// down the full encode (about 300 ms of CPU on prisma).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeSnapshot, snapshotToDocument } from '../../src/graph/snapshot.ts';
import { EncodeMemo, encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
const linkExtra = fc.record({ columns: word, select_star: fc.boolean(), via: fc.integer({ min: 0, max: 9 }) }, { requiredKeys: [] });

function docOf(nodeCount: number, links: { s: number; t: number; rel: string; extra: Record<string, unknown> }[]): GraphDocument {
  const nodes: GraphNode[] = [];
  for (let i = 0; i < nodeCount; i++) {
    nodes.push({ id: `n${String(i).padStart(3, '0')}`, label: `f${i}`, file_type: 'code', source_file: `src/${i % 4}.ts`, source_location: `L${i + 1}`, kind: 'function', community: i % 3 } as GraphNode);
  }
  const seen = new Set<string>();
  const out: GraphLink[] = [];
  for (const l of links) {
    const s = nodes[l.s % nodeCount]!;
    const t = nodes[l.t % nodeCount]!;
    const key = `${s.id}\0${t.id}\0${l.rel}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ source: s.id, target: t.id, relation: l.rel, confidence: 'EXTRACTED', confidence_score: 1, source_file: s.source_file, source_location: 'L1', ...l.extra } as GraphLink);
  }
  return { directed: true, multigraph: true, graph: {}, nodes, links: out, hyperedges: [], built_at_commit: null };
}

const spec = fc.array(fc.record({ s: fc.nat(30), t: fc.nat(30), rel: fc.constantFrom('calls', 'reads', 'writes'), extra: linkExtra }), { maxLength: 40 });

test('graph.cbor copying encode: rows kept from the decoded previous graph, link extra columns included, give a fresh encode\'s bytes', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 30 }), spec, spec, fc.array(fc.boolean(), { maxLength: 40 }), (n, before, added, keep) => {
      // The previous graph as an update in a fresh process has it: decoded from graph.cbor.
      const bytes = encodeGraph(docOf(n, before));
      const snap = decodeSnapshot(bytes);
      const prev = snapshotToDocument(snap);
      const memo = EncodeMemo.fromDecoded(snap, { nodes: prev.nodes.slice(), links: prev.links.slice() });
      // The new graph: some previous links (the same objects) and some new ones, in canonical order.
      const kept = prev.links.filter((_, j) => keep[j] !== false);
      const fresh = docOf(n, added).links;
      const byKey = new Map<string, GraphLink>();
      for (const l of [...fresh, ...kept]) byKey.set(`${l.source}\0${l.target}\0${l.relation}`, l);
      const links = [...byKey.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : a.target < b.target ? -1 : a.target > b.target ? 1 : a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0));
      const doc: GraphDocument = { ...prev, links };
      const nodeFrom = Int32Array.from(doc.nodes, (_, i) => i);
      const linkFrom = Int32Array.from(links, (l) => prev.links.indexOf(l));
      const ig = indexGraph(doc);
      const copied = encodeGraph(doc, ig, { memo, nodeFrom, linkFrom });
      const clean = encodeGraph(structuredClone(doc));
      assert.ok(Buffer.from(copied).equals(Buffer.from(clean)), 'copying encode differs from a fresh encode');
    }),
    { numRuns: 300 },
  );
});

test('graph.cbor copying encode copies link rows when links have extra columns (it does not fall back to reading every row)', () => {
  const doc = docOf(6, [
    { s: 0, t: 1, rel: 'reads', extra: { columns: 'a', select_star: true } },
    { s: 1, t: 2, rel: 'calls', extra: {} },
    { s: 2, t: 3, rel: 'reads', extra: { columns: 'b' } },
  ]);
  const snap = decodeSnapshot(encodeGraph(doc));
  const prev = snapshotToDocument(snap);
  const memo = EncodeMemo.fromDecoded(snap, { nodes: prev.nodes.slice(), links: prev.links.slice() });
  assert.equal(memo.last?.copyable, true, 'a decoded graph whose link extras are all in columns is copyable');
  // Every link row copied: a link object the encode would read is made unreadable.
  const linkFrom = Int32Array.from(prev.links, (_, j) => j);
  const nodeFrom = Int32Array.from(prev.nodes, (_, i) => i);
  const ig = indexGraph(prev);
  const trap = prev.links.map((l) => new Proxy(l, { get: (o, k) => (k === 'columns' || k === 'select_star' ? assert.fail('link row read, not copied') : Reflect.get(o, k)) }));
  memo.last!.links = trap;
  const copied = encodeGraph({ ...prev, links: trap }, ig, { memo, nodeFrom, linkFrom });
  assert.ok(Buffer.from(copied).equals(Buffer.from(encodeGraph(doc))));
});

// Node fields no column takes (TypeScript overloads: an array of signatures) travel per row; an
// update copies those rows too (before, one such node sent every update down the full encode: ~300
// ms of CPU on prisma, whose 79 overload sets came with c377895).
const nodeExtra = fc.record({
  overloads: fc.array(fc.record({ raw: word, params: fc.constant([]) }), { maxLength: 2 }),
  // sometimes a string (a column), sometimes an array (then per row for every node)
  tag: fc.oneof(word, fc.array(word, { maxLength: 2 })),
  exported: fc.boolean(),
}, { requiredKeys: [] });

function withNodeExtras(doc: GraphDocument, extras: Record<string, unknown>[]): GraphDocument {
  return { ...doc, nodes: doc.nodes.map((node, i) => ({ ...node, ...(extras[i % Math.max(1, extras.length)] ?? {}) })) };
}

test('graph.cbor copying encode: nodes with per-row fields (overloads) copied from the last encode or the decoded graph give a fresh encode\'s bytes', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20 }), spec, fc.array(nodeExtra, { maxLength: 8 }), fc.array(nodeExtra, { maxLength: 8 }), fc.array(fc.boolean(), { maxLength: 20 }), fc.boolean(),
      (n, links, before, after, keep, decoded) => {
        const first = withNodeExtras(docOf(n, links), before);
        let memo: EncodeMemo;
        let prev: GraphDocument;
        if (decoded) {
          const snap = decodeSnapshot(encodeGraph(first));
          prev = snapshotToDocument(snap);
          memo = EncodeMemo.fromDecoded(snap, { nodes: prev.nodes.slice(), links: prev.links.slice() });
        } else {
          // A keeper: the memo of its own last encode.
          memo = new EncodeMemo();
          prev = first;
          encodeGraph(prev, indexGraph(prev), { memo });
        }
        // Some nodes kept (the same objects), the others replaced by records with other extras.
        const next = withNodeExtras(docOf(n, links), after);
        const nodes = prev.nodes.map((node, i) => (keep[i] !== false ? node : next.nodes[i]!));
        const doc: GraphDocument = { ...prev, nodes };
        const nodeFrom = Int32Array.from(nodes, (node, i) => (node === prev.nodes[i] ? i : -1));
        const linkFrom = Int32Array.from(prev.links, (_, j) => j);
        const copied = encodeGraph(doc, indexGraph(doc), { memo, nodeFrom, linkFrom });
        assert.ok(Buffer.from(copied).equals(Buffer.from(encodeGraph(structuredClone(doc)))), 'copying encode differs from a fresh encode');
        // and once more from the memo this encode left (the keeper's next update)
        const again = encodeGraph(doc, indexGraph(doc), { memo, nodeFrom: Int32Array.from(nodes, (_, i) => i), linkFrom });
        assert.ok(Buffer.from(again).equals(Buffer.from(copied)), 'second copying encode differs');
      }),
    { numRuns: 300 },
  );
});

test('graph.cbor copying encode copies node rows that carry overloads (it does not fall back to reading every row)', () => {
  const doc = withNodeExtras(docOf(4, [{ s: 0, t: 1, rel: 'calls', extra: {} }]), [{ overloads: [{ raw: 'f(a): void', params: [] }] }, {}]);
  const snap = decodeSnapshot(encodeGraph(doc));
  const prev = snapshotToDocument(snap);
  const memo = EncodeMemo.fromDecoded(snap, { nodes: prev.nodes.slice(), links: prev.links.slice() });
  const trap = prev.nodes.map((node) => new Proxy(node, { get: (o, k) => (k === 'overloads' || k === 'label' ? assert.fail('node row read, not copied') : Reflect.get(o, k)) }));
  memo.last!.nodes = trap;
  const ig = indexGraph(prev);
  const copied = encodeGraph({ ...prev, nodes: trap }, ig, { memo, nodeFrom: Int32Array.from(trap, (_, i) => i), linkFrom: Int32Array.from(prev.links, (_, j) => j) });
  assert.ok(Buffer.from(copied).equals(Buffer.from(encodeGraph(doc))));
});
