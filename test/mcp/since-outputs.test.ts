import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLI, extractFixture, text } from './helpers.ts';
import { connectSdk } from './sdk-stdio.ts';

// query_graph `since` on a git checkout of the fixture whose synaptic-out/ (and a second --out folder)
// are untracked: the changed files are the ones git reports for the source, never the tool's own outputs.

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

let fx: ReturnType<typeof extractFixture>;
let server: Awaited<ReturnType<typeof connectSdk>>;
const skip = spawnSync('git', ['--version']).status === 0 ? false : 'git is not installed';

before(async () => {
  if (skip) return;
  fx = extractFixture(
    (repo) => {
      git(repo, 'init', '-q', '-b', 'main');
      git(repo, 'add', '-A');
      git(repo, 'commit', '-q', '-m', 'base');
      appendFileSync(join(repo, 'src/app.ts'), '\nexport function changedOnBranch(): number {\n  return 2;\n}\n');
      git(repo, 'commit', '-q', '-am', 'branch work');
      writeFileSync(join(repo, 'src/untracked.ts'), 'export function notYetAdded(): number {\n  return 3;\n}\n');
    },
    (repo) => {
      // A second output folder elsewhere in the tree (extract --out), untracked too.
      execFileSync(process.execPath, [CLI, 'extract', repo, '--out', join(repo, 'tools/graph-copy')], { stdio: ['ignore', 'ignore', 'pipe'] });
    },
  );
  server = await connectSdk(fx.graph, fx.env, { serve: ['--no-freshen'] });
});

after(async () => {
  await server?.close();
  fx?.cleanup();
});

test('since counts the changed source files git reports, never files in an output folder', { skip }, async () => {
  assert.ok(existsSync(join(fx.repo, 'synaptic-out/.manifest.json')) && existsSync(join(fx.repo, 'tools/graph-copy/graph.json')), 'both output folders exist');
  const untracked = git(fx.repo, 'ls-files', '--others', '--exclude-standard').split('\n').filter(Boolean);
  assert.ok(untracked.some((f) => f.startsWith('synaptic-out/')) && untracked.some((f) => f.startsWith('tools/graph-copy/')), 'git sees the outputs as untracked files');
  const expected = [...git(fx.repo, 'diff', '--name-only', 'HEAD~1').split('\n'), ...untracked].filter((f) => f && !f.startsWith('synaptic-out/') && !f.startsWith('tools/graph-copy/'));
  assert.deepEqual(expected.sort(), ['src/app.ts', 'src/untracked.ts']);

  const r = await server.client.callTool({ name: 'query_graph', arguments: { question: 'changedOnBranch notYetAdded createApp', since: 'HEAD~1' } }).catch((err: unknown) => {
    throw new Error(`${String(err)}; server stderr:\n${server.stderr()}`);
  });
  assert.match(text(r), /Recency: since HEAD~1 \(base [0-9a-f]+\): 2 changed file\(s\)/, text(r));
  const nodes = (r.structuredContent as { nodes: Array<{ label: string; source_file: string; changed?: boolean }> }).nodes;
  assert.equal(nodes.find((n) => n.label === 'changedOnBranch')?.changed, true);
  assert.equal(nodes.find((n) => n.label === 'notYetAdded')?.changed, true);
});
