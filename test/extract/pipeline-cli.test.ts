import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, REPO_ROOT } from './pipeline-fixture.ts';
import { keeperSocketPath } from '../../src/extract/keeper-socket.node.ts';

// These spawn the compiled CLI (dist/, built by `npm test`'s pretest), which also proves the worker
// pool loads its compiled worker from dist/.
const CLI = join(REPO_ROOT, 'dist/cli/main.js');

function synaptic(args: string[], cwd = REPO_ROOT): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function assertUsageError(r: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 2, `exit code 2 expected, stderr: ${r.stderr}`);
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line expected, got: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stdout, '');
}

test('synaptic extract/update reject bad arguments with one line and exit code 2', { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, () => {
  const fx = copyFixture();
  try {
    assertUsageError(synaptic(['extract', join(fx.dir, 'no-such-dir')]), /^synaptic extract: Cannot extract: path '.*no-such-dir' does not exist$/m);
    assertUsageError(synaptic(['update', join(fx.dir, 'README.md')]), /Cannot update: path '.*README\.md' is not a directory/);
    const file = join(fx.dir, 'plain-file');
    writeFileSync(file, 'x');
    assertUsageError(synaptic(['extract', fx.dir, '--out', join(file, 'out')]), /Cannot write output folder '.*plain-file\/out': ENOTDIR/);
    assertUsageError(synaptic(['extract', fx.dir, '--bogus']), /unknown option '--bogus'/);
    assertUsageError(synaptic(['extract', fx.dir, '--max-file-size', 'lots']), /Cannot parse --max-file-size/);
    assertUsageError(synaptic(['extract', fx.dir, fx.dir]), /one path at most/);
    assertUsageError(synaptic(['update', fx.dir, '--poll', '50']), /Cannot update: --poll needs --watch/);
    assertUsageError(synaptic(['update', fx.dir, '--watch', '--poll', '5']), /Cannot parse --poll: expected milliseconds \(>= 10\), got '5'/);
  } finally {
    fx.cleanup();
  }
});

test('synaptic extract on worker threads, then update --json, from the compiled CLI', { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, () => {
  const fx = copyFixture();
  try {
    const quiet = synaptic(['extract', '--workers', '2'], fx.dir); // default path: the cwd
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, '', 'stdout stays clean without --json');
    // One summary line on stderr even without a terminal, and the next step after a first extract.
    assert.match(quiet.stderr, /^extracted \d+ files \(\d+ parsed, 0 reused; typescript \d+[^)]*\): \d+ nodes, \d+ links, \d+ communities, \d+ failed to parse, \d+ skipped in [\d.]+s -> .*synaptic-out$/m);
    assert.match(quiet.stderr, /^next: `synaptic install claude`/m);
    for (const name of ['graph.json', 'graph.cbor', '.manifest.json', 'GRAPH_REPORT.md', '.facts/00.cbor']) {
      assert.ok(existsSync(join(fx.dir, 'synaptic-out', name)), `${name} written`);
    }
    writeFileSync(join(fx.dir, 'src/util/numbers.ts'), 'export function clamp(v: number): number {\n  return v;\n}\n');
    const plain = synaptic(['update'], fx.dir);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /^updated \d+ files \(1 parsed, \d+ reused;/m);
    assert.doesNotMatch(plain.stderr, /^next:/m, 'the next step is said once, after the first extract');
    writeFileSync(join(fx.dir, 'src/util/numbers.ts'), 'export function clamp(v: number): number {\n  return v + 0;\n}\n');
    const u = synaptic(['update', '--json'], fx.dir);
    assert.equal(u.code, 0, u.stderr);
    const upd = JSON.parse(u.stdout);
    assert.equal(upd.mode, 'update');
    assert.equal(upd.parsed, 1);
    assert.equal(upd.changed, 1);
    assert.ok(upd.nodes > 20 && upd.links > 20);
  } finally {
    fx.cleanup();
  }
});

/** Lines of a child's stdout as they come. */
test('a closed stdout (a reader that went away) ends the command quietly, not with a crash', { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, async () => {
  const fx = copyFixture();
  try {
    const child = spawn(process.execPath, [CLI, 'extract', fx.dir, '--out', join(fx.dir, 'out-epipe'), '--json'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.destroy(); // the summary is written after the extract: into a pipe nobody reads
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    assert.equal(code, 0, `exit code 0: ${stderr}`);
    assert.doesNotMatch(stderr, /EPIPE|Error/, 'no stack trace');
    assert.ok(existsSync(join(fx.dir, 'out-epipe', 'graph.json')), 'the outputs were written');
  } finally {
    fx.cleanup();
  }
});

function lineReader(child: ReturnType<typeof spawn>): () => Promise<string> {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(line);
      else lines.push(line);
    }
  });
  return () => {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no update line within 30 s')), 30_000);
      waiting.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
    });
  };
}

