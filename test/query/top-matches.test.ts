import assert from 'node:assert/strict';
import { test } from 'node:test';
import { topMatches } from '../../src/query/rank.ts';

test('topMatches() gives the k best ids by (score desc, id asc), as a full sort would, ties and small inputs included', () => {
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed % n;
  };
  for (let round = 0; round < 500; round++) {
    const n = 1 + rnd(400);
    // Few distinct scores on some rounds, so many ties are broken by id.
    const levels = round % 3 === 0 ? 1 + rnd(4) : 1000;
    const score = new Float64Array(n);
    for (let v = 0; v < n; v++) score[v] = rnd(levels) / 7;
    const count = rnd(n + 1);
    const ids = new Int32Array(n);
    for (let i = 0; i < n; i++) ids[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = rnd(i + 1);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const k = 1 + rnd(150);
    const expected = Array.from(ids.subarray(0, count))
      .sort((a, b) => score[b]! - score[a]! || a - b)
      .slice(0, k);
    const before = ids.slice();
    assert.deepEqual(topMatches(ids, count, score, k), expected, JSON.stringify({ round, n, count, k }));
    assert.deepEqual(ids, before, 'the input ids are left as they were');
    // The same scores as a field of a record per id (rankQuery's layout: 16 doubles, the score third).
    const records = new Float64Array(n * 16).fill(-1);
    for (let v = 0; v < n; v++) records[v * 16 + 2] = score[v]!;
    assert.deepEqual(topMatches(ids, count, records, k, 16, 2), expected, `records: ${JSON.stringify({ round, n, count, k })}`);
  }
});
