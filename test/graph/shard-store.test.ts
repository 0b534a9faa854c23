import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphDocument } from '../../src/graph/model.ts';
import { Shard } from '../../src/graph/store/read.node.ts';
import { CorruptShardError, ShardVersionError } from '../../src/graph/store/schema.node.ts';
import { writeShard } from '../../src/graph/store/write.node.ts';

function doc(): GraphDocument {
  const node = (id: string, file: string, community: number) => ({ id, label: id.split('#').pop()!, kind: 'function' as const, file_type: 'code', source_file: file, source_location: 'L1', community });
  const link = (source: string, target: string, file: string) => ({ source, target, relation: 'calls', confidence: 'EXTRACTED' as const, confidence_score: 1, source_file: file, source_location: 'L2' });
  return {
    directed: true, multigraph: true, built_at_commit: null, graph: { name: 'demo' },
    nodes: [node('a.ts#f', 'a.ts', 0), node('a.ts#g', 'a.ts', 1), node('b.ts#h', 'b.ts', 1)],
    links: [link('a.ts#f', 'a.ts#g', 'a.ts'), link('a.ts#f', 'b.ts#h', 'a.ts'), link('b.ts#h', 'a.ts#f', 'b.ts')],
    hyperedges: [],
  };
}

test('a shard round-trips the document and answers neighbour queries', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'shard-')), 'graph.shard');
  const d = doc();
  writeShard(path, d, { tag: 'demo' });
  const shard = Shard.open(path, { verify: true });
  assert.equal(JSON.stringify(shard.document()), JSON.stringify(d));
  assert.deepEqual(shard.outLinks('a.ts#f').map((l) => l.target), ['a.ts#g', 'b.ts#h']);
  assert.deepEqual(shard.inLinks('a.ts#f').map((l) => l.source), ['b.ts#h']);
  assert.deepEqual(shard.nodesInFile('a.ts').map((n) => n.id), ['a.ts#f', 'a.ts#g']);
  assert.equal(shard.node('b.ts#h')?.community, 1);
  shard.close();
});

test('a flipped byte in a row is detected with the tag named', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'shard-')), 'graph.shard');
  writeShard(path, doc(), { tag: 'demo' });
  const bytes = readFileSync(path);
  const at = bytes.indexOf(Buffer.from('"source_location":"L2"'));
  assert.ok(at > 0);
  bytes[at + 20] = '9'.charCodeAt(0);
  writeFileSync(path, bytes);
  assert.throws(() => Shard.open(path, { verify: true }), (err: unknown) => err instanceof CorruptShardError && /'demo'/.test(err.message));
});

test('a shard of a newer format is refused', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'shard-')), 'graph.shard');
  writeShard(path, doc(), { tag: 'demo' });
  const bytes = readFileSync(path);
  bytes.writeUInt32BE(99, 60);
  writeFileSync(path, bytes);
  assert.throws(() => Shard.open(path), (err: unknown) => err instanceof ShardVersionError && /newer synaptic/.test(err.message));
});

test('a write that fails part-way leaves the old shard intact', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'shard-')), 'graph.shard');
  const d = doc();
  writeShard(path, d, { tag: 'demo' });
  const changed = doc();
  changed.nodes[0]!.label = 'renamed';
  assert.throws(() => writeShard(path, changed, { tag: 'demo', failAfterRows: 2 }), /stopped/);
  const shard = Shard.open(path, { verify: true });
  assert.equal(JSON.stringify(shard.document()), JSON.stringify(d));
  shard.close();
});
