import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CALL_RELATIONS } from '../../src/query/relations.ts';

// The explorer in a real headless Chromium, against `synaptic explore` and the exported HTML file,
// on a graph extracted from the fixture repo. What the page shows is checked against the same
// queries through the MCP server.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = join(ROOT, 'dist/cli/main.js');
const SHOTS = join(ROOT, 'test-output/explorer');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

let work: string;
let graphJson: string;
let browser: Browser;
let mcp: Client;
const servers: ChildProcess[] = [];

/** Start `synaptic explore` and return its URL (printed on stdout). */
async function explore(graph: string): Promise<string> {
  const child = spawn(process.execPath, [CLI, 'explore', '--graph', graph, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(child);
  return new Promise((resolveUrl, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`explore did not start: ${err}`)), 15000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[0]);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.on('exit', (code) => reject(new Error(`explore exited with ${code}: ${err}`)));
  });
}

/** Open a page, collecting console errors, and wait until the app is ready or has failed. */
async function open(url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.goto(url);
  await page.waitForFunction(() => window.synaptic && (window.synaptic.ready || window.synaptic.error), null, { timeout: 30000 });
  return { page, errors };
}

async function callTool(name: string, args: Record<string, unknown>): Promise<{ text: string; structured: any }> {
  const res = (await mcp.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; structuredContent?: unknown; isError?: boolean };
  assert.ok(!res.isError, `${name} failed: ${res.content.map((c) => c.text).join('\n')}`);
  return { text: res.content.map((c) => c.text).join('\n'), structured: res.structuredContent };
}

async function texts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).allTextContents();
}

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'synaptic-explorer-'));
  cpSync(join(ROOT, 'test/fixtures/repo'), join(work, 'repo'), { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', join(work, 'repo')], { stdio: ['ignore', 'ignore', 'pipe'] });
  graphJson = join(work, 'repo/synaptic-out/graph.json');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mcp = new Client({ name: 'explorer-test', version: '1.0.0' });
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--graph', graphJson], stderr: 'ignore' }));
});

after(async () => {
  await mcp?.close().catch(() => {});
  await browser?.close().catch(() => {});
  for (const s of servers) s.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('explore: search, open, follow a caller, path and impact agree with the MCP tools', async () => {
  const url = await explore(graphJson);
  const { page, errors } = await open(url);
  const state = await page.evaluate(() => window.synaptic!);
  assert.equal(state.ready, true, state.error);
  const stats = await callTool('graph_stats', {});
  assert.equal(state.nodes, stats.structured.nodes);
  assert.equal(state.edges, stats.structured.edges);
  await page.screenshot({ path: join(SHOTS, 'overview.png') });

  // Search and open with the keyboard.
  await page.fill('#search', 'splitPath');
  await page.waitForSelector('#results li[data-key]');
  const first = await page.locator('#results li[data-key]').first().getAttribute('data-key');
  assert.match(first!, /splitPath/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#node-title');
  assert.equal(await page.locator('#node-title').textContent(), 'splitPath');
  assert.match(await page.evaluate(() => decodeURIComponent(location.hash)), /mode=node&node=.*splitPath/);
  await page.screenshot({ path: join(SHOTS, 'node.png') });

  // Callers shown == incoming call-like neighbours from get_neighbors.
  const shownCallers = (await texts(page, '#callers li a.node')).sort();
  const nb = await callTool('get_neighbors', { label: first, verbose: true, limit: 500 });
  const callRelations = new Set<string>(CALL_RELATIONS);
  const expectedCallers = [...new Set((nb.structured.neighbors as { label: string; relation: string; direction: string }[])
    .filter((x) => x.direction === 'incoming' && callRelations.has(x.relation)).map((x) => x.label))].sort();
  assert.ok(expectedCallers.length >= 1, `fixture should give splitPath a caller, got ${expectedCallers}`);
  assert.deepEqual([...new Set(shownCallers)].sort(), expectedCallers);

  // Follow the first caller.
  const callerKey = await page.locator('#callers li a.node').first().getAttribute('data-key');
  await page.locator('#callers li a.node').first().click();
  await page.waitForFunction((key) => decodeURIComponent(location.hash).includes(`node=${key}`), callerKey);
  await page.waitForSelector('#node-title');

  // Shortest path createApp -> splitPath, same hop count as shortest_path.
  const sp = await callTool('shortest_path', { source: 'createApp', target: 'splitPath' });
  const hops = Number(/(\d+) hops?/.exec(sp.text)?.[1]);
  assert.ok(hops > 0, `shortest_path answered: ${sp.text}`);
  const createApp = (await callTool('get_node', { label: 'createApp' })).structured.id as string;
  await page.evaluate(([s, t]) => (location.hash = `#mode=path&node=${encodeURIComponent(s!)}&to=${encodeURIComponent(t!)}`), [createApp, first]);
  await page.waitForSelector('#path-result li');
  assert.equal((await page.locator('#path-result > li').count()) - 1, hops);
  await page.screenshot({ path: join(SHOTS, 'path.png') });

  // Impact of splitPath at depth 2 == affected depth 2.
  await page.evaluate((s) => (location.hash = `#mode=impact&node=${encodeURIComponent(s!)}&depth=2`), first);
  await page.waitForSelector('#impact-total');
  const total = Number(/^(\d+)/.exec((await page.locator('#impact-total').textContent())!)?.[1]);
  const affected = await callTool('affected', { label: first, depth: 2 });
  assert.equal(total, affected.structured.total);
  const shownImpact = (await texts(page, '.impact-level li a.node')).sort();
  assert.deepEqual(shownImpact, (affected.structured.affected as { label: string }[]).map((a) => a.label).sort());
  await page.screenshot({ path: join(SHOTS, 'impact.png') });

  assert.deepEqual(errors, []);
  await page.close();
});

test('export html: the single file works from file:// with no server', async () => {
  const out = join(work, 'explorer.html');
  execFileSync(process.execPath, [CLI, 'export', 'html', '--graph', graphJson, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  assert.ok(existsSync(out));
  const { page, errors } = await open(pathToFileURL(out).href);
  const state = await page.evaluate(() => window.synaptic!);
  assert.equal(state.ready, true, state.error);
  await page.fill('#search', 'Router');
  await page.waitForSelector('#results li[data-key]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#node-title');
  assert.equal(await page.locator('#node-title').textContent(), 'Router');
  await page.screenshot({ path: join(SHOTS, 'exported.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

test('explore: a missing or corrupt graph shows a readable error page', async () => {
  const missing = await explore(join(work, 'nowhere/synaptic-out/graph.json'));
  let { page } = await open(missing);
  assert.equal(await page.locator('#error-page').isVisible(), true);
  assert.match((await page.locator('#error-message').textContent())!, /does not exist.*synaptic extract/);
  await page.close();

  const bad = join(work, 'bad/synaptic-out');
  mkdirSync(bad, { recursive: true });
  writeFileSync(join(bad, 'graph.cbor'), Buffer.from('this is not a graph snapshot'));
  ({ page } = await open(await explore(join(bad, 'graph.cbor'))));
  assert.equal(await page.locator('#error-page').isVisible(), true);
  assert.match((await page.locator('#error-message').textContent())!, /Cannot read the graph snapshot/);
  await page.screenshot({ path: join(SHOTS, 'error.png') });
  await page.close();
});
