import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import { loadGraph } from '../../src/graph/load.node.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { buildEngine } from '../../src/mcp/live-graph.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { packPostings, unpackPostings } from '../../src/query/postings.ts';
import { GraphIndex } from '../../src/query/graph-index.ts';

const traversal = coreTraversal(await Core.load());

/** A code-shaped graph: members, snake/camel names, test and example files, doc comments, calls. */
function graph(n: number): GraphDocument {
  let s = 7;
  const rnd = (k: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % k;
  };
  const names = ['parseConfig', 'Router.match', 'load_user', 'renderPage', 'TokenCache.refresh', 'handleRequest', 'validate', 'HTTPServer.listen'];
  const dirs = ['src', 'src/router', 'test', 'examples'];
  const docs = ['Parses the configuration file.', 'Refreshes the cached token of a user session.', undefined];
  const nodes = Array.from({ length: n }, (_, i) => {
    const file = `${dirs[rnd(dirs.length)]}/m${i % 23}.ts`;
    return i % 10 === 0
      ? { id: `${file}#file${i}`, label: file, kind: 'file', file_type: 'code', source_file: file, source_location: 'L1' }
      : { id: `${file}#n${i}`, label: names[rnd(names.length)]!, kind: rnd(5) ? 'function' : 'interface', file_type: 'code', source_file: file, source_location: `L${1 + rnd(90)}`, doc: docs[rnd(docs.length)], span: { start_line: 1 + rnd(50), end_line: 60 + rnd(90) } };
  });
  const rels = ['calls', 'calls', 'references', 'imports', 'method'];
  const links = Array.from({ length: n * 3 }, () => {
    const a = nodes[rnd(n)]!;
    return { source: a.id, target: nodes[rnd(n)]!.id, relation: rels[rnd(rels.length)]!, confidence: 'EXTRACTED', source_file: a.source_file, source_location: `L${1 + rnd(90)}` };
  });
  return { directed: true, multigraph: true, graph: {}, nodes, links, hyperedges: [], built_at_commit: null } as unknown as GraphDocument;
}

const QUESTIONS = ['how is the config parsed', 'router match', 'refresh the user token', 'validate request', 'HTTPServer.listen', 'render page examples'];

test('packPostings() and unpackPostings() give back the same lists', () => {
  const ix = new GraphIndex(graph(600));
  const p = unpackPostings(structuredClone(packPostings(ix.postings())));
  for (const kind of ['label', 'path', 'doc', 'owner'] as const) assert.deepEqual([...p[kind]], [...ix.postings()[kind]], kind);
  assert.deepEqual([...p.words], [...ix.labelWords]);
});

test('a graph loaded from graph.cbor takes query_graph\'s index from a worker thread, and ranks as one built here', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-rank-worker-'));
  try {
    const doc = graph(3000);
    writeFileSync(join(dir, 'graph.json'), JSON.stringify(doc));
    writeFileSync(join(dir, 'graph.cbor'), encodeGraph(doc));
    const logs: string[] = [];
    const loaded = await loadGraph(join(dir, 'graph.json'));
    assert.equal(loaded.format, 'cbor');
    const engine = buildEngine(loaded, traversal, (line) => logs.push(line));
    assert.ok(engine.rankIndexReady, 'a worker thread builds the index');
    // The warm-up leaves the ranking index to the worker: nothing of it is built on this thread.
    engine.warm();
    await engine.rankIndexReady;
    assert.deepEqual(logs, []);
    // Built here: the same graph from graph.json, no worker.
    const here = buildEngine({ ...(await loadGraph(join(dir, 'graph.json'))), bytes: undefined }, traversal);
    assert.equal(here.rankIndexReady, undefined);
    assert.ok(QUESTIONS.every((q) => here.rank(q).nodes.length > 0));
    for (const q of QUESTIONS) assert.deepEqual(engine.rank(q), here.rank(q), q);
    // The adopted postings are the worker's: this thread never built its own.
    assert.equal(engine.ix.adoptPostings(here.ix.postings()), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a worker that cannot build leaves the index to the first call that needs it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-rank-worker-'));
  try {
    const doc = graph(300);
    writeFileSync(join(dir, 'graph.json'), JSON.stringify(doc));
    writeFileSync(join(dir, 'graph.cbor'), encodeGraph(doc));
    const logs: string[] = [];
    const loaded = await loadGraph(join(dir, 'graph.json'));
    // Bytes the thread cannot decode (the served snapshot itself is fine).
    const engine = buildEngine({ ...loaded, bytes: new Uint8Array([1, 2, 3]) }, traversal, (line) => logs.push(line));
    await engine.rankIndexReady;
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /not built on a worker thread/);
    const here = buildEngine({ ...loaded, bytes: undefined }, traversal);
    for (const q of QUESTIONS) assert.deepEqual(engine.rank(q), here.rank(q), q);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
