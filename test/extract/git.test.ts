import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { git, gitIn, gitOutcomesIn } from '../../src/extract/git.node.ts';
import { changedSince } from '../../src/mcp/tools/recency.ts';

// A repository whose .git/config (and the environment) names programs that each write a marker
// file when git runs them. The control test proves plain git runs them; the rest prove ours never does.

const skip = process.platform === 'win32' ? 'the traps are POSIX shell scripts' : false;
let dir: string;
let repo: string;
let other: string;
let markers: string;

function plainGit(cwd: string, ...args: string[]) {
  return spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
}

function fired(): string[] {
  return readdirSync(markers).sort();
}

before(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'synaptic-git-'));
  markers = join(dir, 'markers');
  mkdirSync(markers);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  // Each trap leaves a marker and then behaves well enough that git carries on.
  const script = (name: string, body: string) => {
    const path = join(bin, name);
    writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  for (const t of ['fsmonitor', 'env-fsmonitor', 'external', 'env-external', 'pager']) script(t, 'cat >/dev/null 2>&1; exit 0');
  for (const t of ['ssh', 'env-ssh']) script(t, 'exit 1'); // the connection fails at once
  script('textconv', 'cat "$1"');
  script('clean', 'cat');
  script('smudge', 'cat');
  const hooks = join(dir, 'hooks');
  mkdirSync(hooks);
  writeFileSync(join(hooks, 'post-index-change'), `#!/bin/sh\ntouch '${join(markers, 'hook')}'\n`);
  chmodSync(join(hooks, 'post-index-change'), 0o755);

  repo = join(dir, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  writeFileSync(join(repo, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(repo, 'src/b.ts'), 'export const b = 2;\n');
  writeFileSync(join(repo, '.gitattributes'), '* diff=hostile filter=hostile\n');
  plainGit(repo, 'init', '-q', '-b', 'main');
  plainGit(repo, 'add', '-A');
  plainGit(repo, 'commit', '-q', '-m', 'base');
  const config: Array<[string, string]> = [
    ['core.fsmonitor', join(bin, 'fsmonitor')],
    ['core.hooksPath', hooks],
    ['diff.external', join(bin, 'external')],
    ['diff.hostile.textconv', join(bin, 'textconv')],
    ['filter.hostile.clean', join(bin, 'clean')],
    ['filter.hostile.smudge', join(bin, 'smudge')],
    ['filter.hostile.required', 'true'],
    ['core.pager', join(bin, 'pager')],
    ['pager.diff', join(bin, 'pager')],
    ['core.sshCommand', join(bin, 'ssh')],
    ['credential.helper', `!touch '${join(markers, 'credential')}'`],
  ];
  for (const [k, v] of config) plainGit(repo, 'config', k, v);
  // The branch's work: one edited file, one untracked file, one file touched but unchanged
  // (stat-dirty, so git refreshes and rewrites the index: the post-index-change hook).
  appendFileSync(join(repo, 'src/a.ts'), 'export const a2 = 3;\nexport const a3 = 4;\n');
  writeFileSync(join(repo, 'src/new.ts'), 'export const n = 0;\n');
  const later = new Date(Date.now() + 5000);
  utimesSync(join(repo, 'src/b.ts'), later, later);

  // A second repository the environment points at; answers must still come from `repo`.
  other = join(dir, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'z.ts'), 'z\n');
  plainGit(other, 'init', '-q');
  plainGit(other, 'add', '-A');
  plainGit(other, 'commit', '-q', '-m', 'other');
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  if (markers) for (const m of readdirSync(markers)) rmSync(join(markers, m));
});

test('control: plain git in this repository runs the planted programs', { skip }, () => {
  const numstat = spawnSync('git', ['-C', repo, 'diff', '--numstat', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 });
  assert.equal(numstat.status, 0);
  assert.deepEqual(fired(), ['clean', 'fsmonitor', 'hook'], 'what the old query_graph since= path ran');
  plainGit(repo, 'diff', 'HEAD'); // the external diff gets the old side smudged into a temp file
  plainGit(repo, 'diff', '--no-ext-diff', 'HEAD');
  plainGit(repo, 'ls-remote', 'ssh://example.invalid/x');
  assert.deepEqual(fired(), ['clean', 'external', 'fsmonitor', 'hook', 'smudge', 'ssh', 'textconv']);
});

