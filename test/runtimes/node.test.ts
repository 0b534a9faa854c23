// The plain-JS host in Node itself (a separate process, nothing from src/), as the baseline runtime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WASM, RUNTIMES_DIR, graphFixturesDir, run, parseSummary } from './helpers.ts';

test('Node runs the fixtures through the plain-JS host', async () => {
  const r = await run(process.execPath, [RUNTIMES_DIR + 'run-checks.mjs', WASM, graphFixturesDir()]);
  const s = parseSummary(r);
  assert.match(s.runtime, /^node /);
  assert.deepEqual(s.failures, [], r.stderr);
  assert.equal(s.imports, 0);
  assert.equal(s.fixtures, 11);
  assert.ok(s.checks > 50, `only ${s.checks} checks ran`);
  assert.equal(r.code, 0, r.stderr);
});
