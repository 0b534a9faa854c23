import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import { runExtract } from '../../src/extract/pipeline.node.ts';
import { revisionsDir } from '../../src/extract/revision-cache.node.ts';
import { releaseRevisionMemory } from '../../src/extract/revision-memory.node.ts';
import { timeTravel } from '../../src/extract/time-travel.node.ts';
import { settleWorktrees } from '../../src/extract/worktree.node.ts';
import { copyFixture } from './pipeline-fixture.ts';

// time_travel_diff keeps, between calls of one process, the worktree of its last build (parked:
// unregistered, files and index kept), that build's outputs with their decoded form, and the last
// graphs it read: a call next to the previous one checks out and parses only the files that differ
// and reads no cached graph again. Real git, real commits; what it builds is what a full extract of
// the same commit writes, byte for byte, and the diffs equal those of a process that kept nothing.

let fx: ReturnType<typeof copyFixture>;
let tmp: string;
let out: string;
let core: Core;
const shas: string[] = [];
const savedTmp = process.env.TMPDIR;
const git = (...a: string[]) => execFileSync('git', ['-C', fx.dir, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const commit = (msg: string) => {
  git('add', '-A');
  git('commit', '-q', '-m', msg);
  shas.push(git('rev-parse', 'HEAD').trim());
};
const edit = (file: string, from: RegExp | string, to: string) => writeFileSync(join(fx.dir, file), readFileSync(join(fx.dir, file), 'utf8').replace(from, to));
/** What this process left in its temp dir: worktree folders (registered or parked) and kept index copies. */
const leftovers = () => readdirSync(tmp).filter((n) => n.startsWith('synaptic-wt-'));
const kept = () => readdirSync(revisionsDir(out)).filter((n) => n.startsWith('.tree-'));
const call = (rev1: string, rev2: string) => timeTravel({ dir: fx.dir, outDir: out, rev1, rev2, core, workers: 0 });

before(async () => {
  fx = copyFixture();
  tmp = join(fx.dir, '..', 'tmp');
  mkdirSync(tmp);
  // os.tmpdir() reads TMPDIR on each call: this test's worktrees go where it can count them.
  process.env.TMPDIR = tmp;
  out = join(fx.dir, 'synaptic-out');
  writeFileSync(join(fx.dir, '.gitignore'), 'synaptic-out/\n');
  git('init', '-q', '-b', 'main');
  commit('fixture');
  writeFileSync(join(fx.dir, 'src/ring-a.ts'), "import { ringB } from './ring-b';\nexport function ringA(): number {\n  return ringB() + 1;\n}\n");
  writeFileSync(join(fx.dir, 'src/ring-b.ts'), "import { ringA } from './ring-a';\nexport function ringB(): number {\n  return ringA() - 1;\n}\n");
  commit('ring');
  edit('src/ring-b.ts', 'ringA() - 1;', 'ringA() - 2;\n}\nexport function later(): number {\n  return 1;');
  commit('edit');
  edit('src/util/strings.ts', /export function (\w+)/, 'function $1');
  commit('hide');
  await runExtract({ root: fx.dir, outDir: out, workers: 0 });
  // The served outputs are a commit behind HEAD, two files from 'hide': not its nearest neighbour.
  writeFileSync(join(fx.dir, 'src/late.ts'), "import { ringA } from './ring-a';\nexport const late = ringA();\n");
  edit('src/ring-a.ts', 'ringB() + 1;', 'ringB() + 3;');
  commit('late');
  core = await Core.load();
});

after(async () => {
  releaseRevisionMemory();
  await settleWorktrees();
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  fx?.cleanup();
});

test('a call next to the last one: its worktree is parked between calls, the update is in place and only the differing files are parsed', async () => {
  const [, ring, edited, hide] = shas as [string, string, string, string, string];
  const first = await call(ring, edited);
  assert.equal(first.rev2.build?.how, 'update');
  assert.equal(first.rev2.build?.kept, true, 'the second revision updates the first one\'s outputs in place');
  assert.equal(first.rev2.build?.from, ring);
  assert.equal(first.rev2.build?.parsed, 1, 'only src/ring-b.ts differs');
  // Between calls: nothing registered, the files kept (no .git link in them), the outputs kept.
  assert.equal(git('worktree', 'list').trim().split('\n').length, 1, 'no worktree is registered between calls');
  const parked = leftovers().filter((n) => n.endsWith('-parked'));
  assert.equal(parked.length, 1, `one parked worktree: ${leftovers().join(', ')}`);
  assert.equal(existsSync(join(tmp, parked[0]!, '.git')), false, 'a parked worktree has no link to the repository');
  assert.deepEqual(kept(), [`.tree-${process.pid}`]);

  const second = await call(edited, hide);
  assert.equal(second.rev1.build.how, 'cached');
  assert.equal(second.rev1.build.kept, true, 'the graph built by the last call is not read again');
  assert.equal(second.rev1.build.steps?.read, undefined);
  assert.equal(second.rev2.build?.kept, true);
  assert.equal(second.rev2.build?.from, edited);
  assert.equal(second.rev2.build?.parsed, 1, 'the parked worktree checks out and parses only src/util/strings.ts');
  assert.ok(second.diff.removed_apis.length > 0, 'the hidden function is a removed API');

  // What the in-place update wrote is what a full extract of that commit writes.
  const full = join(tmp, 'full-of-hide');
  git('worktree', 'add', '-q', '--detach', full, hide);
  try {
    await runExtract({ root: full, outDir: join(tmp, 'full-out'), workers: 0 });
  } finally {
    git('worktree', 'remove', '--force', full);
  }
  // (but for the graph's name: the folder's, a worktree's temp name)
  const graph = (dir: string) => {
    const doc = JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8'));
    delete doc.graph.name;
    return doc;
  };
  assert.deepEqual(graph(join(revisionsDir(out), hide)), graph(join(tmp, 'full-out')), 'a revision built in the kept worktree');
  rmSync(join(tmp, 'full-out'), { recursive: true, force: true });

  // A process that kept nothing and has no cache gives the same answers.
  releaseRevisionMemory();
  await settleWorktrees();
  assert.deepEqual(leftovers(), [], 'released: the parked worktree is deleted');
  assert.deepEqual(kept(), [], 'released: the kept outputs are deleted');
  rmSync(revisionsDir(out), { recursive: true, force: true });
  const fresh = await call(edited, hide);
  assert.equal(fresh.rev1.build.kept, undefined);
  assert.deepEqual(fresh.diff, second.diff, 'same diff as from the kept graphs and worktree');
  releaseRevisionMemory();
  await settleWorktrees();
});

test('a graph the call still holds is not taken over by the in-place update of the next revision', async () => {
  const [fixture, ring, edited] = shas as [string, string, string, string, string];
  // fixture -> ring is built in the kept worktree; then ring -> edited updates ring's outputs in place
  // while the call holds ring's graph (from memory) as its first side.
  rmSync(revisionsDir(out), { recursive: true, force: true });
  await call(fixture, ring);
  const held = await call(ring, edited);
  assert.equal(held.rev1.build.kept, true);
  assert.equal(held.rev2.build?.kept, true);
  rmSync(revisionsDir(out), { recursive: true, force: true });
  releaseRevisionMemory();
  const fresh = await call(ring, edited);
  assert.ok(fresh.diff.nodes_added > 0, 'edited adds a function');
  assert.deepEqual(held.diff, fresh.diff, 'the held graph of ring was not changed by the update to edited');

  // Not held: ring's graph (diffed, so indexed, in the first call) becomes edited's in the update.
  releaseRevisionMemory();
  rmSync(revisionsDir(out), { recursive: true, force: true });
  await call(fixture, ring);
  const taken = await call(fixture, edited);
  assert.equal(taken.rev1.build.kept, true);
  assert.equal(taken.rev2.build?.kept, true);
  assert.equal(taken.rev2.build?.from, ring);
  releaseRevisionMemory();
  rmSync(revisionsDir(out), { recursive: true, force: true });
  assert.deepEqual(taken.diff, (await call(fixture, edited)).diff, 'no index or memory of ring\'s graph stands for edited\'s');
  releaseRevisionMemory();
  await settleWorktrees();
});

test('two calls at once: one uses the kept worktree, the other one of its own; the same answers', async () => {
  const [fixture, ring, edited, hide] = shas as [string, string, string, string, string];
  rmSync(revisionsDir(out), { recursive: true, force: true });
  const [a, b] = await Promise.all([call(fixture, ring), call(edited, hide)]);
  releaseRevisionMemory();
  rmSync(revisionsDir(out), { recursive: true, force: true });
  assert.deepEqual(a.diff, (await call(fixture, ring)).diff);
  releaseRevisionMemory();
  rmSync(revisionsDir(out), { recursive: true, force: true });
  assert.deepEqual(b.diff, (await call(edited, hide)).diff);
  releaseRevisionMemory();
  await settleWorktrees();
  assert.equal(git('worktree', 'list').trim().split('\n').length, 1);
  assert.deepEqual(leftovers(), []);
});

test('what a killed process kept (a parked worktree, its outputs) is deleted by the next call', async () => {
  const [, ring, edited] = shas as [string, string, string, string, string];
  const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
  const parked = join(tmp, `synaptic-wt-${dead}-x1y2z3-parked`);
  mkdirSync(join(parked, 'src'), { recursive: true });
  writeFileSync(`${parked}.index`, 'index');
  mkdirSync(join(revisionsDir(out), `.tree-${dead}`), { recursive: true });
  await call(ring, edited);
  assert.equal(existsSync(parked), false, 'the dead process\'s parked worktree is swept');
  assert.equal(existsSync(`${parked}.index`), false, 'and its index copy');
  assert.equal(existsSync(join(revisionsDir(out), `.tree-${dead}`)), false, 'its kept outputs are deleted');
  releaseRevisionMemory();
  await settleWorktrees();
});