test('git() runs none of them and still answers from the working tree', { skip }, () => {
  const run = gitIn(repo);
  assert.equal(run(['rev-parse', '--is-inside-work-tree'])?.trim(), 'true');
  assert.equal(run(['diff', '--numstat', 'HEAD'])?.trim(), '2\t0\tsrc/a.ts');
  const patch = run(['diff', 'HEAD']) ?? '';
  assert.match(patch, /^\+export const a2 = 3;$/m, 'a real patch, not an external tool output');
  assert.match(run(['log', '-p', '-1']) ?? '', /^\+export const b = 2;$/m);
  assert.match(run(['status', '--porcelain']) ?? '', /^\?\? src\/new\.ts$/m);
  assert.match(run(['blame', 'src/a.ts']) ?? '', /export const a = 1;/);
  assert.equal(run(['ls-files', '--others', '--exclude-standard'])?.trim(), 'src/new.ts');
  // A checkout would run the smudge filter; a remote would run core.sshCommand.
  assert.equal(run(['show', 'HEAD:src/a.ts']), 'export const a = 1;\n');
  assert.equal(git(repo, ['ls-remote', 'ssh://example.invalid/x'], { timeoutMs: 3000 }), undefined);
  assert.deepEqual(fired(), []);
});

test('git() ignores GIT_* overrides in the environment', { skip }, () => {
  const saved = { ...process.env };
  try {
    Object.assign(process.env, {
      GIT_DIR: join(other, '.git'),
      GIT_WORK_TREE: other,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: join(dir, 'bin/env-fsmonitor'),
      GIT_CONFIG_PARAMETERS: `'core.fsmonitor'='${join(dir, 'bin/env-fsmonitor')}'`,
      GIT_EXTERNAL_DIFF: join(dir, 'bin/env-external'),
      GIT_SSH_COMMAND: join(dir, 'bin/env-ssh'),
      GIT_PAGER: join(dir, 'bin/pager'),
    });
    assert.equal(git(repo, ['diff', '--numstat', 'HEAD'])?.trim(), '2\t0\tsrc/a.ts');
    assert.match(git(repo, ['diff', 'HEAD']) ?? '', /^\+export const a2 = 3;$/m);
    assert.equal(git(repo, ['ls-remote', 'ssh://example.invalid/x'], { timeoutMs: 3000 }), undefined);
    assert.equal(changedSince(repo, 'HEAD')?.weights.has('src/a.ts'), true);
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  assert.deepEqual(fired(), []);
});

test('query_graph since= (changedSince) runs none of them and finds the right files', { skip }, () => {
  const r = changedSince(repo, 'HEAD');
  assert.ok(r, 'the baseline resolves');
  assert.deepEqual([...r.weights.keys()].sort(), ['src/a.ts', 'src/new.ts']);
  assert.equal(r.weights.get('src/new.ts'), 1, 'untracked counts as 10 lines, the largest churn here');
  assert.deepEqual(fired(), []);
  assert.equal(changedSince(repo, 'auto')?.since, 'main');
  assert.deepEqual(fired(), []);
});

test('git() with no subcommand is a clear error, a missing repository is undefined', { skip }, () => {
  assert.throws(() => git(repo, []), /no subcommand/);
  assert.equal(git(join(dir, 'nowhere'), ['rev-parse', 'HEAD']), undefined);
});

test('gitOutcomesIn() reports git\'s message and status, and a worktree checkout runs no hook or smudge filter', { skip }, () => {
  const run = gitOutcomesIn(repo);
  const bad = run(['rev-parse', '--verify', '--quiet', 'no-such-ref^{commit}']);
  assert.equal(bad.ok, false);
  assert.equal(bad.status, 1);
  assert.equal(bad.missing, false);
  const fatal = run(['log', '-1', 'no-such-ref']);
  assert.match(fatal.stderr, /no-such-ref/);
  writeFileSync(join(dir, 'hooks', 'post-checkout'), `#!/bin/sh\ntouch '${join(markers, 'post-checkout')}'\n`);
  chmodSync(join(dir, 'hooks', 'post-checkout'), 0o755);
  const wt = join(dir, 'wt');
  const added = run(['worktree', 'add', '--detach', wt, 'HEAD'], { timeoutMs: 20_000 });
  assert.equal(added.ok, true, added.stderr);
  assert.equal(run(['worktree', 'remove', '--force', wt]).ok, true);
  assert.deepEqual(fired(), [], 'post-checkout and the smudge filter did not run');
});
