import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { extractFixture, ROOT, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// time_travel_diff end to end: an SDK client over a real stdio child, on a real repository with real
// history made from test/fixtures/repo. Each revision is built in a throwaway worktree and cached per
// SHA in synaptic-out/.revisions/; no worktree is left behind (git worktree list), whatever happens.

const git = (repo: string, ...args: string[]) =>
  execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const worktrees = (repo: string) => git(repo, 'worktree', 'list').trim().split('\n');
/** Worktree folders in the temp dir that belong to a repository of this test (other runs may have their own). */
const ours = () =>
  readdirSync(tmpdir()).filter((n) => {
    if (!n.startsWith('synaptic-wt-')) return false;
    try {
      return readFileSync(join(tmpdir(), n, '.git'), 'utf8').includes(fx.dir);
    } catch {
      return false;
    }
  });

let fx: ReturnType<typeof extractFixture>;
let server: Awaited<ReturnType<typeof connectSdk>>;
let strings: string;

before(async () => {
  fx = extractFixture((repo) => {
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'fixture');
    // HEAD~1: a new cycle between two new files, one public function removed, one dependency added.
    writeFileSync(join(repo, 'src/ring-a.ts'), "import { ringB } from './ring-b';\nexport function ringA(): number {\n  return ringB() + 1;\n}\n");
    writeFileSync(join(repo, 'src/ring-b.ts'), "import { ringA } from './ring-a';\nexport function ringB(): number {\n  return ringA() - 1;\n}\n");
    strings = readFileSync(join(repo, 'src/util/strings.ts'), 'utf8');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'ring');
    // HEAD: a small edit.
    writeFileSync(join(repo, 'src/ring-b.ts'), "import { ringA } from './ring-a';\nexport function ringB(): number {\n  return ringA() - 2;\n}\nexport const later = 1;\n");
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'edit');
  });
  server = await connectSdk(fx.graph, fx.env);
});

after(async () => {
  await server?.close();
  fx?.cleanup();
});

async function call(args: Record<string, unknown>, s = server) {
  const r = await s.client.callTool({ name: 'time_travel_diff', arguments: args });
  return { text: text(r), isError: r.isError === true };
}

test('tools/list: time_travel_diff with the spec annotations (read-only, open world)', async () => {
  const tool = (await server.client.listTools()).tools.find((t) => t.name === 'time_travel_diff');
  assert.ok(tool);
  assert.deepEqual(tool.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
  assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['rev1']);
});

test('two commits: the new cycle, the dependencies it adds, hotspots; then cached per SHA; no worktree left', async () => {
  const r = await call({ rev1: 'HEAD~2', rev2: 'HEAD~1' });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^HEAD~2 \([0-9a-f]{12}\) -> HEAD~1 \([0-9a-f]{12}\): \d+ new nodes, 0 removed nodes, \d+ new edges, \d+ removed edges, 2 files added, 0 files removed, 2 dependencies added, 0 removed, 0 removed APIs, 1 new cycles; 1 commit\(s\) between/);
  assert.match(r.text, /Dependencies added \(2\):\n  src\/ring-a\.ts -> src\/ring-b\.ts\n  src\/ring-b\.ts -> src\/ring-a\.ts/);
  assert.match(r.text, /New cycles \(1\):\n  2 files: src\/ring-a\.ts <-> src\/ring-b\.ts/);
  assert.match(r.text, /Hotspots \(2\):\n  src\/ring-[ab]\.ts: \+\d+\/-0 nodes, \+\d+\/-0 edges, 1 commit\(s\)/);
  assert.match(r.text, /Graphs: HEAD~2 (updated from|full extract)/);
  assert.deepEqual(worktrees(fx.repo).length, 1, 'only the main worktree is registered');
  assert.deepEqual(ours(), [], 'no worktree folder is left in the temp dir');
  const cached = readdirSync(join(fx.repo, 'synaptic-out/.revisions'));
  assert.equal(cached.filter((n) => /^[0-9a-f]{40}$/.test(n)).length, 2, 'one cached build per SHA');
  const again = await call({ rev1: 'HEAD~2', rev2: 'HEAD~1' });
  assert.match(again.text, /Graphs: HEAD~2 cached; HEAD~1 cached/);
  assert.equal(again.text.split('\n').slice(2).join('\n'), r.text.split('\n').slice(2).join('\n'), 'the cached answer is the built one');
});

test('a removed public API, and an update from the nearest cached neighbour (only the changed files parsed)', async () => {
  writeFileSync(join(fx.repo, 'src/util/strings.ts'), strings.replace(/export function (\w+)/, 'function $1'));
  const removed = /export function (\w+)/.exec(strings)![1]!;
  git(fx.repo, 'commit', '-q', '-am', 'hide');
  const r = await call({ rev1: 'HEAD~1', rev2: 'HEAD', top: 3 });
  assert.equal(r.isError, false, r.text);
  // HEAD~1 (the 'edit' commit) is one file away from the cached 'ring' build; HEAD one file from it or from the served outputs.
  assert.match(r.text, /Graphs: HEAD~1 updated from [0-9a-f]{12} \(1 files parsed\), \d+ ms; HEAD updated from (the served outputs|[0-9a-f]{12}) \(1 files parsed\)/);
  assert.match(r.text, new RegExp(`Removed APIs \\(\\d+\\):[\\s\\S]*${removed}`), `${removed} is no longer exported:\n${r.text}`);
  assert.deepEqual(worktrees(fx.repo).length, 1);
});

