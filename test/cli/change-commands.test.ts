import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLI_ARGS, extractFixture } from '../mcp/helpers.ts';

// synaptic affected / predict / hazards: the built CLI on the fixture made a git repository. They run
// the same tool handlers as the server, so the checks here are the command-line parts: arguments,
// output, --json, exit codes, and running from inside the repository without --graph.

let fx: ReturnType<typeof extractFixture>;

function g(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...CLI_ARGS, ...args], { cwd, encoding: 'utf8', env: fx.env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  fx = extractFixture((repo) => {
    g(repo, 'init', '-q');
    g(repo, 'add', '-A');
    g(repo, 'commit', '-q', '-m', 'fixture');
    g(repo, 'checkout', '-q', '-b', 'feature');
  });
  appendFileSync(join(fx.repo, 'src/core/router.ts'), '\n// edited\n');
});

after(() => fx?.cleanup());

test('synaptic affected: working changes without a symbol, a symbol\'s dependents with one', () => {
  const changes = cli(fx.repo, 'affected');
  assert.equal(changes.code, 0, changes.stderr);
  assert.match(changes.stdout, /^Working changes vs main: 1 files, \d+ graph nodes, \d+ communities touched\n/);
  assert.match(changes.stdout, /^ {2}M src\/core\/router\.ts {2}\d+ nodes$/m);
  const verbose = cli(join(fx.repo, 'src'), 'affected', '--verbose', '--limit', '1');
  assert.equal(verbose.code, 0, verbose.stderr);
  assert.match(verbose.stdout, /^Top touched nodes \(1 of \d+, by connectivity\):$/m);
  const symbol = cli(fx.repo, 'affected', 'normalizePath', '--depth', '1');
  assert.equal(symbol.code, 0, symbol.stderr);
  assert.match(symbol.stdout, /^\d+ nodes depend on normalizePath \(<= 1 hops\):$/m);
});

test('synaptic affected --tests and synaptic predict, as text and --json', () => {
  const tests = cli(fx.repo, 'affected', '--tests', '--json');
  assert.equal(tests.code, 0, tests.stderr);
  const t = JSON.parse(tests.stdout) as { tests: Array<{ file: string }>; total: number };
  assert.ok(t.tests.some((x) => x.file === 'test/router.spec.ts'));
  assert.equal(t.total, t.tests.length);
  const named = cli(fx.repo, 'affected', '--tests', 'src/util/strings.ts', '--depth', '2');
  assert.equal(named.code, 0, named.stderr);
  assert.match(named.stdout, /reach the change \(<= 2 hops\):/);

  const predict = cli(fx.repo, 'predict');
  assert.equal(predict.code, 0, predict.stderr);
  assert.match(predict.stdout, /^Forecast vs main: 1 changed file \(1 in the graph\), \d+ changed nodes, \d+ dependents within 3 hops, /);
  assert.match(predict.stdout, /^Risk: (low|medium|high) \(score \d+\)/m);
  const json = cli(fx.repo, 'predict', 'src/app.ts', '--json', '--depth', '2');
  assert.equal(json.code, 0, json.stderr);
  const f = JSON.parse(json.stdout) as { changed_files: Array<{ file: string }>; risk: { level: string } };
  assert.deepEqual(f.changed_files.map((c) => c.file), ['src/app.ts']);
});

test('synaptic predict --worktrees compares the graph of the merge base (built in a worktree) with the working tree', () => {
  const strings = join(fx.repo, 'src/util/strings.ts');
  const before = readFileSync(strings, 'utf8');
  // Remove joinPath (the barrel re-exports it): a removed API the graph diff must name.
  const without = before.replace(/^export const joinPath = .*\n/m, '');
  assert.notEqual(without, before);
  writeFileSync(strings, without);
  try {
    const r = cli(fx.repo, 'predict', '--worktrees');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Forecast vs main: 2 changed files/);
    assert.match(r.stdout, /\n\nAgainst the merge base, graph to graph:\n[0-9a-f]{12} \([0-9a-f]{12}\) -> the working tree: /);
    assert.match(r.stdout, /^Removed APIs \([1-9]\d*\):\n(?: {2}.*\n)*? {2}joinPath\b/m);
    assert.match(r.stdout, /^New cycles \(\d+\):$/m);
    assert.equal(cli(fx.repo, 'predict', 'src/app.ts', '--worktrees').code, 2);
  } finally {
    writeFileSync(strings, before);
  }
});

test('synaptic hazards lists the dynamic-dispatch sites with the tool\'s filters', () => {
  const all = cli(fx.repo, 'hazards', '--graph', fx.graph);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /^\d+ dynamic-dispatch site\(s\):/);
  const json = JSON.parse(cli(fx.repo, 'hazards', '--json', '--kind', 'reflection').stdout) as { total: number; sites: Array<{ kind: string }> };
  assert.ok(json.sites.every((s) => s.kind === 'reflection'));
  assert.equal(cli(fx.repo, 'hazards', '--kind', 'magic').code, 2);
  assert.equal(cli(fx.repo, 'hazards', '--max-results', '0').code, 2);
});

test('bad input: exit 1 with the tool\'s message, exit 2 for a bad invocation; no graph says how to make one', () => {
  const base = cli(fx.repo, 'predict', '--base', 'no-such-branch');
  assert.equal(base.code, 1);
  assert.match(base.stderr, /base 'no-such-branch' does not name a commit/);
  assert.equal(base.stdout, '');
  const outside = cli(fx.repo, 'affected', '--tests', '../elsewhere.ts');
  assert.equal(outside.code, 1);
  assert.match(outside.stderr, /path outside the repository root/);
  assert.equal(cli(fx.repo, 'affected', 'Router', '--base', 'main').code, 2);
  assert.equal(cli(fx.repo, 'predict', '--depth', 'deep').code, 2);
  const nowhere = mkdtempSync(join(tmpdir(), 'synaptic-nograph-'));
  try {
    const r = cli(nowhere, 'predict');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no graph at .*synaptic-out\/graph\.json: run 'synaptic extract'/);
  } finally {
    rmSync(nowhere, { recursive: true, force: true });
  }
});
