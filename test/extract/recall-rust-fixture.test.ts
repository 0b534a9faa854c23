/**
 * Rust call recall on a committed fixture with a hand-checked truth (#17, other languages):
 * test/fixtures/recall-rust, every call pair listed in truth.tsv. It holds the shapes the
 * rust-lang/log truth (bench/accuracy/truths/rust-log.tsv) showed missing: calls in macro arguments
 * (`assert_eq!(f(), ..)`, nested `format!` inside `assert_eq!`, `vec![..]`), `use super::*;` and
 * `use crate::m::*;` globs, calls through `dyn Trait`, a bounded generic parameter (`<S: Sink>`,
 * `where S: Sink`) and `impl<T: Sink> Sink for &T` (`(**self).write()`) to the trait's method,
 * `Self::f()`, a type alias (`Shop::with_capacity`), an enum variant's methods, a static's type,
 * a field read beside a same-named getter, a tuple-struct constructor, the crate's own name in
 * tests/ (`demo_kv::open()`, Cargo.toml), and a `for` variable that shadows a module of the same
 * name (no link). Precision and recall of the calls + instantiates links that are not AMBIGUOUS
 * must both be 1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertMatchesTruth } from '../helpers/recall-truth.ts';
import { fileURLToPath } from 'node:url';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/recall-rust', import.meta.url));

test('the extractor finds every hand-checked call of the Rust recall fixture, and nothing else', async () => {
  await assertMatchesTruth(FIXTURE);
});

test('calls in Rust macro arguments keep their own line; the tuple struct is instantiated, not called', async () => {
  const ex = await extractRepo(FIXTURE);
  const at = (source: string, target: string) =>
    ex.result.links.filter((l) => l.source === source && l.target === target && l.relation !== 'tests').map((l) => `${l.relation} ${l.source_location}`);
  assert.deepEqual(at('src/lib.rs#tests.totals', 'src/util.rs#double'), ['calls L72']); // assert_eq!(format!("{}", util::double(2)), ..)
  assert.deepEqual(at('src/lib.rs#tests.totals', 'src/store.rs#helper'), ['calls L71']); // println!("{}", v.len() + store::helper())
  assert.deepEqual(at('src/util.rs#sum', 'src/util.rs#Id'), ['instantiates L21']);
  // `for store in list { store.len() }`: the loop variable, not the module `store`
  assert.ok(!ex.result.links.some((l) => l.source === 'src/lib.rs#count' && l.relation === 'calls'));
});
