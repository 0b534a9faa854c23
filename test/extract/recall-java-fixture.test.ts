/**
 * Java call recall on a committed fixture with a hand-checked truth (#17, other languages):
 * test/fixtures/recall-java (field receivers, builder chains, a class's own name beside its
 * constructor, overloads by arity and argument types, this(..)/super(..), interface constants, a
 * field initializer's lambda), every call pair listed in truth.tsv. Precision and recall of the
 * calls + instantiates links that are not AMBIGUOUS must both be 1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertMatchesTruth } from '../helpers/recall-truth.ts';
import { fileURLToPath } from 'node:url';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/recall-java', import.meta.url));

test('the extractor finds every hand-checked Java call of the fixture, and nothing else', async () => {
  await assertMatchesTruth(FIXTURE);
});

test('Java signatures keep a varargs parameter, typed T...', async () => {
  const ex = await extractRepo(FIXTURE);
  const join = ex.result.nodes.find((n) => n.id === 'src/shop/util/Names.java#Names.join~2');
  assert.deepEqual(join?.signature?.params.map((p) => `${p.name}:${p.type}`), ['sep:String', 'parts:String...']);
});
