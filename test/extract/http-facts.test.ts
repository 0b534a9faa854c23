import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import type { FileFacts } from '../../src/extract/facts.ts';
import { clientPath, matchScore, serverPath } from '../../src/extract/http/paths.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { relink } from '../../src/extract/link/incremental.ts';
import { buildProjectContext } from '../../src/extract/project-context.ts';
import type { LanguageId } from '../../src/extract/languages.ts';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sql');
const FILES = ['web/client.ts', 'web/server.ts', 'web/hono.ts', 'web/app.py', 'web/reports.py', 'web/health.go', 'src/orders.ts'];
const lang = (p: string): LanguageId => (p.endsWith('.py') ? 'python' : p.endsWith('.go') ? 'go' : 'typescript');
const extract = (path: string, source: string) => extractFileFacts({ path, source, language: lang(path) });
const facts = () => Promise.all(FILES.map((p) => extract(p, readFileSync(join(FIXTURE, p), 'utf8'))));
const short = (id: string) => id.replace(/^web\//, '');
const httpLinks = (links: { relation: string; source: string; target: string; confidence: string }[]) =>
  links.filter((l) => l.relation === 'calls_service' || l.relation === 'handled_by').map((l) => `${l.relation} ${short(l.source)} -> ${short(l.target)} ${l.confidence}`).sort();

test('paths: every framework spelling of a parameter meets a client hole or literal', () => {
  assert.equal(serverPath('/users/:id'), '/users/:id');
  assert.equal(serverPath('/users/{id}'), '/users/:id');
  assert.equal(serverPath('/users/{id:int}/'), '/users/:id');
  assert.equal(serverPath('/users/<int:id>'), '/users/:id');
  assert.equal(serverPath('/users/:id{[0-9]+}'), '/users/:id');
  assert.equal(serverPath('/files/{path...}'), '/files/*');
  assert.equal(serverPath('/files/<path:p>'), '/files/*');
  assert.equal(serverPath('*'), '/*');
  assert.equal(serverPath('users'), null);
  assert.equal(clientPath('http://localhost:3000/api/users/\u0000?page=2'), '/api/users/:');
  assert.equal(clientPath('/a/\u0000.json#top'), '/a/:');
  assert.equal(clientPath('\u0000/api'), null, 'a non-literal origin');
  assert.equal(clientPath('api/users'), null);
  // Literal before parameter before wildcard; a hole never meets a literal segment.
  assert.ok(matchScore('/users/me', '/users/me') > matchScore('/users/:id', '/users/me'));
  assert.ok(matchScore('/users/:id', '/users/me') > matchScore('/users/*', '/users/me'));
  assert.equal(matchScore('/users/me', '/users/:'), -1);
  assert.equal(matchScore('/users/:id', '/users'), -1);
  assert.equal(matchScore('/users/:id', '/users/1/posts'), -1);
  assert.ok(matchScore('/*', '/') > 0);
});

test('fixture: route symbols with static prefixes, client calls with literal paths only', async () => {
  const all = await facts();
  const routes = all.flatMap((f) => f.symbols.filter((s) => s.kind === 'route').map((s) => `${short(f.path)} ${s.qname}`));
  assert.deepEqual(routes, [
    'server.ts GET /api/orders/:id', 'server.ts POST /api/orders', 'hono.ts GET /v2/orders/:id/summary',
    'app.py GET /api/accounts/:account_id/invoices', 'reports.py GET /reports/:kind/latest', 'health.go ANY /healthz',
  ]);
  const client = all[0]!;
  const calls = client.http!.calls.map((c) => `${client.symbols[c.scope]!.name} ${c.method} ${c.path}${c.origin ? ` via ${c.origin}` : ''}`);
  assert.deepEqual(calls, [
    'loadOrder GET /api/orders/:', 'createOrder POST /api/orders', 'orderSummary GET /v2/orders/42/summary',
    'listInvoices GET /api/accounts/:/invoices', 'latestReport GET /reports/:/latest', 'health GET /healthz via API_BASE', 'loadNowhere GET /api/nowhere',
  ], 'loadAnything(url) and loadFrom(`${base}/...`) have no literal path');
  assert.deepEqual(structuredClone(all[1]), all[1]);
});

test('linked: calls_service client -> route, handled_by route -> handler, across TS, Python and Go', async () => {
  const g = linkGraph(await facts(), buildProjectContext({}));
  assert.deepEqual(httpLinks(g.links), [
    'calls_service client.ts#createOrder -> server.ts#POST /api/orders EXTRACTED',
    'calls_service client.ts#health -> health.go#ANY /healthz INFERRED',
    'calls_service client.ts#latestReport -> reports.py#GET /reports/:kind/latest EXTRACTED',
    'calls_service client.ts#listInvoices -> app.py#GET /api/accounts/:account_id/invoices EXTRACTED',
    'calls_service client.ts#loadOrder -> server.ts#GET /api/orders/:id EXTRACTED',
    'calls_service client.ts#orderSummary -> hono.ts#GET /v2/orders/:id/summary EXTRACTED',
    'calls_service health.go#checkOrder -> server.ts#GET /api/orders/:id EXTRACTED',
    'calls_service reports.py#nightly_export -> server.ts#POST /api/orders EXTRACTED',
    'handled_by app.py#GET /api/accounts/:account_id/invoices -> app.py#account_invoices EXTRACTED',
    'handled_by health.go#ANY /healthz -> health.go#healthz EXTRACTED',
    'handled_by hono.ts#GET /v2/orders/:id/summary -> hono.ts#registerRoutes EXTRACTED',
    'handled_by reports.py#GET /reports/:kind/latest -> reports.py#latest_report EXTRACTED',
    'handled_by server.ts#GET /api/orders/:id -> server.ts#showOrder EXTRACTED',
    'handled_by server.ts#POST /api/orders -> server.ts EXTRACTED',
  ]);
  // Negative twins: nothing from the dynamic URLs, nothing (and no route node) for a path nobody serves.
  for (const fn of ['loadAnything', 'loadFrom', 'loadNowhere']) assert.ok(!g.links.some((l) => l.source === `web/client.ts#${fn}` && l.relation === 'calls_service'), fn);
  assert.ok(!g.nodes.some((n) => n.kind === 'route' && String(n.label).includes('nowhere')));
  const route = g.nodes.find((n) => n.id === 'web/server.ts#GET /api/orders/:id')!;
  assert.deepEqual([route.kind, route.label, route.http_method, route.route_path, route.source_location], ['route', 'GET /api/orders/:id', 'GET', '/api/orders/:id', 'L11']);
  assert.ok(g.links.some((l) => l.relation === 'contains' && l.source === 'web/server.ts' && l.target === route.id));
});

test('a prefix holds until the router is declared again; a test file\'s routes serve only its own requests', async () => {
  const spec = `import { Hono } from 'hono';
describe('a', () => {
  const app = new Hono().basePath('/api');
  app.get('/x', (c) => c.text('a'));
});
describe('b', () => {
  const app = new Hono();
  app.get('/x', (c) => c.text('b'));
  it('asks', async () => { await app.request('http://localhost/x'); await app.request('/api/x'); });
});
`;
  const other = `export async function probe() { return fetch('/x'); }\nconst agent = supertest(server);\nagent.get('/x', { headers: {} });\n`;
  const a = await extract('src/a.test.ts', spec);
  const b = await extract('src/probe.ts', other);
  assert.deepEqual(a.symbols.filter((s) => s.kind === 'route').map((s) => s.qname), ['GET /api/x', 'GET /x']);
  assert.deepEqual(b.symbols.filter((s) => s.kind === 'route'), [], "agent.get('/x', { headers }) is a request, not a route");
  const g = linkGraph([a, b], buildProjectContext({}));
  assert.deepEqual(httpLinks(g.links).filter((l) => l.startsWith('calls_service')), [
    'calls_service src/a.test.ts -> src/a.test.ts#GET /api/x EXTRACTED',
    'calls_service src/a.test.ts -> src/a.test.ts#GET /x EXTRACTED',
  ], 'probe() in another file does not reach the test\'s route');
});

test('incremental relink after a route edit equals a full link', async () => {
  const before = await facts();
  const ctx = buildProjectContext({});
  const full0 = linkGraph(before, ctx);
  const edited = readFileSync(join(FIXTURE, 'web/server.ts'), 'utf8').replace("api.get('/orders/:id'", "api.get('/orders/:id/detail'");
  const changed = await extract('web/server.ts', edited);
  const after = before.map((f) => (f.path === 'web/server.ts' ? changed : f));
  const full1 = linkGraph(after, ctx);
  const inc = relink({
    facts: after, context: ctx, deps: full0.deps, before: new Map<string, FileFacts>([['web/server.ts', before[1]!]]),
    previous: { links: full0.links, hazards: full0.hazards, unresolvedCalls: full0.unresolvedCalls },
  });
  assert.ok(inc);
  assert.deepEqual(inc.links, full1.links);
  assert.ok(!httpLinks(full1.links).some((l) => l.startsWith('calls_service client.ts#loadOrder')), 'the client path no longer matches');
  assert.ok(inc.relinked < after.length, 'not everything was relinked');
});
