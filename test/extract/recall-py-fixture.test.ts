/**
 * Python call recall on a committed fixture with a hand-checked truth (#17, other languages):
 * test/fixtures/recall-py (a package whose functions and methods have `@overload` stubs, generic base
 * classes and annotations (`Kind[int]`), a function returned through `t.Callable`, a receiver whose
 * attributes are assigned (`ctx.args = args` does not rebind ctx), an instance called (`__call__`),
 * `except … as e` and `t.cast(C, x)`, and a
 * receiver typed by an annotation and a constructor, later reset to None), every call pair listed
 * in truth.tsv, counted as bench/accuracy/README.md counts them. Precision and recall of the calls
 * + instantiates links that are not AMBIGUOUS must both be 1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertMatchesTruth } from '../helpers/recall-truth.ts';
import { fileURLToPath } from 'node:url';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/recall-py', import.meta.url));

test('the extractor finds every hand-checked call of the Python recall fixture, and nothing else', async () => {
  await assertMatchesTruth(FIXTURE);
});

test('@overload stubs and their implementation are one node carrying the stubs as overloads', async () => {
  const ex = await extractRepo(FIXTURE);
  const ids = ex.result.nodes.map((n) => n.id);
  assert.deepEqual(ids.filter((id) => /#(render|Cart\.add)(~\d+)?$/.test(id)).sort(), ['shop/cart.py#Cart.add', 'shop/io.py#render']);
  const render = ex.result.nodes.find((n) => n.id === 'shop/io.py#render') as { span?: { start_line: number }; overloads?: { params: { name: string }[] }[] };
  assert.equal(render.span?.start_line, 29); // the implementation's span
  assert.deepEqual(render.overloads?.map((o) => o.params.map((p) => p.name)), [['value'], ['value', 'width']]);
});
