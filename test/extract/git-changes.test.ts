import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { workingChanges, type WorkingChanges } from '../../src/extract/git-changes.node.ts';

// Real repositories with real commits, branches, clones and worktree states, read through the one
// hardened git helper. Each bad state gets its own reason and a message that says what to do.

const skip = process.platform === 'win32' ? 'POSIX shell traps' : false;
let dir: string;

function g(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function write(repo: string, path: string, text: string): void {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
}

/** main: a.ts, b.ts, gone.ts, docs/readme.md; feature branch from there. */
function baseRepo(name: string): string {
  const repo = join(dir, name);
  mkdirSync(repo);
  g(repo, 'init', '-q');
  write(repo, 'src/a.ts', 'export const a = 1;\n');
  write(repo, 'src/b.ts', 'export const b = 2;\n');
  write(repo, 'src/gone.ts', 'export const gone = 0;\n');
  write(repo, 'docs/readme.md', '# docs\n');
  write(repo, '.gitignore', 'ignored.ts\n');
  g(repo, 'add', '-A');
  g(repo, 'commit', '-q', '-m', 'base');
  return repo;
}

function ok(r: ReturnType<typeof workingChanges>): WorkingChanges {
  if (!r.ok) throw new Error(`expected working changes, got ${r.reason}: ${r.message}`);
  return r;
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'synaptic-git-changes-'));
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('committed, staged, unstaged, untracked and deleted changes vs the base, outputs and ignored files left out', { skip }, () => {
  const repo = baseRepo('full');
  g(repo, 'checkout', '-q', '-b', 'feature');
  appendFileSync(join(repo, 'src/a.ts'), 'export const a2 = 2;\n');
  write(repo, 'src/added.ts', 'export const added = 1;\n');
  g(repo, 'rm', '-q', 'src/gone.ts');
  g(repo, 'add', '-A');
  g(repo, 'commit', '-q', '-m', 'feature work');
  // Not committed: a staged edit, an unstaged edit, an untracked file and folder, an ignored file,
  // and Synaptic's own outputs (untracked synaptic-out/ and an --out folder elsewhere).
  appendFileSync(join(repo, 'src/b.ts'), 'export const b2 = 3;\n');
  g(repo, 'add', 'src/b.ts');
  appendFileSync(join(repo, 'docs/readme.md'), 'more\n');
  write(repo, 'src/new.ts', 'export const n = 0;\n');
  write(repo, 'src/fresh/inner.ts', 'export const i = 0;\n');
  write(repo, 'ignored.ts', 'x\n');
  for (const out of ['synaptic-out', 'build/graph']) {
    write(repo, `${out}/graph.json`, '{}');
    write(repo, `${out}/.manifest.json`, '{}');
    write(repo, `${out}/.facts/x.cbor`, 'x');
  }
  const r = ok(workingChanges(repo, 'main'));
  assert.deepEqual(r.files, [
    { path: 'docs/readme.md', status: 'modified' },
    { path: 'src/a.ts', status: 'modified' },
    { path: 'src/added.ts', status: 'added' },
    { path: 'src/b.ts', status: 'modified' },
    { path: 'src/fresh/inner.ts', status: 'untracked' },
    { path: 'src/gone.ts', status: 'deleted' },
    { path: 'src/new.ts', status: 'untracked' },
  ]);
  assert.equal(r.base, 'main');
  assert.equal(r.head, 'feature');
  assert.equal(r.detached, false);
  assert.equal(r.uncommitted, 4);
  assert.equal(r.mergeBase, g(repo, 'rev-parse', 'main').trim().slice(0, 12));
  // Without untracked files: what `git diff main` covers.
  assert.deepEqual(ok(workingChanges(repo, 'main', { untracked: false })).files.map((f) => f.path), ['docs/readme.md', 'src/a.ts', 'src/added.ts', 'src/b.ts', 'src/gone.ts']);
  // The default base is detected (main), and HEAD as base leaves only the uncommitted part.
  assert.equal(ok(workingChanges(repo)).base, 'main');
  assert.deepEqual(ok(workingChanges(repo, 'HEAD')).files.map((f) => f.path), ['docs/readme.md', 'src/b.ts', 'src/fresh/inner.ts', 'src/new.ts']);
  // A folder inside the repository: paths relative to it, the rest left out.
  const sub = ok(workingChanges(join(repo, 'src'), 'main'));
  assert.deepEqual(sub.files.map((f) => `${f.status} ${f.path}`), ['modified a.ts', 'added added.ts', 'modified b.ts', 'untracked fresh/inner.ts', 'deleted gone.ts', 'untracked new.ts']);
});