test('rev2 omitted: the working tree (dirty, untracked file included) is the served graph, caught up first', async () => {
  writeFileSync(join(fx.repo, 'src/late.ts'), "import { ringA } from './ring-a';\nexport const late = ringA();\n");
  const r = await call({ rev1: 'HEAD' });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^HEAD \([0-9a-f]{12}\) -> the working tree: .* 1 files added/);
  assert.match(r.text, /src\/late\.ts -> src\/ring-a\.ts/);
  // The served graph was extracted before 'hide': strings.ts and the new late.ts are the files parsed,
  // or only late.ts when the server's own staleness check caught strings.ts up first (timing).
  assert.match(r.text, /Graphs: HEAD cached; working tree updated from the served outputs \([12] files parsed\)/);
});

test('bad input: an unknown revision, an option-shaped one, a worktree a killed run left behind', async () => {
  const bad = await call({ rev1: 'no-such-branch' });
  assert.equal(bad.isError, true);
  assert.match(bad.text, /^unknown revision 'no-such-branch': not a branch, tag or commit of /);
  const opt = await call({ rev1: '--output=/tmp/x' });
  assert.match(opt.text, /is not a revision/);
  // A worktree registered by a run that died (its pid is gone) is swept by the next call.
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
  const stale = join(tmpdir(), `synaptic-wt-${dead}-stale`);
  git(fx.repo, 'worktree', 'add', '--detach', stale, 'HEAD');
  assert.equal(worktrees(fx.repo).length, 2);
  await call({ rev1: 'HEAD~3', rev2: 'HEAD~2' });
  assert.equal(worktrees(fx.repo).length, 1, 'the stale worktree is removed');
  assert.equal(existsSync(stale), false);
});

test('bad input: a shallow clone, a repository with no commits, a folder that is not a repository', async () => {
  const cases: Array<[string, (dir: string) => void, string, RegExp]> = [
    ['shallow', (dir) => execFileSync('git', ['clone', '-q', '--depth', '1', `file://${fx.repo}`, dir], { stdio: 'ignore' }), 'HEAD~1', /^unknown revision 'HEAD~1' in a shallow clone \(its history stops after 1 commit\(s\)\): run `git fetch --unshallow`/],
    ['empty', (dir) => {
      cpSync(join(ROOT, 'test/fixtures/repo/src/util'), dir, { recursive: true });
      git(dir, 'init', '-q');
    }, 'HEAD', /has no commits yet, so 'HEAD' names nothing: commit first/],
    ['plain', (dir) => cpSync(join(ROOT, 'test/fixtures/repo/src/util'), dir, { recursive: true }), 'HEAD', /^git unavailable or not a git repository \(.*\)\. Graph audit continues offline\./],
  ];
  // Independent repositories and servers: checked at the same time.
  await Promise.all(cases.map(async ([name, make, rev, expected]) => {
    const dir = join(fx.dir, name);
    mkdirSync(dir, { recursive: true });
    make(dir);
    // Any graph serves: the revision is refused before a graph is read.
    cpSync(join(fx.repo, 'synaptic-out'), join(dir, 'synaptic-out'), { recursive: true, filter: (src) => !src.includes('.revisions') });
    const s = await connectSdk(join(dir, 'synaptic-out/graph.json'), fx.env, { serve: ['--no-freshen'] });
    try {
      const r = await call({ rev1: rev }, s);
      assert.equal(r.isError, true, `${name}: ${r.text}`);
      assert.match(r.text, expected, name);
      assert.match(text(await s.client.callTool({ name: 'graph_stats', arguments: {} })), /nodes/, `${name}: the graph tools still answer`);
    } finally {
      await s.close();
    }
  }));
  assert.deepEqual(ours(), []);
});

test('between calls the last build\'s worktree is kept unregistered; it and its outputs are deleted when the server ends', async () => {
  const tmp = join(fx.dir, 'server-tmp');
  mkdirSync(tmp);
  const s = await connectSdk(fx.graph, { ...fx.env, TMPDIR: tmp });
  const revisions = join(fx.repo, 'synaptic-out/.revisions');
  const head1 = git(fx.repo, 'rev-parse', 'HEAD~1').trim();
  // The other server of this file keeps outputs there too: this one's are the new name.
  const trees = () => readdirSync(revisions).filter((n) => n.startsWith('.tree-'));
  const others = new Set(trees());
  const mine = () => trees().filter((n) => !others.has(n));
  try {
    rmSync(join(revisions, head1), { recursive: true, force: true });
    const r = await call({ rev1: 'HEAD~2', rev2: 'HEAD~1' }, s);
    assert.match(r.text, /Graphs: HEAD~2 cached; HEAD~1 updated from/);
    assert.equal(worktrees(fx.repo).length, 1, 'nothing registered between calls');
    assert.equal(readdirSync(tmp).filter((n) => /^synaptic-wt-\d+-.*-parked$/.test(n)).length, 1, `kept: ${readdirSync(tmp).join(', ')}`);
    assert.equal(mine().length, 1, 'the last build\'s outputs are kept');
    rmSync(join(revisions, head1), { recursive: true, force: true });
    const again = await call({ rev1: 'HEAD~2', rev2: 'HEAD~1' }, s);
    assert.match(again.text, /Graphs: HEAD~2 cached; HEAD~1 updated from [0-9a-f]{12} \(0 files parsed\)/, 'the kept outputs are that commit\'s: nothing to parse');
  } finally {
    await s.close();
  }
  // (the temp dir also holds what tsx caches there when the CLI runs from src/)
  const wt = () => readdirSync(tmp).filter((n) => n.startsWith('synaptic-wt-'));
  for (let i = 0; i < 50 && (wt().length || mine().length); i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(wt(), [], 'the parked worktree and its index copy are deleted at exit');
  assert.deepEqual(mine(), [], 'the kept outputs are deleted at exit');
});
