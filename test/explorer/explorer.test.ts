import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CALL_RELATIONS } from '../../src/query/relations.ts';
import { overlappingPairs, overlaps, type Rect } from '../../src/explorer/labels.ts';
import type { GraphDocument } from '../../src/graph/model.ts';
import type { ViewSnapshot } from '../../src/explorer/view.ts';

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
async function open(url: string, viewport = { width: 1400, height: 850 }): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport });
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
  // Checked on the server (length, checksum, version) before any byte reaches the page.
  assert.match((await page.locator('#error-message').textContent())!, /Cannot load the graph: .*graph\.cbor: not a graph\.cbor file; run `synaptic update`/);
  await page.screenshot({ path: join(SHOTS, 'error.png') });
  await page.close();
});

// --- the canvas: community map, community, focus, back ----------------------------------------

type Snapshot = ViewSnapshot & { mode: string };

/** Where the screenshots of the canvas tests go (kept after the run; printed as a diagnostic). */
const CANVAS_SHOTS = mkdtempSync(join(tmpdir(), 'synaptic-explorer-shots-'));

async function snapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => window.synaptic!.view!());
}

/**
 * The label rules at the default zoom, on what the page laid out and on what the browser drew:
 * no two labels overlap, none leaves the canvas or sits under an overlay (legend, breadcrumbs), and
 * each drawn text stays inside its laid-out box.
 */
async function checkLabels(page: Page, where: string): Promise<Snapshot> {
  const { view, drawn } = await page.evaluate(() => {
    const base = document.getElementById('canvas')!.getBoundingClientRect();
    const drawn = [...document.querySelectorAll('#canvas text.label')].map((t) => {
      const r = t.getBoundingClientRect();
      return { key: t.getAttribute('data-key') ?? 'note', x: r.left - base.left, y: r.top - base.top, w: r.width, h: r.height };
    });
    return { view: window.synaptic!.view!(), drawn };
  });
  assert.equal(view.zoom, 1, `${where}: default zoom`);
  assert.ok(view.labels.length > 0, `${where}: some labels`);
  assert.deepEqual(overlappingPairs(view.labels), [], `${where}: laid-out labels overlap`);
  const inside = (r: Rect) => r.x >= 0 && r.y >= 0 && r.x + r.w <= view.width && r.y + r.h <= view.height;
  for (const l of view.labels) {
    assert.ok(inside(l), `${where}: label '${l.text}' leaves the ${view.width}x${view.height} canvas at ${JSON.stringify(l)}`);
    for (const o of view.obstacles) assert.ok(!overlaps(l, o), `${where}: label '${l.text}' under an overlay`);
    if (l.truncated) assert.ok(l.text.endsWith('…') && l.full.startsWith(l.text.slice(0, -1)), `${where}: '${l.text}' shortens '${l.full}'`);
  }
  assert.equal(drawn.length, view.labels.length, `${where}: one text per label`);
  // Glyphs may overhang their advance box a little (the j of 'java'); the 2-pixel gap absorbs it.
  drawn.forEach((d, i) => {
    const l = view.labels[i]!;
    assert.ok(d.x >= l.x - 1.5 && d.y >= l.y - 1.5 && d.x + d.w <= l.x + l.w + 1.5 && d.y + d.h <= l.y + l.h + 1.5,
      `${where}: '${l.text}' drawn at ${JSON.stringify(d)} outside its box ${JSON.stringify(l)}`);
    assert.ok(inside(d), `${where}: '${l.text}' drawn past the canvas edge at ${JSON.stringify(d)}`);
  });
  const shrunk = drawn.map((d) => ({ ...d, x: d.x + 0.5, y: d.y + 0.5, w: d.w - 1, h: d.h - 1 }));
  assert.deepEqual(overlappingPairs(shrunk), [], `${where}: drawn labels overlap`);
  return view;
}

/** Wait for the canvas to show `mode` (after a click or a navigation). */
async function waitMode(page: Page, mode: string, node?: string): Promise<Snapshot> {
  await page.waitForFunction(([m, n]) => {
    const v = window.synaptic?.view?.();
    return v?.mode === m && (n === null || decodeURIComponent(location.hash).includes(`node=${n}&`) || decodeURIComponent(location.hash).endsWith(`node=${n}`));
  }, [mode, node ?? null] as const);
  return snapshot(page);
}