test('the base is diffed from the merge base: commits on the base after the branch point are not changes', { skip }, () => {
  const repo = baseRepo('diverged');
  g(repo, 'checkout', '-q', '-b', 'feature');
  appendFileSync(join(repo, 'src/a.ts'), '// feature\n');
  g(repo, 'commit', '-qam', 'feature');
  g(repo, 'checkout', '-q', 'main');
  appendFileSync(join(repo, 'src/b.ts'), '// main moved on\n');
  g(repo, 'commit', '-qam', 'main');
  g(repo, 'checkout', '-q', 'feature');
  assert.deepEqual(ok(workingChanges(repo, 'main')).files, [{ path: 'src/a.ts', status: 'modified' }]);
});

test('a clean tree has no changes; a file added and removed again, or deleted and restored, is no change', { skip }, () => {
  const repo = baseRepo('clean');
  g(repo, 'checkout', '-q', '-b', 'feature');
  assert.deepEqual(ok(workingChanges(repo, 'main')).files, []);
  write(repo, 'src/tmp.ts', 'x\n');
  g(repo, 'add', 'src/tmp.ts');
  g(repo, 'commit', '-qm', 'tmp');
  g(repo, 'rm', '-q', 'src/tmp.ts');
  assert.deepEqual(ok(workingChanges(repo, 'main')).files, []);
});

test('a detached HEAD is read (and named), not refused', { skip }, () => {
  const repo = baseRepo('detached');
  appendFileSync(join(repo, 'src/a.ts'), '// one\n');
  g(repo, 'commit', '-qam', 'one');
  g(repo, 'checkout', '-q', '--detach', 'HEAD');
  const r = ok(workingChanges(repo, 'HEAD~1'));
  assert.equal(r.detached, true);
  assert.match(r.head, /^HEAD \(detached at [0-9a-f]{12}\)$/);
  assert.deepEqual(r.files, [{ path: 'src/a.ts', status: 'modified' }]);
});

test('bad bases: a missing branch, an option-shaped ref, a tree, unrelated history; no default branch', { skip }, () => {
  const repo = baseRepo('bad-refs');
  const missing = workingChanges(repo, 'no-such-branch');
  assert.equal(missing.ok, false);
  assert.equal(!missing.ok && missing.reason, 'bad-ref');
  assert.match(!missing.ok ? missing.message : '', /^base 'no-such-branch' does not name a commit in .*bad-refs: no branch, tag or commit of that name \(git branch -a lists the branches\)$/);
  const option = workingChanges(repo, '--output=/tmp/x');
  assert.match(!option.ok ? option.message : '', /^base '--output=\/tmp\/x' is not a ref \(it starts with '-'\)$/);
  assert.match((workingChanges(repo, '') as { message: string }).message, /^base is empty/);
  const tree = workingChanges(repo, 'HEAD^{tree}');
  assert.equal(!tree.ok && tree.reason, 'bad-ref');
  // An orphan branch shares no history with main.
  g(repo, 'checkout', '-q', '--orphan', 'island');
  g(repo, 'commit', '-qm', 'island');
  const unrelated = workingChanges(repo, 'main');
  assert.equal(!unrelated.ok && unrelated.reason, 'no-common-ancestor');
  assert.match(!unrelated.ok ? unrelated.message : '', /^'main' and HEAD share no history \(unrelated histories\)/);
  // No origin/HEAD, main, master or trunk: the base must be given.
  g(repo, 'branch', '-q', '-m', 'main', 'work');
  const none = workingChanges(repo);
  assert.equal(!none.ok && none.reason, 'no-default-branch');
  assert.match(!none.ok ? none.message : '', /^no base given and no default branch found \(no origin\/HEAD, main, master or trunk\): pass base/);
});

test('a clone takes origin/HEAD as the default base', { skip }, () => {
  const upstream = baseRepo('upstream');
  const clone = join(dir, 'clone');
  g(dir, 'clone', '-q', upstream, clone);
  g(clone, 'checkout', '-q', '-b', 'topic');
  appendFileSync(join(clone, 'src/a.ts'), '// topic\n');
  const r = ok(workingChanges(clone));
  assert.equal(r.base, 'origin/main');
  assert.deepEqual(r.files, [{ path: 'src/a.ts', status: 'modified' }]);
});

