// Core.load(): the Node default path, { url } over HTTP, { bytes }, and load errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Core, CoreLoadError } from '../../src/core/index.ts';

const WASM = readFileSync(new URL('../../wasm/synaptic.wasm', import.meta.url));

test('Core.load({ url }) fetches the module over HTTP', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/synaptic.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(WASM);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const core = await Core.load({ url: `${base}/synaptic.wasm` });
    const g = core.graph({ n: 3, src: [0, 1], dst: [1, 2] });
    assert.deepEqual(Array.from(g.bfs(2, { direction: 'in' })), [2, 1, 0]);
    g.free();
    await assert.rejects(Core.load({ url: `${base}/missing.wasm` }), (e: unknown) => e instanceof CoreLoadError && /HTTP 404/.test(e.message));
  } finally {
    server.close();
  }
});

test('Core.load({ bytes }) rejects bytes that are not WebAssembly with CoreLoadError', async () => {
  await assert.rejects(Core.load({ bytes: new TextEncoder().encode('not wasm') }), (e: unknown) =>
    e instanceof CoreLoadError && /^Cannot load the WASM core: the `bytes` option is not a valid WebAssembly module/.test(e.message));
});

test('Core.load() instances are independent (separate memories and handles)', async () => {
  const [a, b] = await Promise.all([Core.load(), Core.load()]);
  const ga = a.graph({ n: 2, src: [0], dst: [1] });
  const gb = b.graph({ n: 3, src: [0, 1], dst: [1, 2] });
  assert.notEqual(a.exports.memory, b.exports.memory);
  assert.deepEqual(Array.from(ga.bfs(0)), [0, 1]);
  assert.deepEqual(Array.from(gb.bfs(0)), [0, 1, 2]);
  ga.free();
  assert.deepEqual(Array.from(gb.bfs(1)), [-1, 0, 1]);
  gb.free();
});
