import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MODERN_META, rawServerForFile, text } from './helpers.ts';

const served = rawServerForFile();

test('malformed JSON gets -32700 with a null id', async () => {
  const line = served.server.nextLine();
  served.server.send('{"jsonrpc":"2.0","id":1,"method":');
  const msg = JSON.parse(await line) as { id: unknown; error: { code: number } };
  assert.equal(msg.error.code, -32700);
  assert.equal(msg.id, null);
});

test('blank lines are ignored and notifications get no reply', async () => {
  const before = served.server.stdoutLines.length;
  served.server.send('');
  served.server.send('   ');
  served.server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  served.server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }));
  const pong = await served.server.request({ jsonrpc: '2.0', id: 'p1', method: 'ping', params: { _meta: MODERN_META } });
  assert.deepEqual(Object.keys(pong).sort(), ['id', 'jsonrpc', 'result']);
  assert.equal(served.server.stdoutLines.length, before + 1, 'only the ping was answered');
});

test('unknown method is -32601', async () => {
  const r = (await served.server.request({ jsonrpc: '2.0', id: 2, method: 'no/such', params: { _meta: MODERN_META } })) as { error: { code: number } };
  assert.equal(r.error.code, -32601);
  const legacy = (await served.server.request({ jsonrpc: '2.0', id: 3, method: 'tools/frobnicate' })) as { error: { code: number } };
  assert.equal(legacy.error.code, -32601);
});

test('unknown tool and unknown prompt are -32602; unknown resource is -32002', async () => {
  const tool = (await served.server.call(4, 'no_such_tool', {})) as { error: { code: number; message: string } };
  assert.equal(tool.error.code, -32602);
  assert.match(tool.error.message, /no_such_tool/);
  const prompt = (await served.server.request({ jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'nope', _meta: MODERN_META } })) as { error: { code: number } };
  assert.equal(prompt.error.code, -32602);
  const res = (await served.server.request({ jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'synaptic://nope', _meta: MODERN_META } })) as { error: { code: number } };
  assert.equal(res.error.code, -32002);
  const node = (await served.server.request({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'synaptic://node/NoSuchSymbolAnywhere', _meta: MODERN_META } })) as { error: { code: number } };
  assert.equal(node.error.code, -32002);
});

