import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_ARGS, extractFixture } from '../mcp/helpers.ts';

// synaptic affected / predict / hazards: the built CLI on the fixture made a git repository. They run
// the same tool handlers as the server, so the checks here are the command-line parts: arguments,
// output, --json, exit codes, and running from inside the repository without --graph.
// Speed: one extract; the tests run at the same time (the one that edits a file works on its own
// copy of the repository) and the independent commands of a test run at once.

let fx: ReturnType<typeof extractFixture>;

function g(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function cli(cwd: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...CLI_ARGS, ...args], { cwd, encoding: 'utf8', env: fx.env, timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A second checkout of the repository (its own .git and graph) for the test that edits a file. */
let repo2: string;

before(() => {
  fx = extractFixture((repo) => {
    g(repo, 'init', '-q');
    g(repo, 'add', '-A');
    g(repo, 'commit', '-q', '-m', 'fixture');
    g(repo, 'checkout', '-q', '-b', 'feature');
  });
  appendFileSync(join(fx.repo, 'src/core/router.ts'), '\n// edited\n');
  repo2 = join(fx.dir, 'repo2');
  cpSync(fx.repo, repo2, { recursive: true });
});

after(() => fx?.cleanup());

describe('change commands', { concurrency: true }, () => {
  test('synaptic affected: working changes without a symbol, a symbol\'s dependents with one', async () => {
    const [changes, verbose, symbol] = await Promise.all([
      cli(fx.repo, 'affected'),
      cli(join(fx.repo, 'src'), 'affected', '--verbose', '--limit', '1'),
      cli(fx.repo, 'affected', 'normalizePath', '--depth', '1'),
    ]);
    assert.equal(changes.code, 0, changes.stderr);
    assert.match(changes.stdout, /^Working changes vs main: 1 files, \d+ graph nodes, \d+ communities touched\n/);
    assert.match(changes.stdout, /^ {2}M src\/core\/router\.ts {2}\d+ nodes$/m);
    assert.equal(verbose.code, 0, verbose.stderr);
    assert.match(verbose.stdout, /^Top touched nodes \(1 of \d+, by connectivity\):$/m);
    assert.equal(symbol.code, 0, symbol.stderr);
    assert.match(symbol.stdout, /^\d+ nodes depend on normalizePath \(<= 1 hops\):$/m);
  });

  test('synaptic affected --tests and synaptic predict, as text and --json', async () => {
    const [tests, named, predict, json] = await Promise.all([
      cli(fx.repo, 'affected', '--tests', '--json'),
      cli(fx.repo, 'affected', '--tests', 'src/util/strings.ts', '--depth', '2'),
      cli(fx.repo, 'predict'),
      cli(fx.repo, 'predict', 'src/app.ts', '--json', '--depth', '2'),
    ]);
    assert.equal(tests.code, 0, tests.stderr);
    const t = JSON.parse(tests.stdout) as { tests: Array<{ file: string }>; total: number };
    assert.ok(t.tests.some((x) => x.file === 'test/router.spec.ts'));
    assert.equal(t.total, t.tests.length);
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, /reach the change \(<= 2 hops\):/);

    assert.equal(predict.code, 0, predict.stderr);
    assert.match(predict.stdout, /^Forecast vs main: 1 changed file \(1 in the graph\), \d+ changed nodes, \d+ dependents within 3 hops, /);
    assert.match(predict.stdout, /^Risk: (low|medium|high) \(score \d+\)/m);
    assert.equal(json.code, 0, json.stderr);
    const f = JSON.parse(json.stdout) as { changed_files: Array<{ file: string }>; risk: { level: string } };
    assert.deepEqual(f.changed_files.map((c) => c.file), ['src/app.ts']);
  });

  test('synaptic predict --worktrees compares the graph of the merge base (built in a worktree) with the working tree', async () => {
    // On the second checkout: this test edits a file the others must not see.
    const strings = join(repo2, 'src/util/strings.ts');
    const before = readFileSync(strings, 'utf8');
    // Remove joinPath (the barrel re-exports it): a removed API the graph diff must name.
    const without = before.replace(/^export const joinPath = .*\n/m, '');
    assert.notEqual(without, before);
    writeFileSync(strings, without);
    const [r, named] = await Promise.all([cli(repo2, 'predict', '--worktrees'), cli(repo2, 'predict', 'src/app.ts', '--worktrees')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Forecast vs main: 2 changed files/);
    assert.match(r.stdout, /\n\nAgainst the merge base, graph to graph:\n[0-9a-f]{12} \([0-9a-f]{12}\) -> the working tree: /);
    assert.match(r.stdout, /^Removed APIs \([1-9]\d*\):\n(?: {2}.*\n)*? {2}joinPath\b/m);
    assert.match(r.stdout, /^New cycles \(\d+\):$/m);
    assert.equal(named.code, 2);
  });

  test('synaptic hazards lists the dynamic-dispatch sites with the tool\'s filters', async () => {
    const [all, reflection, magic, zero] = await Promise.all([
      cli(fx.repo, 'hazards', '--graph', fx.graph),
      cli(fx.repo, 'hazards', '--json', '--kind', 'reflection'),
      cli(fx.repo, 'hazards', '--kind', 'magic'),
      cli(fx.repo, 'hazards', '--max-results', '0'),
    ]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^\d+ dynamic-dispatch site\(s\):/);
    const json = JSON.parse(reflection.stdout) as { total: number; sites: Array<{ kind: string }> };
    assert.ok(json.sites.every((s) => s.kind === 'reflection'));
    assert.equal(magic.code, 2);
    assert.equal(zero.code, 2);
  });

  test('bad input: exit 1 with the tool\'s message, exit 2 for a bad invocation; no graph says how to make one', async () => {
    const nowhere = mkdtempSync(join(tmpdir(), 'synaptic-nograph-'));
    try {
      const [base, outside, symbolBase, depth, r] = await Promise.all([
        cli(fx.repo, 'predict', '--base', 'no-such-branch'),
        cli(fx.repo, 'affected', '--tests', '../elsewhere.ts'),
        cli(fx.repo, 'affected', 'Router', '--base', 'main'),
        cli(fx.repo, 'predict', '--depth', 'deep'),
        cli(nowhere, 'predict'),
      ]);
      assert.equal(base.code, 1);
      assert.match(base.stderr, /base 'no-such-branch' does not name a commit/);
      assert.equal(base.stdout, '');
      assert.equal(outside.code, 1);
      assert.match(outside.stderr, /path outside the repository root/);
      assert.equal(symbolBase.code, 2);
      assert.equal(depth.code, 2);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /no graph at .*synaptic-out\/graph\.json: run 'synaptic extract'/);
    } finally {
      rmSync(nowhere, { recursive: true, force: true });
    }
  });
});
