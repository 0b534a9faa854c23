import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineResolutions, tagOfReference, type MemberResolution } from '../../src/mcp/federated/routing.ts';
import { federateDocument, federatedId } from '../../src/mcp/federated/member-load.node.ts';
import type { QueryEngine } from '../../src/query/engine.ts';
import type { GraphDocument } from '../../src/graph/model.ts';

test('tagOfReference() names the member of a tag/id, tag/path or name@tag/file reference; the longest tag wins', () => {
  const tags = ['api', 'api-v2', 'web'];
  assert.equal(tagOfReference('api/src/a.ts#run', tags), 'api');
  assert.equal(tagOfReference('api-v2/src/a.ts', tags), 'api-v2');
  assert.equal(tagOfReference('run@web/src/', tags), 'web');
  assert.equal(tagOfReference('run', tags), undefined);
  assert.equal(tagOfReference('apix/a.ts', tags), undefined);
});

test('combineResolutions() routes a name one member knows, lists every member\'s matches when several do', () => {
  const engine = (id: string, degree: number) => ({ candidate: () => ({ id, label: 'run', source_file: id, kind: 'function', degree, qualified: `run@${id}` }) }) as unknown as QueryEngine;
  const nf = (tag: string): MemberResolution => ({ tag, engine: engine('', 0), res: { status: 'not_found', query: 'run' } });
  const found = (tag: string, degree: number): MemberResolution => ({ tag, engine: engine(`${tag}/a.ts#run`, degree), res: { status: 'found', node: 0, via: 'label' } });
  assert.deepEqual(combineResolutions([nf('a'), found('b', 2), nf('c')], 'run'), { tag: 'b' });
  assert.deepEqual(combineResolutions([nf('a'), nf('b')], 'run'), { tag: 'a' }, 'known nowhere: the first member says so');
  const both = combineResolutions([found('a', 1), found('b', 3)], 'run');
  assert.ok('text' in both);
  assert.equal(both.text, "'run' is ambiguous: 2 nodes match. Pass one of these qualified references:\n  run@b/a.ts#run  [function] degree 3\n  run@a/a.ts#run  [function] degree 1");
});

test('federateDocument() prefixes ids, link ends, files, graph records and shifts communities', () => {
  const doc = {
    directed: true, multigraph: true, hyperedges: [], built_at_commit: null,
    graph: { unresolved_calls: { 'a.ts': 2 }, community_labels: { '0': 'a.ts' }, hazards: [{ kind: 'reflection', scope: 'a.ts#run', source_file: 'a.ts' }] },
    nodes: [{ id: 'a.ts#run', label: 'run', source_file: 'a.ts', community: 0 }],
    links: [{ source: 'a.ts', target: 'a.ts#run', relation: 'contains' }],
  } as unknown as GraphDocument;
  const out = federateDocument(doc, 'api', 2_000_000) as any;
  assert.equal(federatedId('api', 'x'), 'api/x');
  assert.deepEqual(out.nodes[0], { id: 'api/a.ts#run', label: 'run', source_file: 'api/a.ts', community: 2_000_000, repo: 'api' });
  assert.deepEqual(out.links[0], { source: 'api/a.ts', target: 'api/a.ts#run', relation: 'contains' });
  assert.deepEqual(out.graph, { unresolved_calls: { 'api/a.ts': 2 }, community_labels: { '2000000': 'a.ts' }, hazards: [{ kind: 'reflection', scope: 'api/a.ts#run', source_file: 'api/a.ts' }] });
});
