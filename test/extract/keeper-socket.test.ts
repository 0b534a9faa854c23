import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createConnection, createServer, type Socket } from 'node:net';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askKeeper, privateFolder, serveKeeperSocket, keeperSocketPath, type UpdateRequest } from '../../src/extract/keeper-socket.node.ts';
import type { ExtractSummary } from '../../src/extract/pipeline.node.ts';

const unix = process.platform !== 'win32';

function request(outDir: string, version = 'v1'): UpdateRequest {
  return { op: 'update', version, root: '/repo', outDir, maxFileSize: null };
}

/** One raw line to the socket and the raw answer. */
function rawExchange(path: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path, () => socket.write(line));
    let got = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (got += d));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

test('askKeeper: no watcher is null; a watcher answers, declines, or reports its failure', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'synaptic-socket-'));
  try {
    assert.equal(await askKeeper(request(outDir)), null, 'nobody listens');
    const summary = { mode: 'update', parsed: 1 } as unknown as ExtractSummary;
    const served = await serveKeeperSocket(outDir, async (r) => {
      if (r.version !== 'v1') return { ok: false, error: 'other version', declined: true };
      if (r.root !== '/repo') throw new Error('disk full');
      return { ok: true, summary, pid: 42 };
    });
    assert.equal(served.serving, true);
    try {
      assert.deepEqual(await askKeeper(request(outDir)), { ok: true, summary, pid: 42 });
      assert.deepEqual(await askKeeper(request(outDir, 'v2')), { ok: false, error: 'other version', declined: true });
      assert.deepEqual(await askKeeper({ ...request(outDir), root: '/elsewhere' }), { ok: false, error: 'disk full', declined: false });
      const bad = JSON.parse(await rawExchange(keeperSocketPath(outDir), '{"op":"delete"}\n')) as { ok: boolean; declined: boolean; error: string };
      assert.deepEqual([bad.ok, bad.declined], [false, true]);
      assert.match(bad.error, /op is not 'update'/);
      assert.match((JSON.parse(await rawExchange(keeperSocketPath(outDir), 'not json\n')) as { error: string }).error, /not JSON/);
      const second = await serveKeeperSocket(outDir, async () => ({ ok: false, error: 'second', declined: true }));
      assert.equal(second.serving, false, 'a live watcher keeps its socket');
      assert.deepEqual(await askKeeper(request(outDir)), { ok: true, summary, pid: 42 }, 'the first watcher still answers');
    } finally {
      await served.close();
    }
    assert.equal(await askKeeper(request(outDir)), null, 'closed: nobody answers');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

test('a stale socket left by a dead watcher is replaced; a hung watcher times out as no answer', { skip: !unix && 'Unix sockets' }, async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'synaptic-socket-'));
  const path = keeperSocketPath(outDir);
  try {
    await askKeeper(request(outDir)); // creates the private socket folder
    // A listener that never answers: askKeeper gives up after its timeout.
    const held = new Set<Socket>();
    const hung = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => hung.listen(path, resolve));
    assert.equal(await askKeeper(request(outDir), 300), null);
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
    // A watcher killed with SIGKILL leaves its socket file behind.
    const killed = spawnSync(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    assert.equal(killed.signal, 'SIGKILL');
    assert.ok(existsSync(path), 'a stale socket file is there');
    const served = await serveKeeperSocket(outDir, async () => ({ ok: true, summary: {} as ExtractSummary, pid: 7 }));
    try {
      assert.equal(served.serving, true, 'the stale socket was replaced');
      assert.equal((await askKeeper(request(outDir)))?.ok, true);
    } finally {
      await served.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

test('the socket folder is used only when it is a private directory of ours, never through a planted link', { skip: !unix && 'Unix modes' }, () => {
  const base = mkdtempSync(join(tmpdir(), 'synaptic-folder-'));
  try {
    const fresh = join(base, 'fresh');
    assert.equal(privateFolder(fresh), true, 'created 0700');
    assert.equal(privateFolder(fresh), true, 'and found so again');
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    assert.equal(privateFolder(open), false, 'a folder others can read is refused');
    const target = join(base, 'target');
    mkdirSync(target, { mode: 0o700 });
    const planted = join(base, 'planted');
    symlinkSync(target, planted);
    assert.equal(privateFolder(planted), false, 'a symlink in the folder\'s place is refused, though it points at a private folder');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
