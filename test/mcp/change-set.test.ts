import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Core } from '../../src/core/index.ts';
import { coreTraversal } from '../../src/query/core-traversal.ts';
import { QueryEngine } from '../../src/query/engine.ts';
import { changeSet, repoPath } from '../../src/mcp/tools/change-set.ts';
import { smallGraph } from './fixtures/small-graph.ts';

// The named-files half of a change set (no git): how typed paths become repo-relative ones, and
// which are refused. The git half is tested against real repositories in extract/git-changes.

const engine = new QueryEngine(smallGraph(), coreTraversal(await Core.load()));
const ROOT = '/repo/root';

test('typed paths become repo-relative: ./, trailing slashes, absolute paths inside the root, .. that stays inside', () => {
  assert.deepEqual(repoPath(ROOT, 'src/a.ts'), { path: 'src/a.ts' });
  assert.deepEqual(repoPath(ROOT, './src/a.ts'), { path: 'src/a.ts' });
  assert.deepEqual(repoPath(ROOT, ' src/util/ '), { path: 'src/util' });
  assert.deepEqual(repoPath(ROOT, 'src/x/../a.ts'), { path: 'src/a.ts' });
  assert.deepEqual(repoPath(ROOT, '/repo/root/src/a.ts'), { path: 'src/a.ts' });
});

test('paths outside the root, the root itself, empty or control-character paths are refused with the reason', () => {
  for (const p of ['../x.ts', 'src/../../x.ts', '/etc/passwd', '/repo/rootless/a.ts']) {
    const r = repoPath(ROOT, p);
    assert.ok('error' in r && r.error.startsWith('path outside the repository root /repo/root: '), `${p}: ${JSON.stringify(r)}`);
  }
  assert.match((repoPath(ROOT, '.') as { error: string }).error, /is the repository root, not a file/);
  assert.match((repoPath(ROOT, '/repo/root') as { error: string }).error, /is the repository root, not a file/);
  assert.match((repoPath(ROOT, '  ') as { error: string }).error, /^an empty path in files/);
  assert.match((repoPath(ROOT, 'a\nb.ts') as { error: string }).error, /control characters/);
});

test('named files: graph files as listed, a folder as the graph files under it, unknown files with a code hint', () => {
  const set = changeSet(engine, ROOT, { files: ['src/auth', 'src/web/login.ts', 'src/new.py', 'notes.txt'] });
  assert.ok(set.ok);
  assert.deepEqual(set.files, [
    { path: 'src/auth/service.ts', status: 'listed' },
    { path: 'src/auth/token.ts', status: 'listed' },
    { path: 'src/web/login.ts', status: 'listed' },
    { path: 'src/new.py', status: 'listed', code: true },
    { path: 'notes.txt', status: 'listed', code: false },
  ]);
  const empty = changeSet(engine, ROOT, { files: [] });
  assert.ok(!empty.ok && !empty.offline && empty.message.startsWith('files is empty'));
  const outside = changeSet(engine, ROOT, { files: ['src/a.ts', '../b.ts'] });
  assert.ok(!outside.ok && /path outside the repository root/.test(outside.message));
});
