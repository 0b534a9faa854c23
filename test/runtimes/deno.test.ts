// The same wasm/synaptic.wasm, through the plain-JS host, in Deno (read permission only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, WASM, RUNTIMES_DIR, graphFixturesDir, run, parseSummary } from './helpers.ts';

test('Deno runs the fixtures (BFS, PageRank, components) with plain WebAssembly.instantiate', async () => {
  const r = await run(ROOT + 'node_modules/.bin/deno', ['run', '--allow-read', '--no-config', '--no-lock', RUNTIMES_DIR + 'run-checks.mjs', WASM, graphFixturesDir()]);
  const s = parseSummary(r);
  assert.match(s.runtime, /^deno /);
  assert.deepEqual(s.failures, [], r.stderr);
  assert.equal(s.imports, 0);
  assert.equal(s.fixtures, 11);
  assert.ok(s.checks > 50, `only ${s.checks} checks ran`);
  assert.equal(r.code, 0, r.stderr);
});
