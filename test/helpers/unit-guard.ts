/**
 * Preloaded into every test file (`node --import ./test/helpers/unit-guard.ts --test ...`): a file
 * not listed in test/integration-tests.txt is a unit test, and a unit test that starts a child
 * process or listens on a socket fails at that call, so `npm run test:unit` stays fast and
 * self-contained and the list cannot silently go stale. Worker threads are allowed.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const LIST = 'test/integration-tests.txt';

/** The integration test files (repository-relative paths; `#` starts a comment line). */
export function integrationTests(): Set<string> {
  const lines = readFileSync(resolve(ROOT, LIST), 'utf8').split('\n').map((l) => l.trim());
  return new Set(lines.filter((l) => l && !l.startsWith('#')));
}

// Only in the test runner's per-file child processes (NODE_TEST_CONTEXT), never in the runner itself.
const file = process.env.NODE_TEST_CONTEXT && process.argv[1] ? relative(ROOT, resolve(process.argv[1])) : undefined;
if (file && file.endsWith('.test.ts') && !integrationTests().has(file)) {
  const require = createRequire(import.meta.url);
  const refuse = (what: string) => () => {
    throw new Error(`${file} is a unit test and must not ${what}; if it has to, list it in ${LIST} (run by npm run test:integration)`);
  };
  const cp = require('node:child_process') as Record<string, unknown>;
  for (const fn of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) cp[fn] = refuse(`start a child process (child_process.${fn})`);
  const net = require('node:net') as typeof import('node:net');
  net.Server.prototype.listen = refuse('listen on a socket (a server)') as never;
  syncBuiltinESMExports();
}