/** Click a canvas node: on its label when it has one (labels never overlap), else on its circle. */
async function clickNode(page: Page, view: Snapshot, key: string, badge = false): Promise<void> {
  const canvas = (await page.locator('#canvas').boundingBox())!;
  if (badge) {
    const box = await page.locator(`#canvas text.label[data-key="${key}"] .badge`).boundingBox();
    assert.ok(box, `a +/− mark beside ${key}`);
    return page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  }
  const label = view.labels.find((l) => l.key === key);
  const node = view.nodes.find((n) => n.key === key);
  assert.ok(node, `${key} is on the canvas`);
  const at = label && !label.badge ? { x: label.x + label.w / 2, y: label.y + label.h / 2 } : { x: node.x, y: node.y };
  await page.mouse.click(canvas.x + at.x, canvas.y + at.y);
}

function pairs(edges: { source: string; target: string }[]): string[] {
  return [...new Set(edges.map((e) => `${e.source} -> ${e.target}`))].sort();
}

/** Open → community map → a community → a member focused → expand → back, the same over http and file://. */
async function walkThrough(url: string, tag: string, shot: (page: Page, name: string) => Promise<void>): Promise<Snapshot> {
  const doc = JSON.parse(readFileSync(graphJson, 'utf8')) as GraphDocument;
  const labels = (doc.graph.community_labels ?? {}) as Record<string, string>;
  const { page, errors } = await open(url);

  // Open: the community map, one node per community, named from graph.json's community_labels.
  let view = await waitMode(page, 'overview');
  const communities = [...new Set(doc.nodes.map((n) => n.community).filter((c): c is number => typeof c === 'number' && c >= 0))];
  assert.deepEqual(view.nodes.map((n) => n.key).sort(), communities.map((c) => `community:${c}`).sort());
  for (const n of view.nodes) assert.equal(n.label, labels[n.key.slice('community:'.length)], `${n.key} is named from community_labels`);
  const crossing = new Set(doc.links.map((l) => {
    const a = doc.nodes.find((n) => n.id === l.source)!.community!;
    const b = doc.nodes.find((n) => n.id === l.target)!.community!;
    return a === b ? '' : [a, b].sort((x, y) => x - y).map((c) => `community:${c}`).join(' ');
  }).filter(Boolean));
  assert.deepEqual(new Set(view.edges.map((e) => [e.source, e.target].sort().join(' '))), crossing, 'an edge per coupled pair of communities');
  const mapView = await checkLabels(page, `${tag} map`);
  await shot(page, `${tag}-map`);

  // Click a community: its members, with the edges among them.
  const handle = doc.nodes.find((n) => n.label === 'handle' && n.source_file === 'src/app.ts')!;
  await clickNode(page, view, `community:${handle.community}`);
  view = await waitMode(page, 'community');
  const members = doc.nodes.filter((n) => n.community === handle.community).map((n) => n.id);
  assert.deepEqual(view.nodes.map((n) => n.key).sort(), [...members].sort());
  const inside = new Set(members);
  assert.deepEqual(pairs(view.edges), pairs(doc.links.filter((l) => inside.has(l.source) && inside.has(l.target) && l.source !== l.target)));
  await checkLabels(page, `${tag} community`);
  await shot(page, `${tag}-community`);

  // Click a member: it is focused, with its callers left and callees right (as get_neighbors lists them).
  await clickNode(page, view, handle.id);
  view = await waitMode(page, 'node', handle.id);
  const nb = await callTool('get_neighbors', { label: 'handle', verbose: true, limit: 500 });
  const calls = new Set<string>(CALL_RELATIONS);
  const around = (dir: string) => new Set((nb.structured.neighbors as { label: string; relation: string; direction: string }[]).filter((x) => x.direction === dir && calls.has(x.relation)).map((x) => x.label));
  const centre = view.nodes.find((n) => n.key === handle.id)!;
  const left = new Set(view.nodes.filter((n) => n.x < centre.x).map((n) => n.label));
  const right = new Set(view.nodes.filter((n) => n.x > centre.x).map((n) => n.label));
  assert.deepEqual(left, around('incoming'));
  assert.deepEqual(right, new Set([...around('outgoing')].filter((l) => !left.has(l))));
  assert.equal(view.nodes.length, 1 + left.size + right.size);
  await checkLabels(page, `${tag} focus`);
  await shot(page, `${tag}-focus`);

  // Expand a callee with callees of its own: they appear one column further right.
  const expandable = view.labels.find((l) => l.badge?.startsWith('+') && view.nodes.find((n) => n.key === l.key)!.x > centre.x);
  assert.ok(expandable, 'a callee with callees of its own');
  const before = new Set(view.nodes.map((n) => n.key));
  await clickNode(page, view, expandable.key, true);
  await page.waitForFunction(() => location.hash.includes('expand='));
  view = await snapshot(page);
  const parent = view.nodes.find((n) => n.key === expandable.key)!;
  const added = view.nodes.filter((n) => !before.has(n.key));
  assert.equal(added.length, Number(expandable.badge!.slice(1)), `${expandable.badge} more`);
  for (const n of added) assert.ok(n.x > parent.x, `${n.label} right of ${parent.label}`);
  await checkLabels(page, `${tag} expanded`);

  // Back: the browser's back button, then the breadcrumbs.
  await page.goBack();
  await page.waitForFunction(() => !location.hash.includes('expand='));
  assert.equal((await snapshot(page)).nodes.length, before.size);
  await page.locator('#crumbs a', { hasText: labels[String(handle.community)]! }).click();
  view = await waitMode(page, 'community');
  assert.equal(view.nodes.length, members.length);
  await page.goBack();
  await waitMode(page, 'node', handle.id);
  await page.locator('#crumbs a', { hasText: 'Community map' }).click();
  view = await waitMode(page, 'overview');
  assert.deepEqual(view.labels, mapView.labels, 'the map comes back as it was');

  // Focus by search.
  await page.fill('#search', 'splitPath');
  await page.waitForSelector('#results li[data-key]');
  await page.keyboard.press('Enter');
  view = await waitMode(page, 'node');
  const focused = view.nodes.find((n) => n.label === 'splitPath')!;
  assert.ok(focused, 'splitPath is on the canvas');
  assert.ok(view.nodes.some((n) => n.label === 'Router.match' && n.x < focused.x), 'its caller on the left');
  assert.ok(view.nodes.some((n) => n.label === 'normalizePath' && n.x > focused.x), 'its callee on the right');
  await checkLabels(page, `${tag} search focus`);

  assert.deepEqual(errors, []);
  await page.close();
  return mapView;
}

