import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { decodeGraph, decodeSnapshot } from '../../src/graph/snapshot.ts';
import { encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { indexGraph } from '../../src/graph/indexed-graph.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import { sortGraph, stringifyGraph } from '../../src/extract/outputs/graph-json.ts';
import { copyFixture } from './pipeline-fixture.ts';

const OUTPUTS = ['graph.json', 'graph.cbor', 'GRAPH_REPORT.md'];

test('runExtract() twice gives byte-identical outputs (in-process and on tsx worker threads); graph.cbor equals graph.json', async () => {
  const fx = copyFixture();
  try {
    const a = join(fx.dir, 'out-a');
    const b = join(fx.dir, 'out-b');
    await runExtract({ root: fx.dir, outDir: a, workers: 0 });
    // The second run parses on two worker threads loading the .ts sources through tsx.
    await runExtract({ root: fx.dir, outDir: b, workers: 2 });
    for (const name of OUTPUTS) {
      assert.ok(readFileSync(join(a, name)).equals(readFileSync(join(b, name))), `${name} differs between runs`);
    }
    const doc = JSON.parse(readFileSync(join(a, 'graph.json'), 'utf8')) as GraphDocument;
    const ids = doc.nodes.map((n) => n.id);
    assert.deepEqual(ids, [...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)), 'nodes sorted by id');
    assert.equal(new Set(ids).size, ids.length, 'node ids are unique');
    assert.ok(doc.nodes.every((n) => Number.isInteger(n.community)), 'every node has a community');
    assert.ok(Object.keys(doc.graph.community_labels ?? {}).length > 0);
    // The fixture's known structure is present.
    const has = (s: string, t: string, r: string): boolean => doc.links.some((l) => l.source === s && l.target === t && l.relation === r);
    assert.ok(has('src/core/router.ts#Router', 'src/core/base-router.ts#BaseRouter', 'extends'), 'Router extends BaseRouter');
    assert.ok(has('src/core/base-router.ts#BaseRouter', 'src/core/emitter.ts#Emitter', 'extends'), 'BaseRouter extends Emitter');
    assert.ok(doc.links.some((l) => l.target === 'src/util/strings.ts#normalizePath' && l.relation === 'calls'), 'normalizePath has callers');

    // graph.cbor decodes to the same document, and its columns give the core's edge arrays directly.
    const fromCbor = decodeGraph(readFileSync(join(a, 'graph.cbor')));
    assert.deepStrictEqual(fromCbor, doc);
    assert.equal(stringifyGraph(fromCbor), readFileSync(join(a, 'graph.json'), 'utf8'), 'the canonical text round-trips too');
    const snap = decodeSnapshot(readFileSync(join(a, 'graph.cbor')));
    const ig = indexGraph(doc);
    assert.deepEqual(Array.from(snap.link.src), Array.from(ig.src));
    assert.deepEqual(Array.from(snap.link.dst), Array.from(ig.dst));
  } finally {
    fx.cleanup();
  }
});

test('encodeGraph() round-trips absent fields, extras, dangling links and odd values', () => {
  const doc: GraphDocument = {
    directed: true,
    multigraph: true,
    graph: { name: 'odd', failed_files: { 'a.ts': 'x' }, custom: [1, { y: 'z' }] },
    nodes: [
      { id: 'b.ts', label: 'b.ts', file_type: 'code', source_file: 'b.ts', source_location: 'L1', kind: 'file' },
      {
        id: 'b.ts#f', label: 'f', file_type: 'code', source_file: 'b.ts', source_location: 'L2', kind: 'function',
        visibility: 'public', span: { start_line: 2, start_col: 0, end_line: 4, end_col: 1 }, community: 3, is_test: false,
        signature: { params: [{ name: 'a', type: 'number' }, { name: 'b', optional: true, default: '1' }], returns: 'void', raw: 'function f(a: number, b = 1): void' },
        doc: 'Does f. ü 😀', language: 'typescript', loc: 3, tags: ['x'],
      },
      { id: 'b.ts#g', label: 'g', file_type: 'code', source_file: 'b.ts', source_location: 'L9', kind: 'function', community: -1, span: { start_line: 1.5, start_col: 0, end_line: 2, end_col: 0 } },
      { id: 'weird\0id', label: 'nul', file_type: 'code', source_file: 'c.ts', source_location: 'L1', kind: 'variable', signature: { params: [], raw: 'x' } },
    ],
    links: [
      { source: 'b.ts', target: 'b.ts#f', relation: 'contains', confidence: 'EXTRACTED', confidence_score: 1, source_file: 'b.ts', source_location: 'L2' },
      { source: 'b.ts#f', target: 'b.ts#g', relation: 'calls', confidence: 'AMBIGUOUS', confidence_score: 0.333, source_file: 'b.ts', source_location: 'L3', candidates: 2 },
      { source: 'b.ts#f', target: 'missing#x', relation: 'custom_rel', confidence: 'INFERRED', confidence_score: 0.5, source_file: 'b.ts', source_location: 'L3' },
    ],
    hyperedges: [{ nodes: ['b.ts'] }],
    built_at_commit: 'abc',
  };
  const back = decodeGraph(encodeGraph(doc));
  assert.deepStrictEqual(back, doc);
  const plain = { ...doc, nodes: doc.nodes.slice(0, 3) };
  sortGraph(plain);
  assert.equal(stringifyGraph(decodeGraph(encodeGraph(plain))), stringifyGraph(plain));
});
