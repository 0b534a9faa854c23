/**
 * HTTP boundaries (#21 item 2) end to end: the multi-language fixture (a TypeScript client, an
 * Express and a hono server, a Flask blueprint and a FastAPI router, a Go net/http handler)
 * extracted by the built CLI and queried through the SDK client over a real stdio server:
 * `affected` on a handler crosses handled_by to the route and calls_service to its clients in
 * TypeScript and Go; graph_stats reports the cross-language line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { text } from './helpers.ts';
import { serveSqlFixture } from './sql-fixture-server.ts';

const server = serveSqlFixture();

interface Hit { label: string; qualified: string; depth: number; via_relation: string }

test('affected on an Express handler reaches its route and the TypeScript and Go clients', async () => {
  const r = await server.client.callTool({ name: 'affected', arguments: { label: 'showOrder' } });
  const hits = (r.structuredContent as { affected: Hit[] }).affected.map((h) => `${h.depth} ${h.via_relation} ${h.label}`).sort();
  assert.ok(hits.includes('1 handled_by GET /api/orders/:id'), hits.join('\n'));
  assert.ok(hits.includes('2 calls_service loadOrder'), hits.join('\n'));
  assert.ok(hits.includes('2 calls_service checkOrder'), 'the Go client');
  assert.ok(!hits.some((h) => /loadAnything|loadFrom|loadNowhere/.test(h)), 'the negative twins reach nothing');
  // From the SQL function it calls, the blast radius crosses the handler and the route too.
  const deep = await server.client.callTool({ name: 'affected', arguments: { label: 'getOrder', depth: 3 } });
  assert.match(text(deep), /loadOrder/);
  // A Python handler: reached from the TypeScript client through the FastAPI route.
  const py = (await server.client.callTool({ name: 'affected', arguments: { label: 'latest_report' } })).structuredContent as { affected: Hit[] };
  assert.deepEqual(py.affected.map((h) => `${h.depth} ${h.via_relation} ${h.label}`).sort(), ['1 handled_by GET /reports/:kind/latest', '2 calls_service latestReport']);
});

test('graph_stats reports the cross-language coupling edges', async () => {
  const r = await server.client.callTool({ name: 'graph_stats', arguments: {} });
  const s = r.structuredContent as { cross_language: number };
  // 8 calls_service + 6 handled_by (test/extract/http-facts.test.ts lists them) + the SQL reads_from/writes_to edges.
  assert.ok(s.cross_language >= 14, String(s.cross_language));
  assert.match(text(r), new RegExp(`^Cross-language: ${s.cross_language} coupling edge\\(s\\) \\(HTTP/RPC/FFI/WebSocket/queue/SQL boundaries\\)$`, 'm'));
  const near = await server.client.callTool({ name: 'find_callers', arguments: { label: 'GET /api/orders/:id' } });
  assert.match(text(near), /loadOrder/);
});
