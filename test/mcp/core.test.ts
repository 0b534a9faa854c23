import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { z } from 'zod';
import { McpCore } from '../../src/mcp/server.ts';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { ToolDefinition, ToolProvider } from '../../src/mcp/tool.ts';
import type { JsonRpcNotification } from '../../src/mcp/protocol.ts';

/** A provider whose second tool appears at run time, like the vault's teach/revise. */
function flippingProvider(): ToolProvider & { flip(): void } {
  const listeners: Array<() => void> = [];
  const echo: ToolDefinition = {
    name: 'echo', title: 'Echo', description: 'echo', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true },
    handler: ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
  };
  const boom: ToolDefinition = {
    name: 'boom', title: 'Boom', description: 'throws', inputSchema: z.object({}), annotations: { readOnlyHint: true },
    handler: () => {
      throw new Error('Cannot boom: nothing to blow up; try echo');
    },
  };
  let on = false;
  return {
    tools: () => (on ? [echo, boom] : [echo]),
    onToolsChanged: (l) => listeners.push(l),
    flip() {
      on = !on;
      for (const l of listeners) l();
    },
  };
}

test('McpCore sends tools/list_changed to initialized legacy sessions only', async () => {
  const provider = flippingProvider();
  const core = new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [provider] });
  const legacy: JsonRpcNotification[] = [];
  const other: JsonRpcNotification[] = [];
  const s1 = { notify: (m: JsonRpcNotification) => legacy.push(m) };
  const s2 = { notify: (m: JsonRpcNotification) => other.push(m) };
  core.attach(s1);
  core.attach(s2);
  await core.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'a', version: '1' } } }, s1);
  await core.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, s1);
  provider.flip();
  assert.deepEqual(legacy.map((m) => m.method), ['notifications/tools/list_changed']);
  assert.equal(other.length, 0);
  const list = (await core.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, s1)) as unknown as { result: { tools: Array<{ name: string }> } };
  assert.deepEqual(list.result.tools.map((t) => t.name), ['echo', 'boom']);
});

test('McpCore turns a thrown handler error into an isError result with its message', async () => {
  const provider = flippingProvider();
  provider.flip();
  const core = new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [provider] });
  const r = (await core.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'boom', arguments: {} } })) as unknown as { result: { isError: boolean; content: Array<{ text: string }> } };
  assert.equal(r.result.isError, true);
  assert.equal(r.result.content[0]!.text, 'Cannot boom: nothing to blow up; try echo');
  const batch = (await core.handle([{ jsonrpc: '2.0', id: 1, method: 'ping' }])) as { error: { code: number } };
  assert.equal(batch.error.code, -32600);
  assert.equal(McpCore.inspect({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })?.era, 'modern');
});

test('serveStdio() handles CRLF, split chunks, parse errors and a trailing line without newline', async () => {
  const core = new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [flippingProvider()] });
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  output.setEncoding('utf8');
  let buf = '';
  output.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  const { done } = serveStdio(core, { input, output });
  input.write('{"jsonrpc":"2.0","id":1,"method":"pi');
  input.write('ng"}\r\n\r\n');
  input.write('not json\n');
  input.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}');
  input.end();
  await done;
  await new Promise((r) => setImmediate(r));
  const msgs = lines.map((l) => JSON.parse(l) as { id: unknown; result?: { content?: Array<{ text: string }> }; error?: { code: number } });
  assert.equal(msgs.length, 3);
  assert.deepEqual(msgs.find((m) => m.id === 1)?.result, {});
  assert.equal(msgs.find((m) => m.id === null)?.error?.code, -32700);
  assert.equal(msgs.find((m) => m.id === 2)?.result?.content?.[0]?.text, 'hi');
});

test('a tool name defined twice is an error when the server starts (across providers or in one)', () => {
  const make = () => new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [flippingProvider(), flippingProvider()] });
  assert.throws(make, /Cannot register tools: the name 'echo' is defined by tool providers 1 and 2 of 2; tool names must be unique/);
  const one = flippingProvider();
  const twice: ToolProvider = { tools: () => [...one.tools(), ...one.tools()] };
  assert.throws(() => new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [twice] }), /'echo' is defined twice by tool provider 1 of 1/);
});

test('a provider whose tools change into a duplicate name gets an error answer, not the other tool', async () => {
  const a = flippingProvider();
  const b = flippingProvider();
  a.flip();
  // Offers nothing until b flips, then b's 'boom' (a's 'boom' is already there).
  const onlyBoom: ToolProvider = { tools: () => b.tools().slice(1), onToolsChanged: (l) => b.onToolsChanged!(l) };
  const core = new McpCore({ name: 'synaptic', version: '0.0.0', instructions: 'x', providers: [a, onlyBoom] });
  const names = async () => ((await core.handle({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as unknown as { result?: { tools: Array<{ name: string }> }; error?: { message: string } });
  assert.deepEqual((await names()).result!.tools.map((t) => t.name), ['echo', 'boom']);
  b.flip();
  const r = await names();
  assert.equal(r.result, undefined);
  assert.match(r.error!.message, /'boom' is defined by tool providers 1 and 2/);
});
