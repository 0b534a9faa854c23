/**
 * Name resolution (#17.4): the name as written (case-sensitive) beats its case variants, and a name
 * no node has is not "ambiguous" among the names that contain it: those come back as similar names,
 * each by a reference that resolves to exactly that node.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import type { GraphDocument, GraphNode } from '../../src/graph/model.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';

const traversal = coreTraversal(await Core.load());

function engineOf(ids: string[]): QueryEngine {
  const nodes: GraphNode[] = ids.map((id) => ({ id, label: id.slice(id.indexOf('#') + 1), kind: 'function', file_type: 'code', source_file: id.split('#')[0]!, source_location: 'L1' }));
  const doc: GraphDocument = { directed: true, multigraph: true, graph: {}, nodes, links: [], hyperedges: [], built_at_commit: null };
  return new QueryEngine(doc, traversal);
}

const e = engineOf(['command.go#Command.Execute', 'command.go#Command.execute', 'url.ts#getPath', 'hono.ts#GetPath', 'a.ts#handler', 'b.ts#handler', 'c.ts#handler1', 'test/x.test.ts#handlerSpy']);
const idOf = (r: ReturnType<QueryEngine['resolve']>): string | undefined => (r.status === 'found' ? e.ix.node(r.node).id : undefined);

test('the exact (case-sensitive) name beats its case variants, label and bare name alike', () => {
  assert.equal(idOf(e.resolve('Command.Execute')), 'command.go#Command.Execute');
  assert.equal(idOf(e.resolve('Command.execute')), 'command.go#Command.execute');
  assert.equal(idOf(e.resolve('getPath')), 'url.ts#getPath');
  assert.equal(idOf(e.resolve('GetPath')), 'hono.ts#GetPath');
  assert.equal(idOf(e.resolve('Execute')), 'command.go#Command.Execute');
  // No exact-case match: every case variant is a candidate.
  const r = e.resolve('command.EXECUTE');
  assert.equal(r.status, 'ambiguous');
  // Two nodes with the exact name stay ambiguous between those two only.
  const two = e.resolve('handler');
  assert.equal(two.status, 'ambiguous');
  if (two.status === 'ambiguous') assert.deepEqual(two.candidates.map((c) => c.id).sort(), ['a.ts#handler', 'b.ts#handler']);
});

test('a name no node has offers the names containing it as similar names that resolve, library first', () => {
  const r = e.resolve('handl');
  assert.equal(r.status, 'not_found');
  if (r.status !== 'not_found') return;
  const similar = r.similar!.map((c) => c.id);
  assert.deepEqual(similar.slice(-1), ['test/x.test.ts#handlerSpy']);
  assert.deepEqual(similar.slice(0, 3).sort(), ['a.ts#handler', 'b.ts#handler', 'c.ts#handler1']);
  for (const c of r.similar!) assert.equal(idOf(e.resolve(c.qualified)), c.id, c.qualified);
  // A unique substring still resolves (the spec's last cascade step).
  assert.equal(idOf(e.resolve('handlerSp')), 'test/x.test.ts#handlerSpy');
});
