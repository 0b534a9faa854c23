import assert from 'node:assert/strict';
import { test } from 'node:test';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { Confidence, GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { edgeConfidence, surprisingConnections, whySurprising, type Surprise } from '../../src/graph/surprises.ts';

/**
 * Communities of ten functions each, every one calling the next three in its ring (dense inside),
 * plus the links a test adds. Node `c<k>/f<i>.ts#f<i>` is in community k, one file per node.
 */
function rings(count: number, extra: { s: string; t: string; relation?: string; confidence?: Confidence }[], extraNodes: string[] = []): GraphDocument {
  const nodes: GraphNode[] = [];
  const links: GraphLink[] = [];
  const link = (s: string, t: string, relation = 'calls', confidence: Confidence = 'EXTRACTED'): GraphLink => ({
    source: s, target: t, relation, confidence, confidence_score: 1, source_file: s.split('#')[0]!, source_location: 'L3',
  });
  const id = (k: number, i: number): string => `c${k}/f${i}.ts#f${i}`;
  for (let k = 0; k < count; k++) {
    for (let i = 0; i < 10; i++) {
      nodes.push({ id: id(k, i), label: `f${i}`, file_type: 'code', source_file: `c${k}/f${i}.ts`, source_location: 'L1', kind: 'function', community: k });
      for (let j = 1; j <= 3; j++) links.push(link(id(k, i), id(k, (i + j) % 10)));
    }
  }
  for (const n of extraNodes) {
    const [file, k] = [n.split('#')[0]!, Number(/^c(\d+)/.exec(n)![1])];
    nodes.push({ id: n, label: n.split('#')[1]!, file_type: 'code', source_file: file, source_location: 'L1', kind: 'function', community: k });
  }
  for (const e of extra) links.push(link(e.s, e.t, e.relation, e.confidence));
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
}

function find(doc: GraphDocument, limit?: number): { list: Surprise[]; rows: string[] } {
  const ig = indexGraph(doc);
  const community = Int32Array.from(ig.nodes, (n) => n.community ?? -1);
  const list = surprisingConnections(ig, community, edgeConfidence(ig.links), limit ? { limit } : {});
  return { list, rows: list.map((s) => `${ig.nodes[ig.src[s.edge]!]!.id} -> ${ig.nodes[ig.dst[s.edge]!]!.id}`) };
}

test('the one link between two otherwise separate communities is surprising, with its reason', () => {
  const doc = rings(2, [{ s: 'c0/f1.ts#f1', t: 'c1/f2.ts#f2' }]);
  const { list, rows } = find(doc);
  assert.deepEqual(rows, ['c0/f1.ts#f1 -> c1/f2.ts#f2']);
  assert.equal(list[0]!.links, 1);
  // 61 use links, 61 link ends in each community: 61 * 61 / 122 = 30.5 expected.
  assert.equal(list[0]!.expected, 30.5);
  assert.equal(whySurprising(list[0]!, (c) => `community ${c}`), 'the only link between community 0 and community 1, where ~31 would be expected from how linked each is');
});

test('well connected pairs, imports, tests using their subject, links within a file and guesses are not surprising', () => {
  const many = [1, 2, 3, 4].map((i) => ({ s: `c0/f${i}.ts#f${i}`, t: `c1/f${i}.ts#f${i}` }));
  assert.deepEqual(find(rings(2, many)).rows, [], 'four links between two communities of ten: not barely connected');
  const imports = ['imports', 'imports_from', 're_exports', 'tests', 'contains'].map((relation) => ({ s: 'c0/f1.ts#f1', t: 'c1/f2.ts#f2', relation }));
  assert.deepEqual(find(rings(2, imports)).rows, [], 'an import (or test, or containment) edge alone');
  const fromTest = [{ s: 'c0/f1.test.ts#testF', t: 'c1/f2.ts#f2' }];
  assert.deepEqual(find(rings(2, fromTest, ['c0/f1.test.ts#testF'])).rows, [], 'a test using its subject');
  const doc = rings(2, [{ s: 'c1/f2.ts#h', t: 'c0/f1.ts#f1' }], ['c1/f2.ts#h']);
  doc.nodes.at(-1)!.source_file = 'c0/f1.ts';
  assert.deepEqual(find(doc).rows, [], 'a link within one file, whatever the partition says');
  for (const confidence of ['INFERRED', 'AMBIGUOUS'] as const) {
    assert.deepEqual(find(rings(2, [{ s: 'c0/f1.ts#f1', t: 'c1/f2.ts#f2', confidence }])).rows, [], `a ${confidence} link is not listed`);
  }
  // An INFERRED link still counts as a link between the two: the EXTRACTED one is 1 of 2.
  const withGuess = find(rings(2, [{ s: 'c0/f1.ts#f1', t: 'c1/f2.ts#f2' }, { s: 'c0/f3.ts#f3', t: 'c1/f4.ts#f4', confidence: 'INFERRED' }]));
  assert.deepEqual(withGuess.list.map((s) => s.links), [2]);
  const withAmbiguous = find(rings(2, [{ s: 'c0/f1.ts#f1', t: 'c1/f2.ts#f2' }, { s: 'c0/f3.ts#f3', t: 'c1/f4.ts#f4', confidence: 'AMBIGUOUS' }]));
  assert.deepEqual(withAmbiguous.list.map((s) => s.links), [1], 'an AMBIGUOUS link does not count');
});

test('a shared helper used from three other communities is not surprising to use', () => {
  const helper = [1, 2, 3].map((k) => ({ s: `c${k}/f1.ts#f1`, t: 'c0/f0.ts#f0' }));
  assert.deepEqual(find(rings(4, helper)).rows, []);
  // Used from two other communities: both links are listed.
  assert.deepEqual(find(rings(4, helper.slice(0, 2))).rows.sort(), ['c1/f1.ts#f1 -> c0/f0.ts#f0', 'c2/f1.ts#f1 -> c0/f0.ts#f0']);
});

test('tiny communities with one link are as connected as expected', () => {
  const doc = rings(2, [{ s: 'c0/f1.ts#f1', t: 'c2/x.ts#x' }, { s: 'c2/x.ts#x', t: 'c3/y.ts#y' }], ['c2/x.ts#x', 'c3/y.ts#y']);
  // c0-c2: 1 link where 62 * 2 / 126 ~ 0.98 are expected; c2-c3: 2 * 1 / 126.
  assert.deepEqual(find(doc).rows, []);
});

test('most surprising first (expected over links), at most two rows per node, a limit, and the same list every time', () => {
  const extra = [
    { s: 'c0/f1.ts#f1', t: 'c1/f1.ts#f1' }, { s: 'c0/f2.ts#f2', t: 'c1/f2.ts#f2' }, // c0-c1: 2 links
    { s: 'c2/f1.ts#f1', t: 'c3/f1.ts#f1' }, // c2-c3: 1 link
    { s: 'c4/f5.ts#f5', t: 'c5/f1.ts#f1' }, { s: 'c4/f5.ts#f5', t: 'c6/f1.ts#f1' }, { s: 'c4/f5.ts#f5', t: 'c7/f1.ts#f1' }, // one source, three pairs
  ];
  const { list, rows } = find(rings(8, extra));
  // c4-c5, c4-c6, c4-c7: 1 link, ~7.8 expected each (ties by pair); c2-c3: 1 link, ~7.6; c0-c1: 2 links, ~7.8.
  assert.deepEqual(rows, ['c4/f5.ts#f5 -> c5/f1.ts#f1', 'c4/f5.ts#f5 -> c6/f1.ts#f1', 'c2/f1.ts#f1 -> c3/f1.ts#f1', 'c0/f1.ts#f1 -> c1/f1.ts#f1']);
  assert.deepEqual(list.map((s) => s.links), [1, 1, 1, 2]);
  assert.ok(list.every((s, i) => i === 0 || s.expected / s.links <= list[i - 1]!.expected / list[i - 1]!.links));
  assert.deepEqual(find(rings(8, extra)).rows, rows);
  assert.equal(find(rings(8, extra), 2).rows.length, 2);
});
