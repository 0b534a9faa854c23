// graph.cbor carries its length and an XXH32 checksum (snapshot-envelope.ts): a flipped bit, a torn
// or truncated file is refused before anything is decoded, and version 1 readers refuse the file by
// its version number.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Encoder, decode } from 'cbor-x';
import { xxh32 } from '../../src/graph/checksum.ts';
import { GraphLoadError, loadGraph } from '../../src/graph/load.node.ts';
import { SNAPSHOT_FORMAT, decodeGraph, decodeSnapshot } from '../../src/graph/snapshot.ts';
import { EncodeMemo, encodeGraph } from '../../src/graph/snapshot-encode.ts';
import { SNAPSHOT_HEADER_BYTES, SnapshotDamagedError, openSnapshot, snapshotChecksum } from '../../src/graph/snapshot-envelope.ts';
import type { GraphDocument } from '../../src/graph/model.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

test('xxh32 gives the reference values (seed 0), also for unaligned and short inputs', () => {
  assert.equal(xxh32(new Uint8Array(0)), 0x02cc5d05);
  assert.equal(xxh32(text('a')), 0x550d7456);
  assert.equal(xxh32(text('abc')), 0x32d153ff);
  assert.equal(xxh32(text('Nobody inspects the spammish repetition')), 0xe2293b2f);
  const long = text('0123456789abcdef'.repeat(64) + 'xyz');
  const shifted = new Uint8Array(long.length + 1);
  shifted.set(long, 1);
  assert.equal(xxh32(shifted.subarray(1)), xxh32(long), 'an unaligned view hashes like an aligned copy');
});

function smallGraph(): GraphDocument {
  const nodes = Array.from({ length: 12 }, (_, i) => ({
    id: `src/m${i % 3}.ts::f${i}`, label: `f${i}()`, file_type: 'code', source_file: `src/m${i % 3}.ts`, source_location: `L${i + 1}`,
    kind: 'function' as const, language: 'typescript', community: i % 4,
  }));
  const links = nodes.slice(1).map((n, i) => ({ source: nodes[i]!.id, target: n.id, relation: 'calls', confidence: 'EXTRACTED' as const, confidence_score: 1, source_file: nodes[i]!.source_file, source_location: `L${i + 2}` }));
  return { directed: true, multigraph: true, graph: { name: 'small' }, nodes, links, hyperedges: [], built_at_commit: null };
}

test('graph.cbor is a 64-byte header (format, version 2, checksum, length) then the columns', () => {
  const doc = smallGraph();
  const bytes = encodeGraph(doc);
  const outer = decode(bytes) as { format: string; version: number; xxh32: number; columns: Uint8Array };
  // What a version 1 reader sees: our format at a version it does not support (and it refuses by name).
  assert.equal(outer.format, SNAPSHOT_FORMAT);
  assert.equal(outer.version, 2);
  assert.equal(outer.columns.length, bytes.length - SNAPSHOT_HEADER_BYTES);
  assert.equal(outer.xxh32, xxh32(bytes.subarray(SNAPSHOT_HEADER_BYTES)));
  assert.equal(snapshotChecksum(bytes), outer.xxh32);
  assert.deepEqual(decodeGraph(bytes), doc);
  // A keeper's encode (into its reused output buffer, header room in front) gives the same bytes.
  const memo = new EncodeMemo();
  memo.allocate = (n) => Buffer.allocUnsafeSlow(n);
  for (let round = 0; round < 3; round++) assert.ok(Buffer.from(encodeGraph(doc, undefined, { memo })).equals(Buffer.from(bytes)), `memo encode ${round}`);
});

test('every flipped bit and every truncation of graph.cbor is refused, never decoded', () => {
  const bytes = encodeGraph(smallGraph());
  let damaged = 0;
  for (let at = 0; at < bytes.length; at++) {
    for (let bit = 0; bit < 8; bit++) {
      const copy = Uint8Array.from(bytes);
      copy[at]! ^= 1 << bit;
      assert.throws(() => decodeSnapshot(copy), (err: Error) => {
        if (err instanceof SnapshotDamagedError) damaged++;
        return /Cannot decode graph snapshot/.test(err.message);
      }, `bit ${bit} of byte ${at}`);
    }
  }
  // Flips in the body and the checksum are named as damage; a few in the header's text read as another file.
  assert.ok(damaged >= 8 * (bytes.length - SNAPSHOT_HEADER_BYTES), `${damaged} damaged of ${8 * bytes.length}`);
  for (let length = 0; length < bytes.length; length++) {
    assert.throws(() => openSnapshot(bytes.subarray(0, length)), /Cannot decode graph snapshot/, `cut at ${length}`);
  }
  const longer = new Uint8Array(bytes.length + 1);
  longer.set(bytes);
  assert.throws(() => openSnapshot(longer), SnapshotDamagedError);
});

test('a version 1 graph.cbor (no checksum) is refused by its version, with what to do', () => {
  const columns = decode(openSnapshot(encodeGraph(smallGraph()))) as Record<string, unknown>;
  const v1 = new Encoder({ useRecords: false, tagUint8Array: true }).encode({ format: SNAPSHOT_FORMAT, version: 1, ...columns });
  assert.throws(() => decodeSnapshot(v1), (err: Error) => err instanceof RangeError && /version 1 is not the supported 2.*synaptic update/.test(err.message));
  assert.throws(() => decodeSnapshot(text('{"nodes": []}')), (err: Error) => err instanceof TypeError && /not a graph.cbor file/.test(err.message));
});

test('loadGraph: a damaged graph.cbor falls back to graph.json with a warning; both damaged is refused naming both', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-cbor-'));
  try {
    const doc = smallGraph();
    const json = join(dir, 'graph.json');
    const cbor = join(dir, 'graph.cbor');
    writeFileSync(json, JSON.stringify(doc));
    const bytes = encodeGraph(doc);
    writeFileSync(cbor, bytes);
    const fine = await loadGraph(json);
    assert.equal(fine.format, 'cbor');
    assert.equal(fine.warning, undefined);

    const flipped = Uint8Array.from(bytes);
    flipped[bytes.length - 7]! ^= 0x10;
    writeFileSync(cbor, flipped);
    const fallback = await loadGraph(json);
    assert.equal(fallback.format, 'json');
    assert.deepEqual(fallback.doc!.nodes, doc.nodes);
    assert.match(fallback.warning!, /graph\.cbor not used: the file is damaged \(checksum .*loaded graph\.json instead.*synaptic update/);

    writeFileSync(cbor, bytes.subarray(0, bytes.length - 100));
    assert.match((await loadGraph(json)).warning!, /damaged .*torn or truncated/);

    writeFileSync(json, JSON.stringify(doc).slice(0, 200));
    writeFileSync(cbor, flipped);
    await assert.rejects(loadGraph(json), (err: Error) => err instanceof GraphLoadError
      && /invalid JSON .*synaptic update.*; and .*graph\.cbor not used: the file is damaged/.test(err.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
