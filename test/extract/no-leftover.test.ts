import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, REPO_ROOT } from './pipeline-fixture.ts';

// `synaptic extract` and `synaptic update` start no process the user did not ask for: once each
// command has exited, no process in the table carries the marker its environment was given (any
// process it started, detached or not, inherits it). SYNAPTIC_RESIDENT=1 once forced a background
// updater on any repository; it must do nothing now.
const CLI = join(REPO_ROOT, 'dist/cli/main.js');
const linux = existsSync('/proc/self/environ');

/** Pids of live processes whose environment holds `marker` (Linux /proc). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

test('extract and update leave no process behind (process table)', { skip: (!linux && '/proc needed') || (!existsSync(CLI) && 'dist/ not built (npm run build)') }, () => {
  const fx = copyFixture();
  const marker = `SYNAPTIC_TEST_MARKER=${randomUUID()}`;
  const env = { ...process.env, SYNAPTIC_RESIDENT: '1', CI: '', [marker.split('=')[0]!]: marker.split('=')[1]! };
  try {
    const run = (args: string[]): void => {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: fx.dir, env, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `synaptic ${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(processesWith(marker), [], `synaptic ${args.join(' ')} left processes behind`);
    };
    run(['extract']);
    writeFileSync(join(fx.dir, 'src/util/numbers.ts'), 'export function clamp(v: number): number {\n  return v;\n}\n');
    run(['update']);
    run(['update', '--json']);
  } finally {
    fx.cleanup();
  }
});
