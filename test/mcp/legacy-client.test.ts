import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { clientSuite, type AnyClient } from './client-suite.ts';
import { richFixture, serveArgs } from './helpers.ts';

let fx: ReturnType<typeof richFixture>;
let client: Client;

before(async () => {
  fx = richFixture();
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(fx.graph), env: fx.env, stderr: 'pipe' });
  client = new Client({ name: 'legacy-sdk-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  fx?.cleanup();
});

test('legacy initialize negotiates 2025-11-25 with server identity and instructions', () => {
  assert.equal(client.getServerVersion()?.name, 'synaptic');
  assert.match(client.getServerVersion()?.version ?? '', /^\d+\.\d+\.\d+/);
  assert.match(client.getInstructions() ?? '', /query_graph/);
  assert.ok(client.getServerCapabilities()?.logging, 'legacy advertises logging');
});

test('legacy logging/setLevel is acknowledged', async () => {
  assert.deepEqual(await client.setLoggingLevel('info'), {});
});

clientSuite(() => client as unknown as AnyClient, () => fx.graph);
