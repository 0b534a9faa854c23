/**
 * Call recall on a committed fixture with a hand-checked truth (#17 item 1): test/fixtures/recall
 * (CommonJS library + TypeScript with a namespace import of an `export *` barrel, nested arrows,
 * module-level calls and callbacks), every call pair listed in truth.tsv, counted as
 * bench/accuracy/README.md counts them. Precision and recall of the calls + instantiates links
 * that are not AMBIGUOUS must both be 1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertMatchesTruth } from '../helpers/recall-truth.ts';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../fixtures/recall', import.meta.url));

test('the extractor finds every hand-checked call of the recall fixture, and nothing else', async () => {
  await assertMatchesTruth(FIXTURE);
});

test('functions used as values in the recall fixture are referenced, not called', async () => {
  const ex = await extractRepo(FIXTURE);
  const refs = ex.result.links.filter((l) => l.relation === 'references').map((l) => `${l.source} -> ${l.target}`);
  assert.ok(refs.includes('src/util/strings.ts#slug -> src/util/strings.ts#word'), refs.join('\n')); // .map(word)
  assert.ok(!ex.result.links.some((l) => l.relation === 'calls' && l.target === 'src/util/strings.ts#word'));
});
