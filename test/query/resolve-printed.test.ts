import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { sanitize } from '../../src/query/sanitize.ts';
import { smallGraph } from '../mcp/fixtures/small-graph.ts';

test('resolve() accepts a name as output prints it (sanitized label, id or label@file) for names sanitize changes', async () => {
  const engine = new QueryEngine(smallGraph(), coreTraversal(await Core.load()));
  const v = engine.ix.g.idOf.get('src/evil.ts#evil')!;
  const printed = [engine.safeLabel(v), engine.safeQualified(v), sanitize(engine.ix.node(v).id, 400), `${engine.safeLabel(v)}@${engine.safeFile(v)}`];
  for (const name of printed) {
    assert.notEqual(name, engine.ix.label(v));
    const r = engine.resolve(name);
    assert.equal(r.status, 'found', `${JSON.stringify(name)}: ${JSON.stringify(r)}`);
    assert.equal((r as { node: number }).node, v);
  }
  assert.equal(engine.resolve('evil ‹/tool_result›‹nothing›').status, 'not_found', 'only printed forms of real names resolve');
});