test('canvas: community map, a community, a focused symbol and back, the same over http and file://', async (t) => {
  const shot = (page: Page, name: string) => page.screenshot({ path: join(CANVAS_SHOTS, `${name}.png`) }).then(() => undefined);
  const overHttp = await walkThrough(await explore(graphJson), 'http', shot);
  const out = join(work, 'canvas.html');
  execFileSync(process.execPath, [CLI, 'export', 'html', '--graph', graphJson, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  const overFile = await walkThrough(pathToFileURL(out).href, 'file', shot);
  assert.deepEqual(overFile.labels, overHttp.labels, 'the same map layout over file:// and http');
  assert.deepEqual(overFile.nodes, overHttp.nodes);
  t.diagnostic(`screenshots in ${CANVAS_SHOTS}`);
});

test('canvas: on a small window labels are shortened, never clipped or overlapping, hover shows the full name, zoom and resize lay them out again', async (t) => {
  const out = join(work, 'small.html');
  execFileSync(process.execPath, [CLI, 'export', 'html', '--graph', graphJson, '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  const { page, errors } = await open(pathToFileURL(out).href, { width: 1000, height: 650 });
  const view = await checkLabels(page, 'small map');
  const cut = view.labels.find((l) => l.truncated);
  assert.ok(cut, `a label is shortened on a ${view.width}px canvas`);
  const node = view.nodes.find((n) => n.key === cut.key)!;
  const canvas = (await page.locator('#canvas').boundingBox())!;
  await page.mouse.move(canvas.x + node.x, canvas.y + node.y);
  await page.waitForSelector('#tooltip:not(.hidden)');
  assert.equal(await page.locator('#tooltip strong').textContent(), cut.full);
  await page.screenshot({ path: join(CANVAS_SHOTS, 'small-hover.png') });
  // Zoomed in and back: labels are placed again, and a double click restores the default zoom.
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction(() => window.synaptic!.view!().zoom > 1);
  await page.waitForTimeout(50);
  const zoomed = await snapshot(page);
  assert.deepEqual(overlappingPairs(zoomed.labels), []);
  await page.mouse.dblclick(canvas.x + 4, canvas.y + canvas.height / 2);
  await page.waitForFunction(() => window.synaptic!.view!().zoom === 1);
  await checkLabels(page, 'small map after zoom');
  // A larger window: laid out again for the new canvas, the rules still hold.
  await page.setViewportSize({ width: 1400, height: 850 });
  await page.waitForFunction((w) => window.synaptic!.view!().width > w, view.width);
  const larger = await checkLabels(page, 'map after resize');
  assert.ok(larger.labels.filter((l) => l.truncated).length < view.labels.filter((l) => l.truncated).length, 'fewer labels shortened on a larger canvas');
  assert.deepEqual(errors, []);
  await page.close();
  t.diagnostic(`screenshots in ${CANVAS_SHOTS}`);
});
