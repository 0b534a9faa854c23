import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_ARGS, RawServer, ROOT, serveArgs, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// speculate end to end: only with serve --allow-exec; an SDK client over a real stdio child runs the
// project's real test command (pytest, detected from pytest.ini) on test/fixtures/repo/py in a
// throwaway worktree of HEAD with the working changes applied. The user's tree is never written and
// no worktree is left behind (git worktree list), also after a timeout.
// Speed: one extract; the checks that count a repository's worktrees run in sequence per repository
// (the pytest runs on `repo`, the time limit and the SIGTERM on a copy of it, `repo2`), and those
// groups run at the same time as the checks that need a server of their own.

const skip = execFileSync('sh', ['-c', 'python3 -m pytest --version >/dev/null 2>&1 && echo yes || echo no'], { encoding: 'utf8' }).trim() === 'yes' ? false : 'pytest is not installed';
const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let dir: string;
let repo: string;
let graph: string;
let env: Record<string, string>;
let server: Awaited<ReturnType<typeof connectSdk>>;
let keeper: string;
/** A copy of `repo` (its own .git and graph) for the checks that run commands or kill a server. */
let repo2: string;
let server2: Awaited<ReturnType<typeof connectSdk>>;
/** A repository with no commits yet (a graph copied in), for the bad-input check. */
let bare: string;

before(async () => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'synaptic-speculate-'));
  repo = join(dir, 'repo');
  cpSync(join(ROOT, 'test/fixtures/repo/py'), repo, { recursive: true });
  writeFileSync(join(repo, 'pytest.ini'), '[pytest]\npythonpath = .\n');
  writeFileSync(join(repo, '.gitignore'), '.pytest_cache/\n__pycache__/\nsynaptic-out/\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'zoo');
  execFileSync(process.execPath, [...CLI_ARGS, 'extract', repo], { stdio: 'ignore' });
  graph = join(repo, 'synaptic-out/graph.json');
  env = { ...process.env, SYNAPTIC_DATA_DIR: join(dir, 'data') } as Record<string, string>;
  keeper = readFileSync(join(repo, 'zoo/keeper.py'), 'utf8');
  repo2 = join(dir, 'repo2');
  cpSync(repo, repo2, { recursive: true });
  bare = join(dir, 'bare');
  mkdirSync(bare);
  cpSync(join(repo, 'zoo'), join(bare, 'zoo'), { recursive: true });
  git(bare, 'init', '-q');
  cpSync(join(repo, 'synaptic-out'), join(bare, 'synaptic-out'), { recursive: true });
  [server, server2] = await Promise.all([
    connectSdk(graph, env, { serve: ['--allow-exec', '--no-freshen'] }),
    connectSdk(join(repo2, 'synaptic-out/graph.json'), env, { serve: ['--allow-exec', '--no-freshen'] }),
  ]);
});

