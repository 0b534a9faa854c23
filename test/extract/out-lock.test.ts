import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE, lockOutDir } from '../../src/extract/out/lock.node.ts';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { copyFixture } from './pipeline-fixture.ts';

test('a live process holding synaptic-out/.lock makes a run wait, then fail with the holder named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-lock-'));
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    writeFileSync(join(dir, LOCK_FILE), `${holder.pid}\n`);
    const started = Date.now();
    await assert.rejects(lockOutDir(dir, 300), new RegExp(`Cannot write .*another synaptic process \\(pid ${holder.pid}\\)`));
    assert.ok(Date.now() - started >= 250, 'it waited before giving up');
    // Once the holder is gone, the lock is taken over.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    const lock = await lockOutDir(dir, 300);
    assert.equal(readFileSync(join(dir, LOCK_FILE), 'utf8').trim(), String(process.pid));
    lock.release();
    assert.ok(!existsSync(join(dir, LOCK_FILE)), 'released: the lock file is gone');
  } finally {
    holder.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stale lock (its process is gone) is taken over at once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'synaptic-lock-'));
  try {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    writeFileSync(join(dir, LOCK_FILE), `${dead}\n`);
    const started = Date.now();
    (await lockOutDir(dir, 5000)).release();
    assert.ok(Date.now() - started < 1000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('concurrent runs on one output folder take turns and leave the outputs of a full extract', async () => {
  const fx = copyFixture();
  try {
    const out = join(fx.dir, 'out');
    await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    writeFileSync(join(fx.dir, 'src/util/extra.ts'), 'export function extra(): number {\n  return 1;\n}\n');
    const order: string[] = [];
    const runs = [0, 1, 2].map((k) => runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true, onPhase: (p) => order.push(`${k}:${p}`) }));
    const results = await Promise.all(runs);
    // Each run's phases are contiguous: no run started linking while another was writing.
    for (let i = 0; i + 1 < order.length; i++) {
      if (order[i]!.startsWith(order[i + 1]!.slice(0, 2))) continue;
      assert.equal(order[i]!.split(':')[1], 'writing', `run switched mid-way: ${order.join(' ')}`);
    }
    assert.equal(results.filter((r) => r.added === 1).length, 1, 'the first run added the file; the others found nothing new');
    const full = join(fx.dir, 'full');
    await runExtract({ root: fx.dir, outDir: full, workers: 0 });
    assert.ok(readFileSync(join(out, 'graph.json')).equals(readFileSync(join(full, 'graph.json'))));
    assert.ok(!existsSync(join(out, LOCK_FILE)));
  } finally {
    fx.cleanup();
  }
});
