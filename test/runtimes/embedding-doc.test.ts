// docs/embedding.md must quote the host the runtime tests run, verbatim, and keep it short.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROOT, RUNTIMES_DIR } from './helpers.ts';

test('docs/embedding.md quotes test/runtimes/host.mjs verbatim, under 30 lines', () => {
  const host = readFileSync(RUNTIMES_DIR + 'host.mjs', 'utf8');
  const doc = readFileSync(ROOT + 'docs/embedding.md', 'utf8');
  const m = /<!-- host\.mjs begin -->\n```js\n([\s\S]*?)```\n<!-- host\.mjs end -->/.exec(doc);
  assert.ok(m, 'docs/embedding.md has the host.mjs block between its markers');
  assert.equal(m[1], host);
  assert.ok(host.trimEnd().split('\n').length < 30, 'the host is under 30 lines');
  assert.doesNotMatch(host, /\bimport\b/, 'the host imports nothing');
});
