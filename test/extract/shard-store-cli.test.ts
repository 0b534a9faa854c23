/**
 * The shard store from the CLI (#22 item 2, docs/store.md): `extract` writes graph.shard, `update`
 * keeps it equal, row for row, to a fresh `migrate` of the same graph.json, `--no-store` writes
 * none (and removes an old one), `migrate` builds one from an existing graph.json, and a damaged or
 * newer-format shard is detected with its tag named. The built CLI on a copy of test/fixtures/repo
 * (Go and Java package nodes: links are not grouped by file).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { stringifyGraph } from '../../src/extract/outputs/graph-json.ts';
import { Shard } from '../../src/graph/store/read.node.ts';
import { CLI_ARGS, ROOT } from '../mcp/helpers.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function repoCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-shard-cli-'));
  dirs.push(dir);
  const repo = join(dir, 'repo');
  cpSync(join(ROOT, 'test/fixtures/repo'), repo, { recursive: true });
  return repo;
}

function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI_ARGS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function ok(...args: string[]): Promise<Record<string, unknown>> {
  const r = await cli(...args, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

/**
 * Every row of a shard, keyed by content rather than by row number (an update reuses and hands
 * out row numbers, a fresh write numbers in order): nodes with their file's path and their
 * community from the blob, links with their file's path and position in it, the files table, the
 * meta table but for what differs by design (generation, time, the blobs' CRCs).
 */
function rowsOf(path: string): Record<string, string[]> {
  const db = new Database(path, { readonly: true });
  try {
    const paths = new Map((db.prepare('SELECT fid, path FROM files').all() as { fid: number; path: string }[]).map((r) => [r.fid, r.path]));
    const blob = db.prepare("SELECT data FROM blobs WHERE name = 'communities'").pluck().get() as Buffer;
    const community = (nid: number) => blob.readInt32LE(nid * 4);
    const nodes = (db.prepare('SELECT nid, id, fid, label, kind, flags, json FROM nodes').all() as Record<string, number | string>[])
      .map((r) => JSON.stringify([r.id, paths.get(r.fid as number), r.label, r.kind, r.flags, r.json, community(r.nid as number)]));
    const links = (db.prepare('SELECT fid, seq, source, target, relation, flags, json FROM links').all() as Record<string, number | string>[])
      .map((r) => JSON.stringify([paths.get(r.fid as number), r.seq, r.source, r.target, r.relation, r.flags, r.json]));
    const files = (db.prepare('SELECT path, nodes, links FROM files').all() as Record<string, unknown>[]).map((r) => JSON.stringify(r));
    const skip = new Set(['generation', 'written_at', 'communities_crc', 'rowids_crc', 'link_rowids_crc', 'meta_crc', 'content_sum']);
    const meta = (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).filter((r) => !skip.has(r.key)).map((r) => `${r.key}=${r.value}`);
    return { nodes: nodes.sort(), links: links.sort(), files: files.sort(), meta: meta.sort() };
  } finally {
    db.close();
  }
}

/** The folder's shard (just updated) has the rows a fresh `migrate` of its graph.json writes; the migrated one has `generation`. */
async function sameAsMigrate(out: string, generation: number): Promise<void> {
  const shard = join(out, 'graph.shard');
  const updated = join(out, '..', '..', `updated-${generation}.shard`);
  copyFileSync(shard, updated);
  assert.equal(shardText(updated), readFileSync(join(out, 'graph.json'), 'utf8'));
  const migrated = await ok('migrate', out);
  assert.equal(migrated.incremental, true);
  assert.equal(migrated.generation, generation);
  const fresh = rowsOf(shard);
  const incremental = rowsOf(updated);
  for (const table of ['nodes', 'links', 'files', 'meta']) assert.deepEqual(incremental[table], fresh[table], table);
  assert.ok(fresh.nodes!.length > 100 && fresh.links!.length > 200);
}

/** The shard, checked row by row, as graph.json's text. */
function shardText(path: string): string {
  const shard = Shard.open(path, { verify: true });
  try {
    return stringifyGraph(shard.document());
  } finally {
    shard.close();
  }
}