for (const mode of ['watch', 'poll'] as const) {
  test(`synaptic update --watch${mode === 'poll' ? ' --poll' : ''} keeps the outputs equal to a full extract after each edit, and stops on SIGINT`, { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, async () => {
    const fx = copyFixture();
    const out = join(fx.dir, 'out-watch');
    const child = spawn(process.execPath, [CLI, 'update', fx.dir, '--out', out, '--watch', '--json', ...(mode === 'poll' ? ['--poll', '50'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const next = lineReader(child);
    try {
      const first = JSON.parse(await next()) as { mode: string; nodes: number };
      assert.equal(first.mode, 'full', 'no previous outputs: the first run is a full extract');
      for (const [k, edit] of [
        ['src/util/strings.ts', (t: string) => `${t}\nexport function watched1(): string {\n  return normalizePath('/w');\n}\n`],
        ['src/core/router.ts', (t: string) => `\n\n${t}`],
        ['src/util/strings.ts', (t: string) => t.replace('watched1', 'watched2')],
      ] as const) {
        const abs = join(fx.dir, k);
        writeFileSync(abs, edit(readFileSync(abs, 'utf8')));
        const s = JSON.parse(await next()) as { mode: string; changed: number; parsed: number };
        assert.equal(s.mode, 'update');
        assert.equal(s.parsed, 1, `one file re-parsed after editing ${k}`);
        const full = join(fx.dir, 'out-full');
        assert.equal(synaptic(['extract', fx.dir, '--out', full, '--json']).code, 0);
        for (const f of ['graph.json', 'graph.cbor', 'GRAPH_REPORT.md']) {
          assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(full, f))), `${f} after editing ${k} equals a full extract`);
        }
        rmSync(full, { recursive: true });
      }
      assert.match(stderr, mode === 'poll' ? /polling .* every 50 ms/ : /watching .* for changes/);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      assert.equal(await exited, 0);
    } finally {
      child.kill('SIGKILL');
      fx.cleanup();
    }
  });
}

test('a one-shot synaptic update is handed to the running watcher of its folder; --no-watcher and other options update in their own process', { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, async () => {
  const fx = copyFixture();
  const out = join(fx.dir, 'out-watcher');
  // An hour-long poll: the watcher never updates on its own here, so every update below is a request's.
  const child = spawn(process.execPath, [CLI, 'update', fx.dir, '--out', out, '--watch', '--json', '--poll', '3600000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const next = lineReader(child);
  try {
    assert.equal((JSON.parse(await next()) as { mode: string }).mode, 'full');
    const socket = keeperSocketPath(out);
    for (let t = 0; !existsSync(socket); t++) {
      assert.ok(t < 200, 'the watcher serves its socket');
      await new Promise((r) => setTimeout(r, 50));
    }
    const full = join(fx.dir, 'out-full');
    for (const [k, edit] of [
      ['src/util/strings.ts', (t: string) => `${t}\nexport function handed1(): string {\n  return normalizePath('/h');\n}\n`],
      ['src/core/router.ts', (t: string) => `\n${t}`],
    ] as const) {
      const abs = join(fx.dir, k);
      writeFileSync(abs, edit(readFileSync(abs, 'utf8')));
      const r = synaptic(['update', fx.dir, '--out', out, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const s = JSON.parse(r.stdout) as { watcherPid?: number; parsed: number; mode: string };
      // (the watcher runs in a child of the spawned process: see update.ts's young generation)
      assert.equal(typeof s.watcherPid, 'number', 'the watcher did the update');
      assert.equal(s.parsed, 1, `the edit of ${k} was seen`);
      assert.equal((JSON.parse(await next()) as { parsed: number }).parsed, 1, 'the watcher reports the update it did');
      assert.equal(synaptic(['extract', fx.dir, '--out', full, '--json']).code, 0);
      for (const f of ['graph.json', 'graph.cbor', 'GRAPH_REPORT.md']) {
        assert.ok(readFileSync(join(out, f)).equals(readFileSync(join(full, f))), `${f} after editing ${k} equals a full extract`);
      }
      rmSync(full, { recursive: true });
    }
    const own = JSON.parse(synaptic(['update', fx.dir, '--out', out, '--json', '--no-watcher']).stdout) as { watcherPid?: number };
    assert.equal(own.watcherPid, undefined, '--no-watcher updates in its own process');
    const other = JSON.parse(synaptic(['update', fx.dir, '--out', out, '--json', '--max-file-size', '5000']).stdout) as { watcherPid?: number };
    assert.equal(other.watcherPid, undefined, 'a watcher extracting with other options declines');
    assertUsageError(synaptic(['update', fx.dir, '--watch', '--no-watcher']), /--no-watcher and --watch exclude each other/);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    assert.equal(await exited, 0);
    assert.ok(!existsSync(socket), 'the socket is gone with its watcher');
  } finally {
    child.kill('SIGKILL');
    fx.cleanup();
  }
});
