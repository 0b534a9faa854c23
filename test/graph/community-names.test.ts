import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeCommunities } from '../../src/graph/communities.ts';
import { nameCommunity, symbolUse } from '../../src/graph/community-names.ts';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';

/** A crafted graph: `file#Name` ids (a bare path is a file node), kinds and visibility per node. */
function graph(spec: { nodes: (string | [string, Partial<GraphNode>])[]; links: [string, string, string?][] }): GraphDocument {
  const nodes: GraphNode[] = spec.nodes.map((n) => {
    const [id, extra] = typeof n === 'string' ? [n, {}] : n;
    const hash = id.indexOf('#');
    const file = hash < 0 ? id : id.slice(0, hash);
    return {
      id, label: hash < 0 ? id : id.slice(hash + 1), file_type: 'code', source_file: file, source_location: 'L1',
      kind: hash < 0 ? 'file' : 'function', visibility: 'public', ...extra,
    } as GraphNode;
  });
  const links: GraphLink[] = spec.links.map(([s, t, relation = 'calls']) => ({
    source: s, target: t, relation, confidence: 'EXTRACTED', confidence_score: 1, source_file: s.split('#')[0]!, source_location: 'L2',
  }));
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null };
}

function names(doc: GraphDocument, communities: number[][]): string[] {
  const ig = indexGraph(doc);
  const membership = new Int32Array(ig.nodes.length).fill(-1);
  communities.forEach((ids, c) => {
    for (const v of ids) membership[v] = c;
  });
  const use = symbolUse(ig);
  return communities.map((ids) => nameCommunity(ig, ids, use).label);
}

/** Node ids (indices) of a document's nodes whose id passes a test. */
function where(doc: GraphDocument, keep: (id: string) => boolean): number[] {
  return doc.nodes.flatMap((n, i) => (keep(n.id) ? [i] : []));
}

test('a community is named by its dominant folder and its most used public symbols, private helpers last', () => {
  const doc = graph({
    nodes: [
      'src/adapter/bun/serve-static.ts#serveStatic', 'src/adapter/bun/conninfo.ts#getConnInfo',
      ['src/adapter/bun/util.ts#helper', { visibility: 'internal' }], 'src/adapter/bun/websocket.ts#rarelyUsed',
      'src/app.ts#main', 'src/other.ts#run', 'src/third.ts#go',
    ],
    links: [
      // serveStatic is used from three other files, getConnInfo from two, rarelyUsed from one;
      // the private helper from four, and it is still not named while public symbols are used.
      ['src/app.ts#main', 'src/adapter/bun/serve-static.ts#serveStatic'], ['src/other.ts#run', 'src/adapter/bun/serve-static.ts#serveStatic'],
      ['src/third.ts#go', 'src/adapter/bun/serve-static.ts#serveStatic'],
      ['src/app.ts#main', 'src/adapter/bun/conninfo.ts#getConnInfo'], ['src/other.ts#run', 'src/adapter/bun/conninfo.ts#getConnInfo'],
      ['src/app.ts#main', 'src/adapter/bun/websocket.ts#rarelyUsed'],
      ['src/app.ts#main', 'src/adapter/bun/util.ts#helper'], ['src/other.ts#run', 'src/adapter/bun/util.ts#helper'],
      ['src/third.ts#go', 'src/adapter/bun/util.ts#helper'], ['src/adapter/bun/serve-static.ts#serveStatic', 'src/adapter/bun/util.ts#helper'],
    ],
  });
  const [bun, app] = names(doc, [where(doc, (id) => id.startsWith('src/adapter/bun/')), where(doc, (id) => !id.startsWith('src/adapter/bun/'))]);
  assert.equal(bun, 'src/adapter/bun — serveStatic, getConnInfo');
  // Nothing in the other community is used from elsewhere: named by its members in node order.
  assert.equal(app, 'src — main, run');
});

