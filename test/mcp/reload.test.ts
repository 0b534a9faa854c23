import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { extractFixture, RawServer, rawServerForFile, serveArgs, text } from './helpers.ts';

const served = rawServerForFile();
let original: string;
let id = 1;

function writeAtomic(path: string, content: string): void {
  const tmp = path + '.tmp';
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

function nodesOf(r: Record<string, unknown>): number {
  return ((r.result as { structuredContent: { nodes: number } }).structuredContent).nodes;
}

before(() => {
  original = readFileSync(served.fx.graph, 'utf8');
});

test('hot reload: a replaced graph.json is served, calls in flight all complete', async () => {
  const doc = JSON.parse(original) as { nodes: Array<Record<string, unknown>>; links: unknown[] };
  const before = nodesOf(await served.server.call(id++, 'graph_stats', {}));
  assert.equal(before, doc.nodes.length);
  doc.nodes.push({ id: 'src/hot.ts#hotReloaded', label: 'hotReloaded', kind: 'function', file_type: 'code', source_file: 'src/hot.ts', source_location: 'L1' });
  // Fire calls continuously while the file is swapped underneath them.
  const inFlight: Array<Promise<Record<string, unknown>>> = [];
  for (let i = 0; i < 20; i++) inFlight.push(served.server.call(id++, i % 2 ? 'graph_stats' : 'find_callers', i % 2 ? {} : { label: 'handle' }));
  writeAtomic(served.fx.graph, JSON.stringify(doc));
  for (let i = 0; i < 20; i++) inFlight.push(served.server.call(id++, 'graph_stats', {}));
  const results = await Promise.all(inFlight);
  for (const r of results) {
    assert.ok(r.result, JSON.stringify(r));
    assert.notEqual((r.result as { isError?: boolean }).isError, true);
  }
  // Every stats answer is either the old or the new graph, never a mix.
  for (const r of results.filter((x) => (x.result as { structuredContent?: unknown }).structuredContent)) {
    assert.ok([before, before + 1].includes(nodesOf(r)));
  }
  let after = 0;
  for (let tries = 0; tries < 50 && after !== before + 1; tries++) {
    await new Promise((r) => setTimeout(r, 100));
    after = nodesOf(await served.server.call(id++, 'graph_stats', {}));
  }
  assert.equal(after, before + 1);
  const found = await served.server.call(id++, 'get_node', { label: 'hotReloaded' });
  assert.match(text(found.result), /src\/hot\.ts/);
  assert.match(served.server.stderr, /graph reloaded/);
});

test('a corrupt replacement is refused with a warning and the old graph keeps serving', async () => {
  const before = nodesOf(await served.server.call(id++, 'graph_stats', {}));
  writeAtomic(served.fx.graph, '{"nodes": [ this is not json');
  for (let tries = 0; tries < 50 && !/refused to reload/.test(served.server.stderr); tries++) {
    await new Promise((r) => setTimeout(r, 100));
    await served.server.call(id++, 'graph_stats', {});
  }
  assert.match(served.server.stderr, /warning: refused to reload .*graph\.json: Cannot load graph .*invalid JSON/);
  assert.equal(nodesOf(await served.server.call(id++, 'graph_stats', {})), before);
  writeAtomic(served.fx.graph, original);
  let n = before;
  for (let tries = 0; tries < 50 && n === before; tries++) {
    await new Promise((r) => setTimeout(r, 100));
    n = nodesOf(await served.server.call(id++, 'graph_stats', {}));
  }
  assert.equal(n, JSON.parse(original).nodes.length, 'a later good file loads again');
});

test('a corrupt graph at startup exits with a clear error; a missing one is waited for, said on stderr only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-bad-'));
  try {
    const bad = join(dir, 'graph.json');
    writeFileSync(bad, '{"nodes": 3}');
    const r = spawnSync(process.execPath, serveArgs(bad), { input: '', encoding: 'utf8', env: served.fx.env });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Cannot load graph .*'nodes' is missing or not an array/);
    const missing = spawnSync(process.execPath, serveArgs(join(dir, 'nope/graph.json')), { input: '', encoding: 'utf8', env: served.fx.env });
    // Serve before the first extract (issue #18): the server starts, says so, and ends with its input.
    assert.equal(missing.status, 0, missing.stderr);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /no graph at .*nope\/graph\.json yet: graph tools answer once 'synaptic extract' has written it/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('source edits are picked up: the staleness check re-extracts changed files before answering', async () => {
  const file = join(served.fx.repo, 'src/app.ts');
  writeFileSync(file, readFileSync(file, 'utf8') + '\nexport function freshlyAddedByTest(): number {\n  return 42;\n}\n');
  let answer = '';
  for (let tries = 0; tries < 60 && !/src\/app\.ts/.test(answer); tries++) {
    await new Promise((r) => setTimeout(r, 250));
    answer = text((await served.server.call(id++, 'get_node', { label: 'freshlyAddedByTest' }, )).result);
  }
  assert.match(answer, /freshlyAddedByTest[\s\S]*src\/app\.ts/);
  assert.match(served.server.stderr, /source changed \(src\/app\.ts\); graph updated/);
});

test('an edit made while no server ran is in the very first answer (the startup check runs while the graph loads)', async () => {
  const own = extractFixture();
  try {
    const file = join(own.repo, 'src/app.ts');
    writeFileSync(file, readFileSync(file, 'utf8') + '\nexport function editedBeforeStart(): number {\n  return 7;\n}\n');
    const fresh = new RawServer(serveArgs(own.graph), own.env);
    try {
      await fresh.ready();
      const answer = text((await fresh.call(1, 'get_node', { label: 'editedBeforeStart' })).result);
      assert.match(answer, /editedBeforeStart[\s\S]*src\/app\.ts/);
      assert.match(fresh.stderr, /source changed \(src\/app\.ts\); graph updated/);
    } finally {
      await fresh.close();
    }
  } finally {
    own.cleanup();
  }
});
