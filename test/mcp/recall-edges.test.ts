/**
 * The recall edges of #17 item 1 reach the tools, through the SDK client over a real stdio server:
 * callers of CommonJS methods (`app.set` called as `this.set` from `app.enable`), a prototype
 * method called on a `new View()` instance, and a function passed as a value (`.map(word)`) as a
 * dependent in `affected` and `find_references`.
 */
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { extractFixture, ROOT, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

let fx: ReturnType<typeof extractFixture>;
let sdk: Awaited<ReturnType<typeof connectSdk>>;
let client: Client;

before(async () => {
  fx = extractFixture((repo) => cpSync(join(ROOT, 'test/fixtures/recall'), join(repo, 'recall'), { recursive: true }));
  sdk = await connectSdk(fx.graph, fx.env, { serve: ['--no-freshen'] });
  client = sdk.client;
});

after(async () => {
  await sdk?.close();
  fx?.cleanup();
});

async function call(name: string, args: Record<string, unknown>): Promise<string> {
  return text(await client.callTool({ name, arguments: args }));
}

test('find_callers lists the callers of a CommonJS method assigned as app.set = function', async () => {
  const out = await call('find_callers', { label: 'app.set' });
  for (const caller of ['app.enable', 'app.defaultConfiguration']) assert.match(out, new RegExp(`\\b${caller.replace('.', '\\.')}\\b`), out);
});

test('find_callers lists the caller of a prototype method through new View()', async () => {
  const out = await call('find_callers', { label: 'View.render' });
  assert.match(out, /app\.render/, out);
});

test('affected and find_references see a function passed as a value', async () => {
  const affected = await call('affected', { label: 'word' });
  assert.match(affected, /\bslug\b/, affected);
  assert.match(affected, /\breport\b/, affected); // report -> report.pad -> slug -> word
  const refs = await call('find_references', { label: 'word' });
  assert.match(refs, /\bslug\b/, refs);
});
