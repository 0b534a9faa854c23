import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeCommunities } from '../../src/graph/communities.ts';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../../src/graph/model.ts';
import { edgeConfidence, surprisingConnections } from '../../src/graph/surprises.ts';
import { renderReport } from '../../src/extract/outputs/report.ts';

/**
 * A small library: src/index.ts re-exports the router and the db; each is a ring of functions in its
 * own folder (community 0 and 1); the router calls the db once (the surprise); a test imports and
 * calls the router; a file named with an escape sequence sits in the db.
 */
function library(): GraphDocument {
  const nodes: GraphNode[] = [];
  const links: GraphLink[] = [];
  const file = (path: string, community: number, extra: Partial<GraphNode> = {}): void => {
    nodes.push({ id: path, label: path.split('/').pop()!, file_type: 'code', source_file: path, source_location: 'L1', kind: 'file', community, ...extra });
  };
  const fn = (path: string, name: string, community: number, extra: Partial<GraphNode> = {}): string => {
    const id = `${path}#${name}`;
    nodes.push({ id, label: name, file_type: 'code', source_file: path, source_location: 'L2', kind: 'function', visibility: 'public', exported: true, community, ...extra });
    return id;
  };
  const link = (source: string, target: string, relation = 'calls'): void => {
    links.push({ source, target, relation, confidence: 'EXTRACTED', confidence_score: 1, source_file: source.split('#')[0]!, source_location: 'L5' });
  };
  file('src/index.ts', 0);
  const ring = (folder: string, names: string[], community: number): string[] => {
    const ids = names.map((n) => {
      file(`${folder}/${n}.ts`, community);
      return fn(`${folder}/${n}.ts`, n, community);
    });
    ids.forEach((id, i) => {
      for (let j = 1; j <= 3; j++) link(id, ids[(i + j) % ids.length]!);
    });
    return ids;
  };
  const router = ring('src/router', ['addRoute', 'matchRoute', 'compileRoute', 'routeTable', 'splitPath', 'joinPath', 'routeKey', 'routeName'], 0);
  const db = ring('src/db', ['runQuery', 'buildQuery', 'openConnection', 'closeConnection', 'escapeValue', 'poolSize', 'dbName', 'quoteName'], 1);
  for (const id of db.slice(0, 3)) link(id, db[4]!); // escapeValue is the db's most used
  link('src/index.ts', 'src/router/addRoute.ts', 're_exports');
  link('src/index.ts', 'src/db/runQuery.ts', 're_exports');
  link('src/index.ts', 'src/router/addRoute.ts', 'imports');
  link(router[1]!, db[0]!); // the surprise: the router's only use of the db
  link('src/router/matchRoute.ts', 'src/db/runQuery.ts', 'imports'); // an import alone is no surprise
  file('test/router.test.ts', 1, { is_test: true });
  const testFn = fn('test/router.test.ts', 'testRoutes', 1);
  link(testFn, router[0]!);
  link(testFn, db[2]!);
  // Community 2: a file and a symbol with escape sequences and bidi controls in their names, used
  // from three router files (so it is named, listed to read, and in the table).
  const hostile = 'src/\u001b[31mred\u001b[0m/paint.ts';
  file(hostile, 2);
  const paint = fn(hostile, 'paint\u202e\u001b[2J', 2);
  for (const id of router.slice(3, 6)) link(id, paint);
  // Community 3: only types, used from four router files: named, but no place to start reading.
  file('src/types/row.ts', 3);
  const row = fn('src/types/row.ts', 'Row', 3, { kind: 'type_alias' });
  const cell = fn('src/types/row.ts', 'Cell', 3, { kind: 'interface' });
  for (const id of router.slice(0, 4)) link(id, row, 'references');
  link(router[0]!, cell, 'references');
  return { directed: true, multigraph: true, graph: { name: 'lib', languages: { typescript: 21 } }, nodes, links, hyperedges: [], built_at_commit: null };
}

function render(doc: GraphDocument): string {
  const ig = indexGraph(doc);
  const communities = describeCommunities(ig, Int32Array.from(doc.nodes, (n) => n.community!), 4);
  return renderReport({ doc, indexed: ig, communities, algorithm: 'leiden-core' });
}

function section(report: string, title: string): string {
  const start = report.indexOf(`## ${title}\n`);
  assert.ok(start >= 0, `no section ${title}`);
  const end = report.indexOf('\n## ', start + 3);
  return report.slice(start, end < 0 ? undefined : end);
}

test('GRAPH_REPORT.md starts with what to read first: the entry file, then the most used code of each community (not its types)', () => {
  const start = section(render(library()), 'Start reading here');
  assert.deepEqual(start.split('\n').filter((l) => /^\d+\. /.test(l)), [
    '1. `src/index.ts`: entry point (index file near the root): imports from 2 files, re-exports from 2.',
    '2. `escapeValue` (src/db/escapeValue.ts): function used from 6 places in 4 other files; the most used code of community 1 "src/db — escapeValue, runQuery".',
    '3. `addRoute` (src/router/addRoute.ts): function used from 4 places in 4 other files (1 of them tests); the most used code of community 0 "src/router — addRoute, matchRoute".',
    '4. `paint [2J` (src/ [31mred [0m/paint.ts): function used from 3 places in 3 other files; the most used code of community 2 "src/ [31mred [0m/paint.ts — paint [2J".',
  ]);
});

test('GRAPH_REPORT.md names communities by folder and symbols and lists the one real surprise with why', () => {
  const doc = library();
  const report = render(doc);
  const communities = section(report, 'Communities');
  assert.match(communities, /\n\| 1 \| src\/db — escapeValue, runQuery \| 18 \| 11\.1% \| /);
  assert.match(communities, /\n\| 0 \| src\/router — addRoute, matchRoute \| 17 \| 0\.0% \| /);
  assert.match(communities, /\n\| 3 \| src\/types\/row\.ts — Row, Cell \| 3 \| 0\.0% \| /);
  // The router's one call into the db, not its import, nor the test's call to the router.
  const surprises = section(report, 'Surprising connections').split('\n').filter((l) => l.startsWith('- '));
  assert.deepEqual(surprises, [
    '- `matchRoute` calls `runQuery` (src/router/matchRoute.ts:L5 -> src/db/runQuery.ts): 1 of 2 links between 0 "src/router — addRoute, matchRoute" and 1 "src/db — escapeValue, runQuery", ' +
      'where ~27 would be expected from how linked each is.',
  ]);
  // The list is graph/surprises.ts's, which the synaptic://surprises resource prints too.
  const ig = indexGraph(doc);
  const found = surprisingConnections(ig, Int32Array.from(ig.nodes, (n) => n.community!), edgeConfidence(ig.links));
  assert.deepEqual(found.map((s) => `${ig.links[s.edge]!.source} -> ${ig.links[s.edge]!.target}`), ['src/router/matchRoute.ts#matchRoute -> src/db/runQuery.ts#runQuery']);
});

test('GRAPH_REPORT.md is the same bytes for the same graph and prints every name sanitized', () => {
  const a = render(library());
  assert.equal(render(library()), a);
  assert.match(a, /paint \[2J/, 'the hostile names are in the report');
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(a, /[\u0000-\u0009\u000b-\u001f\u007f\u202e]/, 'no control or bidi character reaches the report');
});
