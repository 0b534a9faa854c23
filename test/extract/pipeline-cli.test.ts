import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, REPO_ROOT } from './pipeline-fixture.ts';

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
  } finally {
    fx.cleanup();
  }
});

test('synaptic extract on worker threads, then update --json, from the compiled CLI', { skip: !existsSync(CLI) && 'dist/ not built (npm run build)' }, () => {
  const fx = copyFixture();
  try {
    const quiet = synaptic(['extract', '--workers', '2'], fx.dir); // default path: the cwd
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stdout, '', 'quiet without --json');
    for (const name of ['graph.json', 'graph.cbor', '.manifest.json', 'GRAPH_REPORT.md', '.facts/00.cbor']) {
      assert.ok(existsSync(join(fx.dir, 'synaptic-out', name)), `${name} written`);
    }
    writeFileSync(join(fx.dir, 'src/util/numbers.ts'), 'export function clamp(v: number): number {\n  return v;\n}\n');
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
