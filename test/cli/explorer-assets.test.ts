// The explorer (`synaptic explore`, `export html`) serves graph.cbor when it is the newer file; a
// damaged or older-format graph.cbor must not break the page while a good graph.json sits beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGraphSnapshot } from '../../src/cli/explorer-assets.ts';
import { decodeGraph } from '../../src/graph/snapshot.ts';
import { encodeGraph } from '../../src/graph/snapshot-encode.ts';
import type { GraphDocument } from '../../src/graph/model.ts';

function doc(): GraphDocument {
  const nodes = ['a', 'b'].map((n) => ({ id: `src/${n}.ts::${n}`, label: `${n}()`, file_type: 'code', source_file: `src/${n}.ts`, source_location: 'L1', kind: 'function' as const, language: 'typescript', community: 0 }));
  const links = [{ source: nodes[0]!.id, target: nodes[1]!.id, relation: 'calls', confidence: 'EXTRACTED' as const, confidence_score: 1, source_file: 'src/a.ts', source_location: 'L2' }];
  return { directed: true, multigraph: true, graph: { name: 'two' }, nodes, links, hyperedges: [], built_at_commit: null };
}

test('a damaged or old graph.cbor newer than graph.json: the explorer reads graph.json instead', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-explorer-assets-'));
  try {
    const paths = { json: join(dir, 'graph.json'), cbor: join(dir, 'graph.cbor') };
    writeFileSync(paths.json, JSON.stringify(doc()));
    const good = encodeGraph(doc());
    for (const bad of [good.subarray(0, good.length - 7), Uint8Array.from(good, (b, i) => (i === good.length - 3 ? b ^ 1 : b)), new TextEncoder().encode('{"format":"synaptic-graph-columns","version":1}')]) {
      writeFileSync(paths.cbor, bad);
      utimesSync(paths.cbor, new Date(), new Date(Date.now() + 5_000));
      assert.deepEqual(decodeGraph(readGraphSnapshot(paths)), doc());
    }
    writeFileSync(paths.cbor, good);
    utimesSync(paths.cbor, new Date(), new Date(Date.now() + 5_000));
    assert.deepEqual(new Uint8Array(readGraphSnapshot(paths)), good, 'a sound newer graph.cbor is served as it is');
    rmSync(paths.json);
    writeFileSync(paths.cbor, good.subarray(0, 100));
    assert.throws(() => readGraphSnapshot(paths), /Cannot load the graph: .*graph\.cbor: the file is damaged.*run `synaptic update`/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
