/**
 * Go call recall on a committed fixture with a hand-checked truth (#17, other languages):
 * test/fixtures/recall-go, shaped like go-chi/chi (bench/accuracy/truths/go-chi.tsv): a receiver
 * `r` shadowed by func literal parameters (`func(w, r *http.Request)`, `func(r Router)`), two
 * `if f, ok := w.(T)` blocks of one function, receivers typed by type assertions, `range` over a
 * slice field, an index into an array of a named slice type, a method reached through an embedded
 * field, and a bare `walk()` beside a method `node.walk`. Every call pair is listed in truth.tsv;
 * precision and recall of the calls links that are not AMBIGUOUS must both be 1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertMatchesTruth } from '../helpers/recall-truth.ts';
import { fileURLToPath } from 'node:url';
import { extractRepo } from '../../bench/accuracy/extract-repo.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/recall-go', import.meta.url));

test('the extractor finds every hand-checked call of the Go recall fixture, and nothing else', async () => {
  await assertMatchesTruth(FIXTURE);
});

test('same-named Go locals resolve by the line of the call: each link starts at its first right site', async () => {
  const ex = await extractRepo(FIXTURE);
  const at = (source: string, target: string): string | undefined =>
    (ex.result.links.find((l) => l.relation === 'calls' && l.source === source && l.target === target) as { source_location?: string } | undefined)?.source_location;
  assert.equal(at('cmd/app/main.go#main', 'router/router.go#Mux.Get'), 'L11'); // r := router.New(), not the closure's r *http.Request
  assert.equal(at('cmd/app/main.go#main', 'router/router.go#Router.Get'), 'L15'); // inside func(r router.Router) only
  assert.equal(at('router/router.go#Mux.ServeHTTP', 'router/router.go#flusher.Flush'), 'L41'); // not L38's f http.Flusher
});
