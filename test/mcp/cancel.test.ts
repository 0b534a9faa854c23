// notifications/cancelled reaches a running tools/call (#23: mesh_wait is cancellable), and the
// instructions follow the tools a provider serves now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { McpCore, type Session } from '../../src/mcp/server.ts';
import type { ToolDefinition, ToolProvider } from '../../src/mcp/tool.ts';

function parkingTool(seen: { aborted: boolean }): ToolDefinition {
  return {
    name: 'park', title: 'Park', description: 'parks until cancelled', inputSchema: z.object({}), annotations: { readOnlyHint: true },
    handler: (_args, extra) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: 'timed out' }] }), 5000);
        extra?.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          seen.aborted = true;
          resolve({ content: [{ type: 'text', text: 'cancelled' }] });
        });
      }),
  };
}

test('notifications/cancelled aborts the named tools/call of that session, which is then not answered', async () => {
  const seen = { aborted: false };
  const core = new McpCore({ name: 't', version: '1', instructions: 'i', providers: [{ tools: () => [parkingTool(seen)] }] });
  const session: Session = {};
  const other: Session = {};
  const call = core.handle({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'park', arguments: {} } }, session);
  await new Promise((r) => setTimeout(r, 20));
  await core.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }, other); // another session's id 7: no effect
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(seen.aborted, false);
  const t0 = Date.now();
  await core.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user' } }, session);
  assert.equal(await call, undefined);
  assert.equal(seen.aborted, true);
  assert.ok(Date.now() - t0 < 1000);
  assert.equal(session.inFlight?.size, 0);
});

test('instructions given as a function are built when asked (initialize and server/discover follow a switch)', async () => {
  let on = false;
  const provider: ToolProvider = { tools: () => [] };
  const core = new McpCore({ name: 't', version: '1', instructions: () => (on ? 'with the mesh' : 'without'), providers: [provider] });
  const init = async () => ((await core.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } })) as unknown as { result: { instructions: string } }).result.instructions;
  assert.equal(await init(), 'without');
  on = true;
  assert.equal(await init(), 'with the mesh');
  assert.equal(core.discover().instructions, 'with the mesh');
});
