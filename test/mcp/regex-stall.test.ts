import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MODERN_META, rawServerForFile, text } from './helpers.ts';

// A backtracking engine spends ~2^n steps on (a+)+$ against n a's and a b; these lines would
// stall the server for longer than the age of the universe.
const served = rawServerForFile((repo) => {
  const line = 'a'.repeat(50_000) + 'b';
  for (let i = 0; i < 8; i++) writeFileSync(join(repo, `src/long-${i}.txt`), `${line}\n`.repeat(4));
});

test('a ping sent during a pathological search_text answers in < 100 ms, and the search returns', async () => {
  await served.server.request({ jsonrpc: '2.0', id: 'warm', method: 'ping', params: { _meta: MODERN_META } });
  const search = served.server.call(1, 'search_text', { pattern: '(a+)+$' });
  const t0 = performance.now();
  await served.server.request({ jsonrpc: '2.0', id: 'ping', method: 'ping', params: { _meta: MODERN_META } }, 5000);
  const pingMs = performance.now() - t0;
  const r = (await search) as { result: { isError?: boolean; structuredContent: { total: number; files_scanned: number } } };
  assert.ok(pingMs < 100, `ping took ${pingMs.toFixed(0)} ms`);
  assert.notEqual(r.result.isError, true, text(r.result));
  assert.equal(r.result.structuredContent.total, 0);
  assert.ok(r.result.structuredContent.files_scanned >= 8);
});

test('a backreference is refused by name over the wire', async () => {
  const r = (await served.server.call(2, 'search_text', { pattern: '(a)\\1' })) as { result: { isError?: boolean } };
  assert.equal(r.result.isError, true);
  assert.match(text(r.result), /backreference \(\\1\).*RE2\) does not support/);
});
