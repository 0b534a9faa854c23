import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { GraphIndex } from '../../src/query/graph-index.ts';
import { ExplorerGraph } from '../../src/explorer/queries.ts';
import { communityKey, communityMapScene, communityScene, focusScene, thousands } from '../../src/explorer/scenes.ts';

// What each explorer view draws, from a small graph with named communities.

let core: Core;
before(async () => {
  core = await Core.load();
});

const measure = { lineHeight: 15, ascent: 11, text: (t: string) => [...t].length * 7 };
const box = { width: 900, height: 600 };

/** Three communities: 0 (5 nodes) and 1 (3 nodes) coupled by 3 edges, 2 (2 nodes) coupled to 0 by 1. */
function graph(): { eg: ExplorerGraph; free: () => void } {
  const community = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2];
  const nodes: GraphNode[] = community.map((c, i) => ({ id: `f${c}.ts#n${i}`, label: `n${i}`, file_type: 'code', source_file: `f${c}.ts`, source_location: `L${i + 1}`, kind: 'function', community: c }));
  const pairs: [number, number][] = [[0, 1], [1, 2], [2, 3], [3, 4], [0, 5], [1, 6], [7, 2], [5, 6], [6, 7], [8, 0], [8, 9]];
  const links: GraphLink[] = pairs.map(([s, t]) => ({ source: nodes[s]!.id, target: nodes[t]!.id, relation: 'calls', confidence: 'EXTRACTED', confidence_score: 1, source_file: nodes[s]!.source_file, source_location: 'L1' }));
  const d: GraphDocument = { directed: true, multigraph: true, graph: { community_labels: { 0: 'src/core (router, context)', 1: 'lib <b>\u001b[31m', 2: 'tools' } }, nodes, links, hyperedges: [], built_at_commit: null };
  const ix = new GraphIndex(d);
  const g = core.graph({ n: ix.n, src: ix.g.src, dst: ix.g.dst, rel: ix.g.rel });
  return { eg: new ExplorerGraph(ix, g), free: () => g.free() };
}

test('the community map: one node per community, sized by members, named from community_labels, edges weighted by coupling', () => {
  const { eg, free } = graph();
  try {
    const map = communityMapScene(eg, 80);
    assert.equal(map.shown, 3);
    const scene = map.build(box, measure);
    assert.deepEqual(scene.nodes.map((n) => n.key), [communityKey(0), communityKey(1), communityKey(2)]);
    const [c0, c1, c2] = scene.nodes;
    assert.equal(c0!.label, 'src/core (router, context)');
    assert.ok(!/\u001b/.test(c1!.label), 'names are sanitized');
    assert.equal(c2!.label, 'tools');
    assert.ok(c0!.r > c1!.r && c1!.r > c2!.r, 'area follows the member count');
    const width = new Map(scene.edges.map((e) => [[e.source, e.target].sort().join(' '), e.width!]));
    assert.equal(width.size, 2);
    assert.ok(width.get([communityKey(0), communityKey(1)].sort().join(' '))! > width.get([communityKey(0), communityKey(2)].sort().join(' '))!);
    assert.match(c0!.detail!.join('\n'), /5 members\n3 edges with .*\n1 edge with tools/);
  } finally {
    free();
  }
});

test('a community view holds its members with the edges among them; the focus view holds the callers and callees', () => {
  const { eg, free } = graph();
  try {
    const community = communityScene(eg, 0).build(box, measure);
    assert.deepEqual(community.nodes.map((n) => n.key).sort(), ['f0.ts#n0', 'f0.ts#n1', 'f0.ts#n2', 'f0.ts#n3', 'f0.ts#n4']);
    assert.deepEqual(community.edges.map((e) => `${e.source}>${e.target}`).sort(), ['f0.ts#n0>f0.ts#n1', 'f0.ts#n1>f0.ts#n2', 'f0.ts#n2>f0.ts#n3', 'f0.ts#n3>f0.ts#n4']);
    const n2 = eg.ix.g.idOf.get('f0.ts#n2')!;
    const focus = focusScene(eg, n2, new Set()).build(box, measure);
    const at = new Map(focus.nodes.map((n) => [n.key, n]));
    assert.deepEqual([...at.keys()].sort(), ['f0.ts#n1', 'f0.ts#n2', 'f0.ts#n3', 'f1.ts#n7']);
    const centre = at.get('f0.ts#n2')!;
    assert.ok(centre.highlight);
    assert.ok(at.get('f0.ts#n1')!.x < centre.x && at.get('f1.ts#n7')!.x < centre.x, 'callers on the left');
    assert.ok(at.get('f0.ts#n3')!.x > centre.x, 'callee on the right');
    assert.equal(at.get('f0.ts#n1')!.badge, '+1', 'n1 has a caller not shown (n0)');
    assert.equal(at.get('f0.ts#n3')!.badge, '+1', 'n3 has a callee not shown (n4)');
    const n1 = eg.ix.g.idOf.get('f0.ts#n1')!;
    const grown = focusScene(eg, n2, new Set([n1])).build(box, measure);
    const n0 = grown.nodes.find((n) => n.key === 'f0.ts#n0')!;
    assert.ok(n0.x < grown.nodes.find((n) => n.key === 'f0.ts#n1')!.x, 'the expanded caller\'s caller sits further left');
    assert.equal(grown.nodes.find((n) => n.key === 'f0.ts#n1')!.badge, '−');
  } finally {
    free();
  }
});

test('thousands() groups digits without Intl', () => {
  assert.deepEqual([0, 999, 1000, 1234567].map(thousands), ['0', '999', '1,000', '1,234,567']);
});
