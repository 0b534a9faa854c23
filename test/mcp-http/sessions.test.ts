import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { HttpTransport } from '../../src/mcp/http/transport.ts';
import { McpCore } from '../../src/mcp/server.ts';
import { SubscriptionHub } from '../../src/mcp/subscriptions.ts';
import type { ToolProvider } from '../../src/mcp/tool.ts';

// The cap on legacy (initialize-based) HTTP sessions, through the transport's web-standard handler:
// past the limit, a new session evicts the one used least recently, sessions with an open GET stream
// last; an evicted session answers 404 like an expired one.

const echo: ToolProvider = {
  tools: () => [{
    name: 'echo', title: 'Echo', description: 'echo', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true },
    handler: ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
  }],
};

function setup(maxSessions?: number): { transport: HttpTransport; logs: string[] } {
  const logs: string[] = [];
  const core = new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [echo] });
  return { transport: new HttpTransport({ core, hub: new SubscriptionHub(), maxSessions, log: (l) => logs.push(l) }), logs };
}

function post(transport: HttpTransport, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', host: 'localhost' };
  if (session) headers['mcp-session-id'] = session;
  return transport.handle(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
}

async function initialize(transport: HttpTransport): Promise<string> {
  const res = await post(transport, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  return res.headers.get('mcp-session-id')!;
}

/** Use a session (a ping); its status says whether it still exists. */
async function ping(transport: HttpTransport, session: string): Promise<number> {
  const res = await post(transport, { jsonrpc: '2.0', id: 2, method: 'ping' }, session);
  await res.body?.cancel();
  return res.status;
}

test('past maxSessions a new session evicts the least recently used one; a session with an open stream goes last', async () => {
  const { transport, logs } = setup(3);
  try {
    const a = await initialize(transport);
    const b = await initialize(transport);
    const c = await initialize(transport);
    assert.equal(await ping(transport, a), 200); // order of use now: b, c, a
    const d = await initialize(transport); // evicts b
    assert.deepEqual([await ping(transport, b), await ping(transport, c), await ping(transport, a), await ping(transport, d)], [404, 200, 200, 200]);
    assert.equal(logs.filter((l) => /3 legacy HTTP sessions are open/.test(l)).length, 1, 'one warning, at the first eviction');
    // c opens a stream, then a and d are used: c is the least recently used but has a stream.
    const stream = await transport.handle(new Request('http://localhost/mcp', { method: 'GET', headers: { host: 'localhost', 'mcp-session-id': c } }));
    assert.equal(stream.status, 200);
    const reader = stream.body!.getReader();
    assert.match(new TextDecoder().decode((await reader.read()).value), /^: connected/);
    assert.equal(await ping(transport, a), 200);
    assert.equal(await ping(transport, d), 200);
    const e = await initialize(transport); // skips c (streaming), evicts a
    assert.deepEqual([await ping(transport, a), await ping(transport, d), await ping(transport, e)], [404, 200, 200]);
    assert.equal(await ping(transport, c), 200, 'the streaming session stays');
    // Every session now streams or was just used; with all three streaming, the least recently used goes.
    for (const s of [d, e]) await transport.handle(new Request('http://localhost/mcp', { method: 'GET', headers: { host: 'localhost', 'mcp-session-id': s } }));
    await ping(transport, c); // order: d, e, c (all streaming)
    await initialize(transport);
    assert.deepEqual([await ping(transport, d), await ping(transport, e), await ping(transport, c)], [404, 200, 200]);
    // The evicted session's stream was ended: c's is still open.
    await reader.cancel();
  } finally {
    transport.close();
  }
});

test('the default keeps 1000 sessions; a bad limit is refused', async () => {
  const { transport, logs } = setup();
  try {
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) ids.push(await initialize(transport));
    assert.deepEqual(logs, [], '1000 sessions fit: no eviction');
    await initialize(transport);
    assert.equal(await ping(transport, ids[0]!), 404, 'the 1001st evicted the oldest');
    assert.equal(await ping(transport, ids[1]!), 200);
    assert.match(logs.join('\n'), /1000 legacy HTTP sessions are open/);
  } finally {
    transport.close();
  }
  assert.throws(() => setup(0), /the limit must be a positive whole number, got 0/);
});
