import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { processFiles } from '../../src/extract/pool.node.ts';
import { walkRepository } from '../../src/extract/walk.node.ts';
import type { FileTask } from '../../src/extract/process-file.node.ts';
import { FIXTURE_REPO } from './pipeline-fixture.ts';

test('processFiles() gives the same results in task order in this thread and on worker threads; a missing file is an error result', async () => {
  const walk = walkRepository(FIXTURE_REPO);
  const tasks: FileTask[] = walk.files
    .filter((f) => f.language === 'typescript' || f.language === 'python')
    .map((f) => ({ path: f.path, abs: f.abs, language: f.language, size: f.size }));
  tasks.splice(2, 0, { path: 'src/gone.ts', abs: join(FIXTURE_REPO, 'src/gone.ts'), language: 'typescript' });
  let progress = 0;
  const inline = await processFiles(tasks, { workers: 0 });
  const pooled = await processFiles(tasks, { workers: 3, onProgress: (done, total) => { progress = done; assert.equal(total, tasks.length); } });
  assert.equal(progress, tasks.length);
  assert.deepEqual(pooled.map((r) => r.path), tasks.map((t) => t.path));
  assert.deepStrictEqual(pooled, inline);
  assert.match(inline[2]!.error!, /^Cannot read file: ENOENT/);
  const router = inline.find((r) => r.path === 'src/core/router.ts')!;
  assert.match(router.hash, /^sha256:[0-9a-f]{64}$/);
  assert.ok(router.facts && router.facts.symbols.some((s) => s.qname === 'Router.add'));
  // A known hash short-circuits parsing.
  const again = await processFiles([{ path: router.path, abs: join(FIXTURE_REPO, router.path), language: 'typescript', knownHash: router.hash }], { workers: 0 });
  assert.equal(again[0]!.unchanged, true);
  assert.equal(again[0]!.facts, undefined);
});
