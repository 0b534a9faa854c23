// The browser explorer's speed, measured in headless Chromium on a large graph: page ready (snapshot
// decoded, core loaded, indexes built), search per keystroke, neighbourhood redraw, shortest path and
// impact. EXPLORER_BENCH_GRAPH=<graph.json|graph.cbor> measures a real graph; otherwise a seeded
// code-like graph (planted communities, words for labels) of EXPLORER_BENCH_NODES nodes (default
// 100,000; 5,000 with BENCH_QUICK=1) is generated. No timing asserts: the numbers go in the table.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { encodeGraph } from '../src/graph/snapshot-encode.ts';
import type { GraphDocument, GraphLink, GraphNode } from '../src/graph/model.ts';
import { plantedByDegree, Rng } from './gen.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist/cli/main.js');
const WORDS = ['parse', 'render', 'load', 'graph', 'node', 'edge', 'query', 'cache', 'store', 'router', 'handle', 'request', 'token', 'session', 'user', 'auth', 'config', 'build', 'emit', 'event', 'stream', 'buffer', 'index', 'search', 'rank', 'score', 'path', 'file', 'module', 'client'];

/** A seeded code-like graph: files of ~20 symbols, planted communities, calls/references edges. */
export function syntheticCodeGraph(n: number, seed = 7): GraphDocument {
  const rng = new Rng(seed);
  const g = plantedByDegree({ n, k: Math.max(4, Math.round(n / 400)), degIn: 5, degOut: 1, seed });
  const nodes: GraphNode[] = [];
  for (let i = 0; i < n; i++) {
    const c = g.membership[i]!;
    const file = `src/${WORDS[c % WORDS.length]}${c}/${WORDS[(i >> 4) % WORDS.length]}${i >> 4}.ts`;
    const label = `${WORDS[rng.below(WORDS.length)]}${WORDS[rng.below(WORDS.length)]!.replace(/^./, (x) => x.toUpperCase())}${i}`;
    nodes.push({ id: `${file}#${label}`, label, file_type: 'code', source_file: file, source_location: `L${i % 400}`, kind: i % 7 ? 'function' : 'class', community: c });
  }
  const links: GraphLink[] = [];
  for (let e = 0; e < g.src.length; e++) {
    const s = nodes[g.src[e]!]!;
    links.push({ source: s.id, target: nodes[g.dst[e]!]!.id, relation: e % 5 ? 'calls' : 'references', confidence: 'EXTRACTED', confidence_score: 1, source_file: s.source_file, source_location: 'L1' });
  }
  const labels: Record<string, string> = {};
  for (let c = 0; c < g.k; c++) labels[String(c)] = `${WORDS[c % WORDS.length]}${c}`;
  return { directed: true, multigraph: true, graph: { community_labels: labels }, nodes, links, hyperedges: [], built_at_commit: null };
}

export interface ExplorerBenchResult {
  nodes: number;
  edges: number;
  readyMs: number;
  /** Building the search postings after the first paint. */
  warmMs: number;
  searchMsMax: number;
  searchMsMedian: number;
  neighbourhoodMs: number;
  pathMs: number;
  impactMs: number;
  renderImpactMs: number;
}

export async function runExplorerBench(opts: { quick: boolean; graph?: string; log?: (m: string) => void }): Promise<ExplorerBenchResult> {
  const log = opts.log ?? ((m: string) => console.error(m));
  const work = mkdtempSync(join(tmpdir(), 'synaptic-explorer-bench-'));
  let graph = opts.graph;
  if (!graph) {
    const n = Number(process.env.EXPLORER_BENCH_NODES ?? (opts.quick ? 5000 : 100_000));
    mkdirSync(join(work, 'synaptic-out'));
    graph = join(work, 'synaptic-out/graph.cbor');
    writeFileSync(graph, encodeGraph(syntheticCodeGraph(n)));
  }
  const server = spawn(process.execPath, [CLI, 'explore', '--graph', graph, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const url = await new Promise<string>((res, rej) => {
      let out = '';
      server.stdout!.on('data', (d: Buffer) => {
        out += d;
        const m = /http:\/\/\S+\//.exec(out);
        if (m) res(m[0]);
      });
      server.on('exit', (code) => rej(new Error(`explore exited with ${code}`)));
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    await page.goto(url);
    await page.waitForFunction(() => window.synaptic && (window.synaptic.ready || window.synaptic.error), null, { timeout: 120_000 });
    const state = await page.evaluate(() => window.synaptic!);
    if (!state.ready) throw new Error(`explorer failed: ${state.error}`);
    // Let the post-paint warm-up (search postings) finish, as a user's first keystroke would.
    await page.waitForFunction(() => window.synaptic!.timings.warm !== undefined, null, { timeout: 60_000 });
    const warmMs = await page.evaluate(() => window.synaptic!.timings.warm!);
    const searches: number[] = [];
    const term = 'parseRouter';
    for (let i = 1; i <= term.length; i++) {
      await page.fill('#search', term.slice(0, i));
      searches.push(await page.evaluate(() => window.synaptic!.timings.search!));
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('#node-title');
    const t = () => page.evaluate(() => window.synaptic!.timings);
    const neighbourhoodMs = (await t())['render:node']!;
    const keys = await page.evaluate(() => [...document.querySelectorAll('#neighbours a.node')].map((a) => a.getAttribute('data-key')));
    const from = await page.evaluate(() => decodeURIComponent(location.hash).replace(/.*node=/, '').replace(/&.*/, ''));
    const far = keys.at(-1) ?? from;
    await page.evaluate(([a, b]) => (location.hash = `#mode=path&node=${encodeURIComponent(a!)}&to=${encodeURIComponent(b!)}`), [from, far]);
    await page.waitForSelector('#path-result');
    const pathMs = (await t()).path ?? NaN;
    await page.evaluate((a) => (location.hash = `#mode=impact&node=${encodeURIComponent(a!)}&depth=3`), from);
    await page.waitForSelector('#impact-total');
    const timings = await t();
    searches.sort((a, b) => a - b);
    const result: ExplorerBenchResult = {
      nodes: state.nodes,
      edges: state.edges,
      readyMs: timings.ready!,
      warmMs,
      searchMsMax: searches.at(-1)!,
      searchMsMedian: searches[Math.floor(searches.length / 2)]!,
      neighbourhoodMs,
      pathMs,
      impactMs: timings.impact!,
      renderImpactMs: timings['render:impact']!,
    };
    log(`explorer: ${result.nodes} nodes ready in ${result.readyMs.toFixed(0)} ms; search max ${result.searchMsMax.toFixed(1)} ms; neighbourhood ${result.neighbourhoodMs.toFixed(1)} ms; path ${result.pathMs.toFixed(1)} ms; impact ${result.impactMs.toFixed(1)} ms`);
    return result;
  } finally {
    await browser.close();
    server.kill();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(ROOT, 'dist/explorer/app.js'))) throw new Error('Cannot run the explorer bench: run `npm run build` first');
  console.table([await runExplorerBench({ quick: process.env.BENCH_QUICK === '1', graph: process.env.EXPLORER_BENCH_GRAPH })]);
}
