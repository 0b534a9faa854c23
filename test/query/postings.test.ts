import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GraphDocument } from '../../src/graph/model.ts';
import { GraphIndex } from '../../src/query/graph-index.ts';
import { referencePostings } from '../reference/postings.ts';

/** Code-shaped nodes: members of types, overloads, snake/camel/acronym names, files of every depth, doc comments. */
function graph(seed: number, n: number): GraphDocument {
  let s = seed;
  const rnd = (k: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % k;
  };
  const names = ['parse', 'Parse', 'renderPage', 'load_config', 'saveUser', 'getToken', 'Router.match', 'HTTPServer.listen()', 'PreparedRequest.prepare_body', 'cache', 'handle', 'get', 'validatedItems', 'x', 'fooBar(a, b)', 'Query.runQueries', 'the'];
  const docs = ['Parses the configuration file and validates it.', 'Returns the cached token for a user session.', 'a', '', 'Renders the page; the router matched it before. '.repeat(9)];
  const dirs = ['src', 'packages/client/src', 'test', 'lib/utils', 'src/router'];
  const nodes = Array.from({ length: n }, (_, i) => {
    const file = `${dirs[rnd(dirs.length)]}/${names[rnd(names.length)]!.replace(/[^A-Za-z_]/g, '')}${i % 13}.${rnd(2) ? 'ts' : 'go'}`;
    const node: Record<string, unknown> = { id: `${file}#n${i}`, label: i % 11 === 0 ? file : names[rnd(names.length)]!, kind: i % 11 === 0 ? 'file' : 'function', file_type: 'code', source_location: `L${1 + rnd(99)}` };
    if (rnd(10)) node.source_file = file;
    if (rnd(3) === 0) node.doc = docs[rnd(docs.length)];
    return node;
  });
  return { directed: true, multigraph: true, graph: {}, nodes, links: [], hyperedges: [] } as unknown as GraphDocument;
}

const sorted = (entries: Iterable<[string, ArrayLike<number>]>) => [...entries].map(([t, ids]) => [t, Array.from(ids)] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

test('the packed postings hold exactly the lists of the map-of-arrays build, in node order', () => {
  for (const seed of [1, 2, 3, 4]) {
    const ix = new GraphIndex(graph(seed, 4000));
    const ref = referencePostings(ix);
    assert.deepEqual(sorted(ix.labelPostings), sorted(ref.label), `label, seed ${seed}`);
    assert.deepEqual(sorted(ix.pathPostings), sorted(ref.path), `path, seed ${seed}`);
    assert.deepEqual(sorted(ix.docPostings), sorted(ref.doc), `doc, seed ${seed}`);
    assert.deepEqual(sorted(ix.ownerPostings), sorted(ref.owner), `owner, seed ${seed}`);
    assert.deepEqual([...ix.labelWords], [...ref.words], `words, seed ${seed}`);
    for (const [kind, list, map] of [['label', ix.labelPostings, ref.label], ['path', ix.pathPostings, ref.path], ['doc', ix.docPostings, ref.doc], ['owner', ix.ownerPostings, ref.owner]] as const) {
      // Every term of every kind, asked of every kind: present exactly where the reference has it.
      for (const term of [...ref.label.keys(), ...ref.path.keys(), ...ref.doc.keys(), ...ref.owner.keys(), 'nosuchterm']) {
        assert.equal(list.has(term), map.has(term), `${kind}.has(${term})`);
        assert.deepEqual(list.get(term) && [...list.get(term)!], map.get(term), `${kind}.get(${term})`);
      }
    }
  }
});

test('an empty graph has no postings', () => {
  const ix = new GraphIndex(graph(1, 0));
  assert.deepEqual([...ix.labelPostings], []);
  assert.equal(ix.labelPostings.has('parse'), false);
  assert.equal(ix.labelWords.length, 0);
});
