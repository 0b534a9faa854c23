import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { extractFixture, serveArgs } from './helpers.ts';
import { rawSdkTransport } from './sdk-stdio.ts';

// The 2026-07-28 per-request envelope, checked on every modern request (server/discover too), through
// the SDK's stdio transport to a real server on the extracted fixture. The spec: "clientInfo is
// recommended and, when present, must contain string name and version"; "Requests for another modern
// version fail with -32022 and return the supported versions in error.data".

const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const VERSION = 'io.modelcontextprotocol/protocolVersion';
const INFO = 'io.modelcontextprotocol/clientInfo';

let fx: ReturnType<typeof extractFixture>;
let raw: Awaited<ReturnType<typeof rawSdkTransport>>;
let id = 1;

before(async () => {
  fx = extractFixture();
  raw = await rawSdkTransport(fx.graph, fx.env);
});

after(async () => {
  await raw?.close();
  fx?.cleanup();
});

function request(method: string, meta: Record<string, unknown>, params: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return raw.request({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: meta } });
}

const BAD_CLIENT_INFO: unknown[] = [{ name: 1, version: '1.0' }, { name: 'x' }, { version: '1.0' }, { name: 'x', version: 2 }, 'client', null, ['x', '1.0']];

test('clientInfo without string name and version is -32602 on every modern request, server/discover included', async () => {
  for (const method of ['server/discover', 'tools/list', 'ping']) {
    for (const info of BAD_CLIENT_INFO) {
      const r = await request(method, { [VERSION]: '2026-07-28', [CAPS]: {}, [INFO]: info });
      assert.equal(r.error?.code, -32602, `${method} with clientInfo ${JSON.stringify(info)}: ${JSON.stringify(r)}`);
      assert.match(r.error.message, /clientInfo.*string name and version/);
    }
  }
  // The nested connection form of the envelope is held to the same rule.
  const nested = await request('tools/list', { 'io.modelcontextprotocol/connection': { protocolVersion: '2026-07-28', clientCapabilities: {}, clientInfo: { name: 1 } } });
  assert.equal(nested.error?.code, -32602, JSON.stringify(nested));
});

test('clientInfo is optional; a valid one is accepted', async () => {
  const absent = await request('tools/list', { [VERSION]: '2026-07-28', [CAPS]: {} });
  assert.ok(Array.isArray(absent.result?.tools), JSON.stringify(absent));
  const valid = await request('server/discover', { [VERSION]: '2026-07-28', [CAPS]: {}, [INFO]: { name: 'envelope-test', version: '0.1', title: 'extra fields are fine' } });
  assert.ok(valid.result?.supportedVersions?.includes('2026-07-28'), JSON.stringify(valid));
});

test('server/discover for an unsupported modern version fails with -32022 and the supported versions in error.data, like every other request', async () => {
  for (const method of ['server/discover', 'tools/list']) {
    const r = await request(method, { [VERSION]: '2026-12-01', [CAPS]: {}, [INFO]: { name: 'x', version: '1' } });
    assert.equal(r.error?.code, -32022, `${method}: ${JSON.stringify(r)}`);
    assert.equal(r.result, undefined);
    assert.deepEqual(r.error.data?.requested, '2026-12-01');
    assert.ok(r.error.data?.supported?.includes('2026-07-28'), JSON.stringify(r.error));
    assert.match(r.error.message, /Unsupported protocol version: 2026-12-01/);
  }
});

test('an SDK client whose clientInfo has a numeric name cannot connect', async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(fx.graph, '--no-freshen'), env: fx.env, stderr: 'ignore' });
  const client = new Client({ name: 1 as unknown as string, version: '1.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  try {
    await assert.rejects(client.connect(transport), /Version negotiation failed/);
  } finally {
    await client.close().catch(() => undefined);
  }
});
