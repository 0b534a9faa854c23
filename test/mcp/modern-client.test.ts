import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { clientSuite, type AnyClient } from './client-suite.ts';
import { richFixture, serveArgs } from './helpers.ts';

let fx: ReturnType<typeof richFixture>;
let client: Client;

before(async () => {
  fx = richFixture();
  const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(fx.graph), env: fx.env, stderr: 'pipe' });
  client = new Client({ name: 'modern-sdk-test', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  fx?.cleanup();
});

test('the v2 client negotiates the stateless 2026-07-28 era through server/discover', () => {
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  assert.match(client.getInstructions() ?? '', /query_graph/);
});

clientSuite(() => client as unknown as AnyClient, () => fx.graph);