after(async () => {
  await Promise.all([server?.close(), server2?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function speculate(args: Record<string, unknown>, s = server) {
  const r = await s.client.callTool({ name: 'speculate', arguments: args });
  return { text: text(r), isError: r.isError === true };
}

const status = () => git(repo, 'status', '--porcelain');
const worktrees = (r: string) => git(r, 'worktree', 'list').trim().split('\n').length;

describe('speculate', { concurrency: true, skip }, () => {

  test('without --allow-exec speculate is neither listed nor runnable', async () => {
    const plain = await connectSdk(graph, env, { serve: ['--no-freshen'] });
    try {
      assert.ok(!(await plain.client.listTools()).tools.some((t) => t.name === 'speculate'));
      await assert.rejects(plain.client.callTool({ name: 'speculate', arguments: {} }), /speculate/);
    } finally {
      await plain.close();
    }
  });

  test('with --allow-exec: listed with readOnlyHint false and openWorldHint true', async () => {
    const tool = (await server.client.listTools()).tools.find((t) => t.name === 'speculate');
    assert.deepEqual(tool?.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
  });

  test('bad input: no command to detect, no commits', async () => {
    const s = await connectSdk(join(bare, 'synaptic-out/graph.json'), env, { serve: ['--allow-exec', '--no-freshen'] });
    try {
      const none = await s.client.callTool({ name: 'speculate', arguments: {} });
      assert.equal(none.isError, true);
      assert.match(text(none), /has no commits yet/);
      git(bare, 'add', '-A');
      git(bare, 'commit', '-q', '-m', 'x');
      const undetected = await s.client.callTool({ name: 'speculate', arguments: {} });
      assert.match(text(undetected), /no test or build command found in .*: pass command/);
    } finally {
      await s.close();
    }
  });

  test('the detected pytest on the working changes (one repository, in sequence)', async (t) => {
    await t.test('a breaking working change: pytest fails in the worktree, the affected test is reported FAIL, the user tree is untouched', async () => {
      writeFileSync(join(repo, 'zoo/keeper.py'), keeper.replace('return [animal.speak() for animal in self.animals]', 'return []'));
      writeFileSync(join(repo, 'zoo/extra.py'), 'EXTRA = 1\n'); // untracked: copied into the worktree too
      const before = status();
      const r = await speculate({});
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /^speculate: `python3 -m pytest -rA -q` \(Python project \(pytest\)\) in a worktree of HEAD [0-9a-f]{12} \+ 2 changed file\(s\): FAILED \(exit 1\)/);
      // The test function and its file (a test node too) reach keeper.py.
      assert.match(r.text, /Affected tests \(2\): 0 passed, 2 failed, 0 not reported by the runner/);
      assert.match(r.text, /FAIL test_adopt_adds_a_dog\s+tests\/test_keeper\.py/);
      assert.match(r.text, /FAILED tests\/test_keeper\.py::test_adopt_adds_a_dog/);
      assert.equal(status(), before, 'the user tree is only read');
      assert.equal(worktrees(repo), 1);
    });

    await t.test('the change fixed: PASSED, the affected test PASS', async () => {
      writeFileSync(join(repo, 'zoo/keeper.py'), keeper.replace('def command', 'def count(self) -> int:\n        return len(self.animals)\n\n    def command'));
      const r = await speculate({});
      assert.match(r.text, /: PASSED \(exit 0\)/, r.text);
      assert.match(r.text, /Affected tests \(2\): 2 passed, 0 failed/);
      assert.match(r.text, /PASS test_adopt_adds_a_dog/);
    });
  });

  test('given commands that outlive their limits (a copy of the repository, in sequence)', async (t) => {
    await t.test('a given command, the time limit (the process group is killed) and the output cap', async () => {
      const marker = join(dir, 'child-still-running');
      const slow = await speculate({ command: `(sleep 3; touch ${marker}) & sleep 30`, timeout_s: 1 }, server2);
      const killedAt = Date.now();
      assert.match(slow.text, /TIMED OUT after 1 s \(the command and its children were killed\)/);
      assert.equal(worktrees(repo2), 1, 'the worktree is removed after a timeout');
      const loud = await speculate({ command: "python3 -c \"print('x' * 200000); print('the verdict')\"" }, server2);
      assert.match(loud.text, /the middle of a long output was cut/);
      assert.match(loud.text, /the verdict/);
      assert.match(loud.text, /speculate: .* \(given\)/);
      // The background child would touch the marker 3 s after it started (before the kill): wait past that.
      await new Promise((r) => setTimeout(r, Math.max(0, 3500 - (Date.now() - killedAt))));
      assert.equal(readdirSync(dir).includes('child-still-running'), false, 'the background child was killed with its group');
    });

    await t.test('SIGTERM to the server mid-run: the command\'s process group is killed and the worktree removed', async () => {
      const raw = new RawServer(serveArgs(join(repo2, 'synaptic-out/graph.json'), '--allow-exec', '--no-freshen'), env);
      await raw.ready(30_000);
      const marker = join(dir, 'survived-sigterm');
      void raw.call(1, 'speculate', { command: `sleep 4; touch ${marker}`, timeout_s: 60 }).catch(() => undefined);
      const deadline = Date.now() + 20_000;
      while (worktrees(repo2) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(worktrees(repo2), 2, 'the run started');
      await new Promise((r) => setTimeout(r, 300));
      raw.child.kill('SIGTERM');
      const killedAt = Date.now();
      await new Promise((r) => raw.child.once('exit', r));
      assert.equal(worktrees(repo2), 1, 'the worktree is removed on SIGTERM');
      await new Promise((r) => setTimeout(r, Math.max(0, 4500 - (Date.now() - killedAt))));
      assert.equal(readdirSync(dir).includes('survived-sigterm'), false, 'the command was killed with the server');
    });
  });
});
