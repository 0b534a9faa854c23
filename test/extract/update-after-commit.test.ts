import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { assertSameOutputs, copyFixture } from './pipeline-fixture.ts';

// A new commit alone changes only built_at_commit: an update after `git commit` (or of a worktree of
// another commit seeded with these outputs, as time_travel_diff does) still relinks incrementally
// and writes the same bytes as a full extract of the same tree at the same commit.

test('an update after a commit relinks only the changed file and equals a full extract', async () => {
  const fx = copyFixture();
  const git = (...a: string[]) => execFileSync('git', ['-C', fx.dir, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...a], { stdio: 'ignore' });
  try {
    writeFileSync(join(fx.dir, '.gitignore'), 'out-*/\n');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    const out = join(fx.dir, 'out-update');
    const first = await runExtract({ root: fx.dir, outDir: out, workers: 0 });
    const file = join(fx.dir, 'src/util/strings.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('export function splitPath(', 'export function splitPathRenamed('));
    git('commit', '-q', '-am', 'two');
    const upd = await runExtract({ root: fx.dir, outDir: out, workers: 0, incremental: true });
    assert.equal(upd.linkMode, 'incremental', 'the new commit alone does not force a full link');
    assert.ok(upd.relinked < first.files);
    const full = join(fx.dir, 'out-full');
    await runExtract({ root: fx.dir, outDir: full, workers: 0 });
    assertSameOutputs(out, full, 'after a commit');
    const head = execFileSync('git', ['-C', fx.dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    assert.equal(JSON.parse(readFileSync(join(out, 'graph.json'), 'utf8')).built_at_commit, head);
  } finally {
    fx.cleanup();
  }
});
