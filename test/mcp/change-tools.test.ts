import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { extractFixture, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// working_changes_impact, predict_impact and affected_tests end to end: the SDK client over a real
// `synaptic serve` stdio child, on the fixture repository made a real git repository (main, a
// feature branch with committed, uncommitted and untracked work, a detached HEAD), plus a graph
// served from a folder that is no repository and from a repository with no commits.

type Client = Awaited<ReturnType<typeof connectSdk>>;
type Result = { content: Array<{ text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

let fx: ReturnType<typeof extractFixture>;
let sdk: Client;
let graphNodes: Array<{ id: string; source_file?: string; file_type?: string }>;
const spare: string[] = [];

function g(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return (await client.client.callTool({ name, arguments: args })) as Result;
}

const nodesIn = (file: string) => graphNodes.filter((n) => n.source_file === file).length;

before(async () => {
  fx = extractFixture((repo) => {
    g(repo, 'init', '-q');
    g(repo, 'add', '-A');
    g(repo, 'commit', '-q', '-m', 'fixture');
  });
  graphNodes = (JSON.parse(readFileSync(fx.graph, 'utf8')) as { nodes: typeof graphNodes }).nodes;
  sdk = await connectSdk(fx.graph, fx.env, { serve: ['--no-freshen'] });
});

after(async () => {
  await sdk?.close();
  fx?.cleanup();
  for (const d of spare) rmSync(d, { recursive: true, force: true });
});

test('tools/list: the three tools with the spec annotations (read-only, open world) and output schemas', async () => {
  const { tools } = await sdk.client.listTools();
  for (const name of ['working_changes_impact', 'predict_impact', 'affected_tests']) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `${name} listed`);
    assert.deepEqual(tool.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
  }
  const props = (name: string) => Object.keys((tools.find((t) => t.name === name)!.inputSchema as { properties: object }).properties).sort();
  assert.deepEqual(props('working_changes_impact'), ['base', 'code_only', 'limit', 'verbose']);
  assert.deepEqual(props('predict_impact'), ['base', 'depth', 'files']);
  assert.deepEqual(props('affected_tests'), ['base', 'depth', 'files']);
  assert.equal(tools.find((t) => t.name === 'working_changes_impact')!.outputSchema, undefined);
  assert.ok(tools.find((t) => t.name === 'predict_impact')!.outputSchema);
  assert.ok(tools.find((t) => t.name === 'affected_tests')!.outputSchema);
  assert.match(sdk.client.getInstructions() ?? '', /working_changes_impact, predict_impact and affected_tests for what a change/);
});

test('a clean tree: "No changes vs main." from each tool', async () => {
  assert.equal(text(await call(sdk, 'working_changes_impact')), 'No changes vs main.');
  const tests = await call(sdk, 'affected_tests', { base: 'main' });
  assert.equal(text(tests), 'No changes vs main.');
  assert.deepEqual(tests.structuredContent, { tests: [], total: 0 });
  const forecast = await call(sdk, 'predict_impact');
  assert.equal(text(forecast), 'No changes vs main.');
  assert.equal(forecast.structuredContent?.blast_radius_total, 0);
});

test('a feature branch: committed, uncommitted and untracked changes, counted and listed', async () => {
  const repo = fx.repo;
  g(repo, 'checkout', '-q', '-b', 'feature');
  appendFileSync(join(repo, 'src/core/router.ts'), '\nexport const routerFlag = true;\n');
  g(repo, 'commit', '-qam', 'router flag');
  appendFileSync(join(repo, 'src/util/strings.ts'), '\n// uncommitted\n');
  appendFileSync(join(repo, 'README.md'), '\nmore docs\n');
  writeFileSync(join(repo, 'src/brand-new.ts'), 'export const brandNew = 1;\n');

  const r = await call(sdk, 'working_changes_impact', { base: 'main' });
  const out = text(r);
  const nodes = nodesIn('src/core/router.ts') + nodesIn('src/util/strings.ts') + nodesIn('README.md');
  assert.match(out, new RegExp(`^Working changes vs main: 4 files, ${nodes} graph nodes, \\d+ communities touched\\n`), out);
  assert.match(out, /\(HEAD feature; merge-base [0-9a-f]{12}; 3 file\(s\) with uncommitted changes\)/);
  assert.match(out, /^ {2}M src\/core\/router\.ts {2}\d+ nodes$/m);
  assert.match(out, /^ {2}M src\/util\/strings\.ts {2}\d+ nodes$/m);
  assert.match(out, /^ {2}\? src\/brand-new\.ts {2}\(not in the graph\)$/m);
  assert.ok(!out.includes('synaptic-out'), 'the outputs are not changes');
  assert.ok(!out.includes('Top touched nodes'), 'verbose only');

  const code = text(await call(sdk, 'working_changes_impact', { code_only: true }));
  const codeNodes = graphNodes.filter((n) => ['src/core/router.ts', 'src/util/strings.ts'].includes(n.source_file ?? '') && n.file_type === 'code').length;
  assert.match(code, new RegExp(`^Working changes vs main: 3 files, ${codeNodes} code graph nodes, `));
  assert.ok(!code.includes('README.md'));

  const verbose = text(await call(sdk, 'working_changes_impact', { verbose: true, limit: 2 }));
  assert.match(verbose, /^Top touched nodes \(2 of \d+, by connectivity\):\n {2}.+ degree \d+\n {2}.+ degree \d+\nCommunities touched \(\d+\):\n {2}\d+ /m);
});

test('predict_impact on the working changes: the full ChangeForecast', async () => {
  const r = await call(sdk, 'predict_impact', { base: 'main' });
  assert.ok(!r.isError, text(r));
  const f = r.structuredContent as Record<string, any>;
  for (const key of ['summary', 'changed_files', 'changed_nodes', 'public_api_breaks', 'blast_radius', 'blast_radius_total', 'at_risk_tests', 'verify_checklist', 'risk']) assert.ok(key in f, key);
  // The spec's `git diff <base>`: tracked files only (nothing depends on a file nobody added yet).
  assert.deepEqual(f.changed_files.map((c: any) => [c.file, c.status]), [['README.md', 'modified'], ['src/core/router.ts', 'modified'], ['src/util/strings.ts', 'modified']]);
  assert.ok(['low', 'medium', 'high'].includes(f.risk.level));
  assert.ok(Array.isArray(f.risk.drivers) && f.risk.drivers.length > 0);
  assert.equal(f.blast_radius.length, Math.min(f.blast_radius_total, 1000));
  assert.ok(f.blast_radius.some((h: any) => h.file === 'src/app.ts'), 'app.ts uses the router');
  assert.ok(f.at_risk_tests.some((t: any) => t.file === 'test/router.spec.ts'), JSON.stringify(f.at_risk_tests));
  assert.ok(f.public_api_breaks.some((a: any) => /splitPath|normalizePath|Router/.test(a.label)), JSON.stringify(f.public_api_breaks.map((a: any) => a.label)));
  assert.ok(f.verify_checklist.some((c: string) => c.includes('test/router.spec.ts')));
  const out = text(r);
  for (const header of ['Risk: ', 'Changed nodes (', 'Public API at risk (', 'Tests at risk (', 'Blast radius (', 'Verify:']) assert.ok(out.includes(`\n${header}`), header);
  assert.match(out, /^ {2}\[1\] via [a-z_]+: .+ src\/app\.ts:L\d+$/m);
});

test('predict_impact and affected_tests on named files; depth bounds the walk', async () => {
  const named = await call(sdk, 'predict_impact', { files: ['./src/core/router.ts'] });
  const f = named.structuredContent as Record<string, any>;
  assert.deepEqual(f.changed_files, [{ file: 'src/core/router.ts', status: 'listed', nodes: nodesIn('src/core/router.ts'), in_graph: true }]);
  assert.equal(f.changed_nodes.length, nodesIn('src/core/router.ts'));
  // Absolute paths inside the root are accepted; a folder stands for its graph files.
  const abs = await call(sdk, 'predict_impact', { files: [join(fx.repo, 'src/core/router.ts')] });
  assert.equal((abs.structuredContent as any).changed_nodes.length, f.changed_nodes.length);
  const folder = (await call(sdk, 'predict_impact', { files: ['src/util'] })).structuredContent as any;
  assert.deepEqual(folder.changed_files.map((c: any) => c.file), ['src/util/index.ts', 'src/util/numbers.ts', 'src/util/strings.ts']);

  const tests = await call(sdk, 'affected_tests', { files: ['src/core/router.ts'] });
  const t = tests.structuredContent as { tests: Array<Record<string, unknown>>; total: number };
  assert.equal(t.total, t.tests.length);
  assert.ok(t.tests.some((x) => x.file === 'test/router.spec.ts'));
  for (const x of t.tests) assert.deepEqual(Object.keys(x).sort(), ['depth', 'file', 'id', 'label', 'via_relation']);
  assert.match(text(tests), /^\d+ tests in \d+ test files? reach the change \(<= 3 hops\):\n {2}\[\d\] via /);
  const shallow = (await call(sdk, 'affected_tests', { files: ['src/util/numbers.ts'], depth: 1 })).structuredContent as { total: number };
  const deep = (await call(sdk, 'affected_tests', { files: ['src/util/numbers.ts'], depth: 6 })).structuredContent as { total: number };
  assert.ok(deep.total >= shallow.total);
  const none = await call(sdk, 'affected_tests', { files: ['src/brand-new.ts'] });
  assert.match(text(none), /^No test in the graph reaches the change \(<= 3 hops; none of the changed files is in the graph\)/);
  assert.deepEqual(none.structuredContent, { tests: [], total: 0 });
});

test('bad input: a base that does not exist, a path outside the root, an empty list', async () => {
  for (const name of ['working_changes_impact', 'predict_impact', 'affected_tests']) {
    const r = await call(sdk, name, { base: 'no-such-branch' });
    assert.equal(r.isError, true, name);
    assert.match(text(r), /^base 'no-such-branch' does not name a commit in .*: no branch, tag or commit of that name/);
  }
  for (const files of [['../outside.ts'], ['/etc/passwd'], ['src/../../x.ts']]) {
    const r = await call(sdk, 'predict_impact', { files });
    assert.equal(r.isError, true);
    assert.match(text(r), /^path outside the repository root /, text(r));
  }
  const empty = await call(sdk, 'affected_tests', { files: [] });
  assert.equal(empty.isError, true);
  assert.match(text(empty), /^files is empty/);
  const option = await call(sdk, 'predict_impact', { base: '--output=x' });
  assert.match(text(option), /is not a ref \(it starts with '-'\)/);
});

test('a detached HEAD is diffed and named', async () => {
  g(fx.repo, 'checkout', '-q', '--detach');
  try {
    const out = text(await call(sdk, 'working_changes_impact', { base: 'main' }));
    assert.match(out, /\(HEAD HEAD \(detached at [0-9a-f]{12}\); merge-base /, out);
    assert.match(out, /^Working changes vs main: 4 files/);
  } finally {
    g(fx.repo, 'checkout', '-q', 'feature');
  }
});

/** The fixture's graph served from `root`/synaptic-out (a copy, so the source root is `root`). */
async function serveCopy(prepare: (root: string) => void): Promise<Client> {
  const root = mkdtempSync(join(tmpdir(), 'synaptic-change-'));
  spare.push(root);
  mkdirSync(join(root, 'synaptic-out'));
  cpSync(fx.graph, join(root, 'synaptic-out/graph.json'));
  prepare(root);
  return connectSdk(join(root, 'synaptic-out/graph.json'), fx.env, { serve: ['--no-freshen'] });
}

test('no repository: the spec\'s offline message (not an error); named files still forecast', async () => {
  const offline = await serveCopy(() => {});
  try {
    const r = await call(offline, 'working_changes_impact');
    assert.ok(!r.isError);
    assert.match(text(r), /^git unavailable or not a git repository \(.+\): not inside a git work tree\. Graph audit continues offline\.$/);
    const p = await call(offline, 'predict_impact');
    assert.equal(p.isError, true);
    assert.match(text(p), /^git unavailable or not a git repository/);
    const named = await call(offline, 'predict_impact', { files: ['src/core/router.ts'] });
    assert.ok(!named.isError);
    assert.ok(((named.structuredContent as any).blast_radius_total as number) > 0);
  } finally {
    await offline.close();
  }
});

test('a repository with no commits says so', async () => {
  const fresh = await serveCopy((root) => g(root, 'init', '-q'));
  try {
    for (const name of ['working_changes_impact', 'affected_tests']) {
      const r = await call(fresh, name);
      assert.equal(r.isError, true);
      assert.match(text(r), /is a git repository with no commits yet, so there is no base to diff against: commit once/);
    }
  } finally {
    await fresh.close();
  }
});