test('an unsupported modern version is -32022 with the supported versions in error.data', async () => {
  const meta = { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
  const r = (await served.server.request({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { _meta: meta } })) as { error: { code: number; data: { supported: string[]; requested: string } } };
  assert.equal(r.error.code, -32022);
  assert.ok(r.error.data.supported.includes('2026-07-28'));
  assert.ok(r.error.data.supported.includes('2024-11-05'));
  assert.equal(r.error.data.requested, '2099-01-01');
});

test('server/discover lists every supported version, capabilities, identity, instructions and cache hints', async () => {
  const r = (await served.server.request({ jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: MODERN_META } })) as { result: Record<string, any> };
  assert.deepEqual(r.result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  assert.ok(r.result.capabilities.tools && r.result.capabilities.resources && r.result.capabilities.prompts && r.result.capabilities.completions);
  assert.equal(r.result.capabilities.logging, undefined);
  assert.equal(r.result._meta['io.modelcontextprotocol/serverInfo'].name, 'synaptic');
  assert.match(r.result.instructions, /query_graph/);
  assert.equal(r.result.resultType, 'complete');
  assert.equal(typeof r.result.ttlMs, 'number');
  assert.equal(r.result.cacheScope, 'private');
});

test('modern results carry resultType, and list/resource results carry ttlMs + cacheScope', async () => {
  const list = (await served.server.request({ jsonrpc: '2.0', id: 10, method: 'tools/list', params: { _meta: MODERN_META } })) as { result: Record<string, any> };
  assert.equal(list.result.resultType, 'complete');
  assert.ok(list.result.ttlMs >= 0);
  assert.equal(list.result.cacheScope, 'private');
  const read = (await served.server.request({ jsonrpc: '2.0', id: 11, method: 'resources/read', params: { uri: 'synaptic://stats', _meta: MODERN_META } })) as { result: Record<string, any> };
  assert.ok('ttlMs' in read.result && 'cacheScope' in read.result);
  const call = (await served.server.call(12, 'graph_stats', {})) as { result: Record<string, any> };
  assert.equal(call.result.resultType, 'complete');
  assert.ok(!('ttlMs' in call.result));
});

test('modern logging/setLevel is -32601; legacy initialize then setLevel works', async () => {
  const modern = (await served.server.request({ jsonrpc: '2.0', id: 13, method: 'logging/setLevel', params: { level: 'info', _meta: MODERN_META } })) as { error: { code: number } };
  assert.equal(modern.error.code, -32601);
  const init = (await served.server.request({ jsonrpc: '2.0', id: 14, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })) as { result: Record<string, any> };
  assert.equal(init.result.protocolVersion, '2025-06-18');
  assert.equal(init.result.serverInfo.name, 'synaptic');
  assert.ok(init.result.capabilities.logging);
  served.server.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const set = (await served.server.request({ jsonrpc: '2.0', id: 15, method: 'logging/setLevel', params: { level: 'debug' } })) as { result: object };
  assert.deepEqual(set.result, {});
  const old = (await served.server.request({ jsonrpc: '2.0', id: 16, method: 'initialize', params: { protocolVersion: '1999-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })) as { result: Record<string, any> };
  assert.equal(old.result.protocolVersion, '2025-11-25');
});

test('modern request without clientCapabilities is -32602', async () => {
  const r = (await served.server.request({ jsonrpc: '2.0', id: 17, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })) as { error: { code: number } };
  assert.equal(r.error.code, -32602);
});

test('the nested io.modelcontextprotocol/connection envelope is accepted', async () => {
  const conn = { 'io.modelcontextprotocol/connection': { protocolVersion: '2026-07-28', clientCapabilities: {}, clientInfo: { name: 'x', version: '1' } } };
  const r = (await served.server.request({ jsonrpc: '2.0', id: 18, method: 'tools/call', params: { name: 'graph_stats', arguments: {}, _meta: conn } })) as { result: Record<string, any> };
  assert.equal(r.result.resultType, 'complete');
  assert.match(text(r.result), /^Graph: \d+ nodes/);
});

test('invalid arguments come back as isError results the model can act on', async () => {
  const r = (await served.server.call(19, 'get_node', { label: 42 })) as { result: { isError: boolean } };
  assert.equal(r.result.isError, true);
  assert.match(text(r.result), /invalid arguments: label/);
  const missing = (await served.server.call(20, 'query_graph', {})) as { result: { isError: boolean } };
  assert.equal(missing.result.isError, true);
});

test('path traversal in get_source and search_text is refused with the root named', async () => {
  for (const [i, file] of ['../../../../etc/passwd', '/etc/passwd', 'src/../../outside.txt'].entries()) {
    const r = (await served.server.call(30 + i, 'get_source', { file })) as { result: { isError?: boolean } };
    assert.equal(r.result.isError, true, file);
    assert.match(text(r.result), /outside the source root .*repo/);
    assert.doesNotMatch(text(r.result), /root:x:0:0/);
  }
  const glob = (await served.server.call(40, 'search_text', { pattern: 'root', path_glob: '../../**' })) as { result: { isError?: boolean } };
  assert.equal(glob.result.isError, true);
  assert.match(text(glob.result), /source root/);
  const repo = (await served.server.call(41, 'search_text', { pattern: 'root', repo: '../..' })) as { result: { isError?: boolean } };
  assert.equal(repo.result.isError, true);
});

test('stdout carries only JSON-RPC; the ready line is on stderr', () => {
  assert.match(served.server.stderr, /\[synaptic\] MCP server ready on stdio/);
  for (const line of served.server.stdoutLines) {
    const msg = JSON.parse(line) as { jsonrpc: string };
    assert.equal(msg.jsonrpc, '2.0');
  }
});