test('a shallow clone: a base outside the fetched history says so and how to fetch it', { skip }, () => {
  const upstream = baseRepo('deep');
  for (let i = 0; i < 3; i++) {
    appendFileSync(join(upstream, 'src/a.ts'), `// ${i}\n`);
    g(upstream, 'commit', '-qam', `c${i}`);
  }
  g(upstream, 'branch', '-q', 'old', 'HEAD~3');
  const shallow = join(dir, 'shallow');
  g(dir, 'clone', '-q', '--depth', '1', `file://${upstream}`, shallow);
  assert.equal(g(shallow, 'rev-parse', '--is-shallow-repository').trim(), 'true');
  const far = workingChanges(shallow, 'HEAD~2');
  assert.equal(!far.ok && far.reason, 'bad-ref');
  assert.match(!far.ok ? far.message : '', /this is a shallow clone, so older commits and other branches may be missing \(git fetch --unshallow/);
  // The old branch fetched alone (depth 1): a commit, but no common ancestor in the cut history.
  g(shallow, 'fetch', '-q', '--depth', '1', 'origin', 'old:old');
  const cut = workingChanges(shallow, 'old');
  assert.equal(!cut.ok && cut.reason, 'no-common-ancestor');
  assert.match(!cut.ok ? cut.message : '', /^'old' and HEAD have no common ancestor in this shallow clone .*git fetch --unshallow/);
  // Within the fetched history it works.
  appendFileSync(join(shallow, 'src/b.ts'), '// edit\n');
  assert.deepEqual(ok(workingChanges(shallow, 'HEAD')).files, [{ path: 'src/b.ts', status: 'modified' }]);
});

test('no commits, not a repository, no git at all: each its own reason', { skip }, () => {
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  g(empty, 'init', '-q');
  write(empty, 'a.ts', 'x\n');
  const none = workingChanges(empty, 'main');
  assert.equal(!none.ok && none.reason, 'no-commits');
  assert.match(!none.ok ? none.message : '', /is a git repository with no commits yet, so there is no base to diff against: commit once/);
  assert.equal((workingChanges(empty) as { reason: string }).reason, 'no-commits');

  const plain = join(dir, 'plain');
  mkdirSync(plain);
  const outside = workingChanges(plain);
  assert.equal(!outside.ok && outside.reason, 'not-a-repository');
  assert.match(!outside.ok ? outside.message : '', /^git unavailable or not a git repository \(.*plain\): not inside a git work tree\. Graph audit continues offline\.$/);

  const repo = baseRepo('no-git');
  const saved = process.env.PATH;
  try {
    process.env.PATH = join(dir, 'no-bin');
    const noGit = workingChanges(repo);
    assert.equal(!noGit.ok && noGit.reason, 'git-unavailable');
    assert.match(!noGit.ok ? noGit.message : '', /^git unavailable or not a git repository \(.*\): git is not installed \(or not on PATH\)\. Graph audit continues offline\.$/);
  } finally {
    process.env.PATH = saved;
  }
});

test('the repository\'s own programs never run (fsmonitor, hooks, clean filter, textconv, external diff)', { skip }, () => {
  const repo = baseRepo('hostile');
  const markers = join(dir, 'markers');
  mkdirSync(markers);
  const trap = (name: string, body: string) => {
    const path = join(dir, `trap-${name}`);
    writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  write(repo, '.gitattributes', '* diff=hostile filter=hostile\n');
  g(repo, 'add', '.gitattributes');
  g(repo, 'commit', '-qm', 'attributes');
  const hooks = join(dir, 'hooks');
  mkdirSync(hooks);
  writeFileSync(join(hooks, 'post-index-change'), `#!/bin/sh\ntouch '${join(markers, 'hook')}'\n`);
  chmodSync(join(hooks, 'post-index-change'), 0o755);
  g(repo, 'config', 'core.fsmonitor', trap('fsmonitor', 'exit 0'));
  g(repo, 'config', 'core.hooksPath', hooks);
  g(repo, 'config', 'diff.external', trap('external', 'exit 0'));
  g(repo, 'config', 'diff.hostile.textconv', trap('textconv', 'cat "$1"'));
  g(repo, 'config', 'filter.hostile.clean', trap('clean', 'cat'));
  g(repo, 'config', 'filter.hostile.required', 'true');
  appendFileSync(join(repo, 'src/a.ts'), '// edit\n');
  const later = new Date(Date.now() + 5000);
  utimesSync(join(repo, 'src/b.ts'), later, later); // stat-dirty: git must look at the content
  unlinkSync(join(repo, 'src/gone.ts'));
  const r = ok(workingChanges(repo, 'HEAD'));
  assert.deepEqual(r.files, [{ path: 'src/a.ts', status: 'modified' }, { path: 'src/gone.ts', status: 'deleted' }]);
  assert.deepEqual(readdirSync(markers), []);
});
