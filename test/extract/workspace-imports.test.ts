/**
 * Namespace imports of workspace packages reach their sources (#17 item 1): package.json
 * `exports` subpaths (custom source conditions, `*` patterns, built paths mapped back to src/),
 * through `export *` barrels.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkSources } from './lang-harness.ts';

const ZOD_LIKE = {
  'packages/zod/package.json': JSON.stringify({
    name: 'zod',
    exports: {
      '.': { '@zod/source': './src/index.ts', import: './index.js' },
      './mini': { '@zod/source': './src/v4/mini/index.ts', types: './v4/mini/index.d.cts', import: './v4/mini/index.js' },
      './v4/*': { import: './dist/v4/*.js' },
      './package.json': './package.json',
    },
  }),
};

test('linkGraph() import * as z from a workspace package subpath follows exports to the sources and export *', async () => {
  const g = await linkSources({
    'packages/zod/src/index.ts': "export * from './v4/classic/index';\n",
    'packages/zod/src/v4/classic/index.ts': "export * from './schemas';\n",
    'packages/zod/src/v4/classic/schemas.ts': 'export function string() { return 1; }\n',
    'packages/zod/src/v4/mini/index.ts': "export * from './parse';\n",
    'packages/zod/src/v4/mini/parse.ts': 'export function parse(x: unknown) { return x; }\n',
    'packages/zod/src/v4/core/errors.ts': 'export function flatten() {}\n',
    'packages/bench/index.ts': "import * as z from 'zod/mini';\nimport * as core from 'zod/v4/core/errors';\nimport * as zc from 'zod';\nz.parse(1);\ncore.flatten();\nexport function run() { return zc.string(); }\n",
  }, ZOD_LIKE);
  const calls = g.edges('calls');
  for (const e of [
    'packages/bench/index.ts -> packages/zod/src/v4/mini/parse.ts#parse', // ./mini: the @zod/source condition
    'packages/bench/index.ts -> packages/zod/src/v4/core/errors.ts#flatten', // ./v4/*: dist/v4/*.js -> src/v4/*
    'packages/bench/index.ts#run -> packages/zod/src/v4/classic/schemas.ts#string', // the root entry, two export * barrels
  ]) assert.ok(calls.includes(e), `${e}\n${calls.join('\n')}`);
});
