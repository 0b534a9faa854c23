/**
 * Java call recall on a committed fixture with a hand-checked truth (#17, other languages):
 * test/fixtures/recall-java (field receivers, builder chains, a class's own name beside its
 * constructor, overloads by arity and argument types, this(..)/super(..), interface constants, a
 * field initializer's lambda), every call pair listed in truth.tsv. Precision and recall of the
 * calls + instantiates links that are not AMBIGUOUS must both be 1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/recall-java', import.meta.url));

test('the extractor finds every hand-checked Java call of the fixture, and nothing else', async () => {
  const truth = new Set(readFileSync(join(FIXTURE, 'truth.tsv'), 'utf8').split('\n').filter(Boolean));
  const ex = await extractRepo(FIXTURE);
  const ours = new Set<string>();
  for (const l of ex.result.links) {
    if ((l.relation === 'calls' || l.relation === 'instantiates') && l.confidence !== 'AMBIGUOUS') ours.add(`${l.source}\t${l.target}`);
  }
  assert.deepEqual([...truth].filter((p) => !ours.has(p)), [], 'missed calls');
  assert.deepEqual([...ours].filter((p) => !truth.has(p)), [], 'calls not in the truth');
});

test('Java signatures keep a varargs parameter, typed T...', async () => {
  const ex = await extractRepo(FIXTURE);
  const join = ex.result.nodes.find((n) => n.id === 'src/shop/util/Names.java#Names.join~2');
  assert.deepEqual(join?.signature?.params.map((p) => `${p.name}:${p.type}`), ['sep:String', 'parts:String...']);
});
