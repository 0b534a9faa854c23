/**
 * Project configuration named by an ignore rule is still read (#17 item 1): zod's
 * packages/zod/.gitignore says `**\/package.json` (for generated subpath stubs) while its own
 * package.json is tracked; without it `import * as z from 'zod/v4'` reached nothing and every test
 * and bench module of zod had 0 call edges (CLI extract of zod: R 44 % -> 92 %).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FileFacts } from '../../src/extract/facts.ts';
import { extractFileFacts } from '../../src/extract/file-facts.ts';
import { linkGraph } from '../../src/extract/link/index.ts';
import { buildProjectContext, CONTEXT_FILE_NAMES } from '../../src/extract/project-context.ts';
import { walkRepository } from '../../src/extract/walk.node.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/ignored-config', import.meta.url));

test('walkRepository() collects an ignored package.json as configuration, never an ignored source', () => {
  const walk = walkRepository(FIXTURE, { contextFileNames: CONTEXT_FILE_NAMES });
  assert.ok(walk.contextFiles.includes('packages/zod/package.json'), walk.contextFiles.join(', '));
  const paths = walk.files.map((f) => f.path);
  assert.ok(!paths.includes('packages/zod/scratch.ts'), 'an ignored source stays out');
  assert.ok(paths.includes('packages/bench/index.ts') && paths.includes('packages/zod/src/v4/classic/schemas.ts'));
});

test('a namespace import of a workspace package whose package.json is ignored reaches its sources', async () => {
  const walk = walkRepository(FIXTURE, { contextFileNames: CONTEXT_FILE_NAMES });
  const facts: FileFacts[] = [];
  for (const f of walk.files) facts.push(await extractFileFacts({ path: f.path, source: readFileSync(f.abs, 'utf8'), language: f.language }));
  const config: Record<string, string> = {};
  for (const rel of walk.contextFiles) config[rel] = readFileSync(join(FIXTURE, rel), 'utf8');
  const r = linkGraph(facts, buildProjectContext(config));
  const calls = r.links.filter((l) => l.relation === 'calls').map((l) => `${l.source} -> ${l.target}`);
  assert.ok(calls.includes('packages/bench/index.ts#run -> packages/zod/src/v4/classic/schemas.ts#string'), calls.join('\n'));
});