test('a test-only community says so; a community mixing code and its tests is named by the code', () => {
  const doc = graph({
    nodes: [
      'src/math/add.ts#add', 'src/math/add.test.ts#checkAdd', 'src/math/add.test.ts#testAdd', 'src/math/add.test.ts#testAgain',
      'test/helpers/fixture.ts#makeFixture', 'test/helpers/fixture.ts#cleanup', 'test/e2e/run.test.ts#testRun',
    ],
    links: [
      ['src/math/add.test.ts#testAdd', 'src/math/add.ts#add'], ['src/math/add.test.ts#testAgain', 'src/math/add.ts#add'],
      ['src/math/add.test.ts#checkAdd', 'src/math/add.ts#add'],
      ['test/e2e/run.test.ts#testRun', 'test/helpers/fixture.ts#makeFixture'], ['test/e2e/run.test.ts#testRun', 'test/helpers/fixture.ts#cleanup'],
    ],
  });
  const [math, tests] = names(doc, [where(doc, (id) => id.startsWith('src/')), where(doc, (id) => id.startsWith('test/'))]);
  // Three of four members are tests, yet the code names it (the one code file holds all of its code).
  assert.equal(math, 'src/math/add.ts — add');
  assert.equal(tests, 'tests: test/helpers/fixture.ts — makeFixture, cleanup');
  const ig = indexGraph(doc);
  const stats = describeCommunities(ig, Int32Array.from(doc.nodes, (n) => (n.id.startsWith('src/') ? 0 : 1)), 2);
  assert.deepEqual(stats.map((c) => [c.testOnly, c.mostlyTests, c.testMembers, c.size]), [[false, false, 3, 4], [true, true, 3, 3]]);
});

test('a community of at least 90% test code is marked tests:, still named by its few code members', () => {
  const tests = Array.from({ length: 9 }, (_, i) => `src/math/add.test.ts#testAdd${i}`);
  const doc = graph({ nodes: ['src/math/add.ts#add', ...tests], links: tests.map((t): [string, string] => [t, 'src/math/add.ts#add']) });
  assert.deepEqual(names(doc, [doc.nodes.map((_, i) => i)]), ['tests: src/math/add.ts — add']);
  // With 8 of 9 tests (89%) it is not.
  const fewer = graph({ nodes: ['src/math/add.ts#add', ...tests.slice(1)], links: tests.slice(1).map((t): [string, string] => [t, 'src/math/add.ts#add']) });
  assert.deepEqual(names(fewer, [fewer.nodes.map((_, i) => i)]), ['src/math/add.ts — add']);
});

test('the place is the dominant file when one file holds most members or the folder is the root', () => {
  const doc = graph({
    nodes: ['command.go#Command', 'command.go#Execute', 'args.go#ExactArgs', 'lib/big.ts#a', 'lib/big.ts#b', 'lib/big.ts#c', 'lib/small.ts#d'],
    links: [['args.go#ExactArgs', 'command.go#Command'], ['lib/small.ts#d', 'lib/big.ts#b']],
  });
  const [root, lib] = names(doc, [where(doc, (id) => id.endsWith('.go') || id.includes('.go#')), where(doc, (id) => id.startsWith('lib/'))]);
  assert.equal(root, 'command.go — Command, Execute');
  assert.equal(lib, 'lib/big.ts — b, a');
});