test('extract writes the shard; update keeps it equal to a fresh migrate of the same graph, row for row', async () => {
  const repo = repoCopy();
  const out = join(repo, 'synaptic-out');
  const shard = join(out, 'graph.shard');
  const first = await ok('extract', repo);
  assert.equal((first.store as { mode: string }).mode, 'full');
  assert.equal(shardText(shard), readFileSync(join(out, 'graph.json'), 'utf8'));

  // A changed TS file: the relink route, its rows reused.
  appendFileSync(join(repo, 'src/app.ts'), '\nexport function addedForTheStore(n: number): number { return n + 1; }\n');
  const updated = await ok('update', repo, '--no-watcher');
  const store = updated.store as { mode: string; generation: number; files: number; reason?: string };
  assert.equal(store.mode, 'incremental', store.reason);
  assert.equal(store.generation, 2);
  assert.ok(store.files > 0 && store.files < 20, `rewrote the rows of ${store.files} files`);
  await sameAsMigrate(out, 3);

  // New TS and Go files (a package node's links), a deleted Python file: whatever the route, the same rows.
  writeFileSync(join(repo, 'src/added.ts'), 'import { addedForTheStore } from "./app";\nexport const viaStore = addedForTheStore(1);\n');
  writeFileSync(join(repo, 'go/extra.go'), 'package main\n\nfunc Extra() int { return 1 }\n');
  rmSync(join(repo, 'py/app.py'), { force: true });
  const second = await ok('update', repo, '--no-watcher');
  assert.equal((second.store as { generation: number }).generation, 4);
  await sameAsMigrate(out, 5);

  // An update with nothing changed leaves the shard as it is.
  const again = await ok('update', repo, '--no-watcher');
  assert.equal((again.store as { mode: string }).mode, 'fresh');
});

test('--no-store writes no shard and removes an old one; migrate builds one from an existing graph.json', async () => {
  const repo = repoCopy();
  const out = join(repo, 'synaptic-out');
  const shard = join(out, 'graph.shard');
  const plain = await ok('extract', repo, '--no-store');
  assert.equal(plain.store, undefined);
  assert.equal(existsSync(shard), false);
  // An update does not create one in a folder that has none...
  appendFileSync(join(repo, 'src/app.ts'), '\nexport const storeless = 1;\n');
  const kept = await ok('update', repo, '--no-watcher');
  assert.equal(kept.store, undefined);
  assert.equal(existsSync(shard), false);

  // ...migrate does, from the graph.json there (named by its path), keyed so that updates stay incremental.
  const migrated = await ok('migrate', join(out, 'graph.json'));
  assert.equal(migrated.incremental, true);
  assert.equal(shardText(shard), readFileSync(join(out, 'graph.json'), 'utf8'));
  appendFileSync(join(repo, 'src/app.ts'), '\nexport const stored = 2;\n');
  const updated = await ok('update', repo, '--no-watcher');
  assert.equal((updated.store as { mode: string }).mode, 'incremental');
  assert.equal(shardText(shard), readFileSync(join(out, 'graph.json'), 'utf8'));

  const removed = await ok('update', repo, '--no-watcher', '--no-store');
  assert.equal((removed.store as { mode: string }).mode, 'removed');
  assert.equal(existsSync(shard), false);

  const none = await cli('migrate', join(repo, 'src'));
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no graph\.json in .*src/);
});

test('a damaged shard is named by its tag and rebuilt; a newer format is refused, the graph still written', async () => {
  const repo = repoCopy();
  const out = join(repo, 'synaptic-out');
  const shard = join(out, 'graph.shard');
  await ok('extract', repo);
  const tag = Shard.open(shard).tag;
  assert.equal(tag, 'repo');

  // One row's JSON changed behind the store's back (its checksum left as it was).
  const db = new Database(shard);
  assert.equal(db.prepare(`UPDATE nodes SET json = replace(json, '"source_location":"L', '"source_location":"L9') WHERE nid = (SELECT min(nid) FROM nodes WHERE json LIKE '%"source_location":"L%')`).run().changes, 1);
  db.close();
  const check = await cli('migrate', out, '--check');
  assert.equal(check.code, 1);
  assert.match(check.stderr, /Shard 'repo' is corrupt .*fails its checksum/);
  const rebuilt = await ok('migrate', out);
  assert.match(String(rebuilt.replaced), /rebuilt/);
  assert.equal((await cli('migrate', out, '--check')).code, 0);

  // A shard written by a newer synaptic: update writes the graph and leaves the shard alone, saying why; migrate refuses.
  const newer = readFileSync(shard);
  newer.writeUInt32BE(99, 60);
  writeFileSync(shard, newer);
  appendFileSync(join(repo, 'src/app.ts'), '\nexport function afterNewer(): number { return 3; }\n');
  const r = await cli('update', repo, '--no-watcher', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /shard store was not updated: Shard 'repo' .*newer synaptic \(shard format 99/);
  assert.match(readFileSync(join(out, 'graph.json'), 'utf8'), /afterNewer/);
  assert.equal(readFileSync(shard).readUInt32BE(60), 99);
  const refused = await cli('migrate', out);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Shard 'repo' .*written by a newer synaptic/);
});
