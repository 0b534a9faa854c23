// The same wasm/synaptic.wasm, through the plain-JS host, in headless Chromium (playwright-core
// driving Debian's /usr/bin/chromium). Everything is served over http on 127.0.0.1, not file://.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext } from 'playwright-core';
import { WASM, RUNTIMES_DIR, graphFixturesDir, type CheckSummary } from './helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const TYPES: Record<string, string> = { '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };

function serve(): Promise<Server> {
  const fixtures = graphFixturesDir();
  const routes = new Map<string, string>([
    ['/host.mjs', RUNTIMES_DIR + 'host.mjs'],
    ['/checks.mjs', RUNTIMES_DIR + 'checks.mjs'],
    ['/synaptic.wasm', WASM],
  ]);
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    let file = routes.get(path);
    if (!file && /^\/fixtures\/[\w.-]+\.json$/.test(path)) file = join(fixtures, path.slice('/fixtures/'.length));
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>synaptic runtime check</title>');
      return;
    }
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('headless Chromium runs the fixtures (BFS, PageRank, components) from wasm served over http', { skip: !existsSync(CHROMIUM) && `${CHROMIUM} is not installed (apt-get install chromium)` }, async () => {
  const server = await serve();
  const profile = await mkdtemp(join(tmpdir(), 'synaptic-chromium-'));
  let context: BrowserContext | undefined;
  try {
    // A fresh profile directory per run (playwright wants it as launchPersistentContext's argument).
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await page.goto(base + '/');
    const s = await page.evaluate(async () => {
      const { runFixtureChecks } = await import('/checks.mjs' as string);
      const wasm = await (await fetch('/synaptic.wasm')).arrayBuffer();
      const index = await (await fetch('/fixtures/index.json')).json();
      const fixtures = [];
      for (const f of index.files) fixtures.push(await (await fetch('/fixtures/' + f)).json());
      return { ...(await runFixtureChecks(wasm, fixtures)), fixtures: fixtures.length };
    }) as CheckSummary;
    assert.match(s.runtime, /Chrome\//);
    assert.deepEqual(s.failures, []);
    assert.deepEqual(errors, []);
    assert.equal(s.imports, 0);
    assert.equal(s.fixtures, 11);
    assert.ok(s.checks > 50, `only ${s.checks} checks ran`);
  } finally {
    await context?.close();
    await new Promise((r) => server.close(r));
    await rm(profile, { recursive: true, force: true });
  }
});