test('symbols of the place come before a shared helper the partition put in the community; code before types and errors', () => {
  const doc = graph({
    nodes: [
      'pkg/utils/cast.ts#blindCast', ['pkg/orm/errors.ts#ormError', {}], ['pkg/orm/types.ts#OrmRow', { kind: 'type_alias' }],
      'pkg/orm/collection.ts#Collection', 'pkg/orm/query.ts#runQuery', 'pkg/orm/query.ts#buildQuery', 'pkg/app/a.ts#useA', 'pkg/app/b.ts#useB',
    ],
    links: [
      ...['pkg/orm/collection.ts#Collection', 'pkg/orm/query.ts#runQuery', 'pkg/app/a.ts#useA', 'pkg/app/b.ts#useB'].flatMap((s): [string, string, string?][] => [
        [s, 'pkg/utils/cast.ts#blindCast'], [s, 'pkg/orm/errors.ts#ormError'], [s, 'pkg/orm/types.ts#OrmRow', 'references'],
      ]),
      ['pkg/app/a.ts#useA', 'pkg/orm/collection.ts#Collection'], ['pkg/app/b.ts#useB', 'pkg/orm/query.ts#runQuery'],
      ['pkg/orm/collection.ts#Collection', 'pkg/orm/query.ts#runQuery'],
    ],
  });
  const orm = where(doc, (id) => id.startsWith('pkg/orm/') || id.startsWith('pkg/utils/'));
  // blindCast and ormError are used the most, OrmRow next: the place's code comes first.
  assert.equal(names(doc, [orm])[0], 'pkg/orm — runQuery, Collection');
  // With no other code, the type is named before the error.
  const shapes = where(doc, (id) => id.startsWith('pkg/orm/errors') || id.startsWith('pkg/orm/types'));
  assert.equal(names(doc, [shapes])[0], 'pkg/orm — OrmRow, ormError');
});

test('a type and its own member are not both named (members found by containment, or by label as Go declares them)', () => {
  const doc = graph({
    nodes: [
      ['src/ctx.ts#Context', { kind: 'class' }], ['src/ctx.ts#Context.text', { kind: 'method' }], ['src/ctx.ts#Context.constructor', { kind: 'constructor' }],
      'src/util.ts#helper',
      ['command.go#Command', { kind: 'struct' }], ['command.go#Command.Execute', { kind: 'method' }], ['completions.go#Command.Complete', { kind: 'method' }],
      'args.go#ExactArgs',
      'a.ts#x', 'b.ts#y',
    ],
    links: [
      ['src/ctx.ts#Context', 'src/ctx.ts#Context.text', 'method'], ['src/ctx.ts#Context', 'src/ctx.ts#Context.constructor', 'method'],
      ['a.ts#x', 'src/ctx.ts#Context.text'], ['b.ts#y', 'src/ctx.ts#Context.text'], ['a.ts#x', 'src/ctx.ts#Context.constructor', 'instantiates'],
      ['a.ts#x', 'src/util.ts#helper'],
      ['a.ts#x', 'completions.go#Command.Complete'], ['b.ts#y', 'completions.go#Command.Complete'], ['a.ts#x', 'args.go#ExactArgs'],
    ],
  });
  const [ts, go] = names(doc, [where(doc, (id) => id.startsWith('src/')), where(doc, (id) => id.includes('.go'))]);
  // Context gathers its members' uses (3), ranks first, and its method is skipped for the next symbol.
  assert.equal(ts, 'src/ctx.ts — Context, helper');
  assert.equal(go, 'command.go — Command, ExactArgs');
});

test('a long symbol name is cut; a community without files is named so', () => {
  const long = `src/a.ts#${'veryLongName'.repeat(8)}`;
  const doc = graph({ nodes: [long, ['external#x', { source_file: '' }]], links: [] });
  const [a, none] = names(doc, [[0], [1]]);
  assert.equal(a, `src/a.ts — ${'veryLongName'.repeat(8).slice(0, 47)}…`);
  assert.equal(none, '(no file)');
});

test("a library's front door, used by its tests and users, names the community before plumbing its own code calls", () => {
  const tests = Array.from({ length: 4 }, (_, i) => `tests/test_${i}.py#test_${i}`);
  const doc = graph({
    nodes: ['src/requests/sessions.py#Session', 'src/requests/utils.py#merge_setting', 'src/requests/models.py#Response', ...tests],
    links: [
      ...tests.map((t): [string, string] => [t, 'src/requests/sessions.py#Session']),
      ['src/requests/sessions.py#Session', 'src/requests/utils.py#merge_setting'], ['src/requests/models.py#Response', 'src/requests/utils.py#merge_setting'],
    ],
  });
  assert.deepEqual(names(doc, [[0, 1, 2]]), ['src/requests — Session, merge_setting']);
});
