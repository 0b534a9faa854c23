import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { CLI, startHttpServer, type HttpServer } from '../helpers/serve-http.ts';

// serve options around the graph's lifecycle: --immutable-graph with --expected-graph-sha256 (the
// verified bytes are served, nothing reloads) and --watch (event-driven source catch-up).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let work: string;
const children: ChildProcess[] = [];

function extractCopy(name: string): string {
  const repo = join(work, name);
  cpSync(join(ROOT, 'test/fixtures/repo'), repo, { recursive: true });
  execFileSync(process.execPath, [CLI, 'extract', repo], { stdio: 'ignore' });
  return repo;
}

async function serveHttp(args: string[]): Promise<HttpServer> {
  const s = await startHttpServer(join(work, `ready-${children.length}.json`), args, { SYNAPTIC_API_KEY: '', SYNAPTIC_DATA_DIR: join(work, 'data'), SYNAPTIC_SERVE_WATCH: '' });
  children.push(s.child);
  return s;
}

async function restText(base: string, path: string): Promise<string> {
  const res = await request(`${base}${path}`);
  return ((await res.body.json()) as { text?: string; error?: string }).text ?? '';
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 'synaptic-serve-options-'));
});

after(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

test('--immutable-graph serves the digest-verified bytes and never reloads', async () => {
  const repo = extractCopy('pinned');
  const graph = join(repo, 'synaptic-out/graph.json');
  const digest = createHash('sha256').update(readFileSync(graph)).digest('hex');
  const s = await serveHttp(['--graph', graph, '--immutable-graph', '--expected-graph-sha256', digest.toUpperCase()]);
  assert.match(s.stderr(), /graph digest verified/);
  const before = await restText(s.base, '/api/stats');
  const doc = JSON.parse(readFileSync(graph, 'utf8'));
  doc.nodes.push({ id: 'extra.ts', label: 'extra.ts', file_type: 'code', source_file: 'extra.ts', source_location: 'L1', kind: 'file' });
  writeFileSync(graph + '.tmp', JSON.stringify(doc));
  renameSync(graph + '.tmp', graph);
  appendFileSync(join(repo, 'src/app.ts'), '\nexport function addedLater(): number { return 1; }\n');
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(await restText(s.base, '/api/stats'), before);
  assert.match(await restText(s.base, '/api/node/addedLater'), /not found|No node/i);
});

test('--expected-graph-sha256: a mismatch refuses to start; it needs --immutable-graph and 64 hex digits', () => {
  const repo = extractCopy('mismatch');
  const graph = join(repo, 'synaptic-out/graph.json');
  const run = (args: string[]) => spawnSync(process.execPath, [CLI, 'serve', '--graph', graph, ...args], { encoding: 'utf8', env: { ...process.env, SYNAPTIC_DATA_DIR: join(work, 'data') }, input: '' });
  const wrong = run(['--immutable-graph', '--expected-graph-sha256', '0'.repeat(64)]);
  assert.equal(wrong.status, 1);
  assert.match(wrong.stderr, /SHA-256 [0-9a-f]{64}, not the expected 0{64}; refusing to start/);
  const alone = run(['--expected-graph-sha256', '0'.repeat(64)]);
  assert.equal(alone.status, 2);
  assert.match(alone.stderr, /requires --immutable-graph/);
  const short = run(['--immutable-graph', '--expected-graph-sha256', 'abc']);
  assert.equal(short.status, 2);
  assert.match(short.stderr, /64 hex characters/);
});

test('--watch: an edited and an added source file reach the next answer', async () => {
  const repo = extractCopy('watched');
  const s = await serveHttp(['--graph', join(repo, 'synaptic-out/graph.json'), '--watch']);
  assert.match(s.stderr(), /watching .* for source changes/);
  assert.match(await restText(s.base, '/api/node/createApp'), /createApp/);
  appendFileSync(join(repo, 'src/app.ts'), '\nexport function watchedEdit(): number { return 2; }\n');
  writeFileSync(join(repo, 'src/added-later.ts'), 'export function brandNewHelper(): string { return "x"; }\n');
  const deadline = Date.now() + 20000;
  let edited = '';
  let added = '';
  while (Date.now() < deadline) {
    edited = await restText(s.base, '/api/node/watchedEdit');
    added = await restText(s.base, '/api/node/brandNewHelper');
    if (/src\/app\.ts/.test(edited) && /added-later\.ts/.test(added)) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  assert.match(edited, /src\/app\.ts/);
  assert.match(added, /src\/added-later\.ts/);
  // Later catch-ups start from the outputs the server kept in memory: still exact.
  writeFileSync(join(repo, 'src/added-later.ts'), 'export function renamedHelper(): string { return "y"; }\n');
  let renamed = '';
  while (Date.now() < deadline + 10000) {
    renamed = await restText(s.base, '/api/node/renamedHelper');
    if (/added-later\.ts/.test(renamed)) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  assert.match(renamed, /src\/added-later\.ts/);
  assert.doesNotMatch(await restText(s.base, '/api/node/brandNewHelper'), /added-later\.ts/, 'the old name is gone');
});

test('a fresh extract is served from graph.cbor (written after graph.json), not re-parsed from JSON', async () => {
  const repo = extractCopy('snapshot');
  const child = spawn(process.execPath, [CLI, 'serve', '--graph', join(repo, 'synaptic-out/graph.json'), '--no-freshen'], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, SYNAPTIC_DATA_DIR: join(work, 'data') },
  });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const deadline = Date.now() + 20000;
  while (!/ready on stdio/.test(err) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.match(err, /\(from graph\.cbor;/);
  child.stdin!.end();
});
