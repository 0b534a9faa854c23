import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMemoryBench } from '../../bench/memory.bench.ts';

test('runMemoryBench() runs end to end on a small store and reports every measure', () => {
  const r = runMemoryBench({ n: 600, iterations: 40, print: false, seed: 7 });
  assert.equal(r.n, 600);
  for (const l of [r.remember, r.recall, r.recallEmpty, r.readmemory]) {
    assert.ok(l.p50 > 0 && l.p99 >= l.p50 && Number.isFinite(l.mean));
  }
  assert.ok(r.rawBytes > 0 && r.dbBytes > 0 && r.sizeRatio === r.dbBytes / r.rawBytes);
});
