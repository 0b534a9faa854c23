// The same wasm/synaptic.wasm, through the plain-JS host, in Bun.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, WASM, RUNTIMES_DIR, graphFixturesDir, run, parseSummary } from './helpers.ts';

test('Bun runs the fixtures (BFS, PageRank, components) with plain WebAssembly.instantiate', async () => {
  const r = await run(ROOT + 'node_modules/.bin/bun', ['run', RUNTIMES_DIR + 'run-checks.mjs', WASM, graphFixturesDir()]);
  const s = parseSummary(r);
  assert.match(s.runtime, /^bun /);
  assert.deepEqual(s.failures, [], r.stderr);
  assert.equal(s.imports, 0);
  assert.equal(s.fixtures, 11);
  assert.ok(s.checks > 50, `only ${s.checks} checks ran`);
  assert.equal(r.code, 0, r.stderr);
});
