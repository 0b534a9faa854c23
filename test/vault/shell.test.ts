import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { exportLine, hookSnippet, initScope, parseRef, quoteFish, trustScope, VaultStore } from '../../src/vault/index.ts';
import { cliArgv, sandbox } from './helpers.ts';

/** Values an environment variable can hold: any string without NUL. */
const arbValue = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));

test('exportLine(bash) round-trips arbitrary values through bash eval', () => {
  fc.assert(
    fc.property(fc.array(arbValue, { minLength: 1, maxLength: 30 }), (values) => {
      const script = values.map((v, i) => exportLine('bash', `V${i}`, v)).join('\n');
      const print = values.map((_, i) => `printf '%s\\0' "$V${i}"`).join('; ');
      const r = spawnSync('bash', ['-c', `${script}\n${print}`], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\0').slice(0, -1), values);
    }),
    { numRuns: 15 },
  );
});

test('quoteFish() escapes exactly backslash and single quote', () => {
  assert.equal(quoteFish(`a'b\\c$d"e`), `'a\\'b\\\\c$d"e'`);
  fc.assert(
    fc.property(arbValue, (v) => {
      const q = quoteFish(v);
      // fish reads '...' unescaping only \\ and \'; reading it back must give v.
      const inner = q.slice(1, -1);
      assert.ok(!/(^|[^\\])(\\\\)*'/.test(inner), 'no bare quote inside');
      assert.equal(inner.replace(/\\(['\\])/g, '$1'), v);
    }),
  );
});

test('hookSnippet(bash) exports the folder secrets at each prompt and unsets them on leaving', () => {
  const sb = sandbox();
  try {
    new VaultStore(sb.env).set(parseRef('HOOKED'), Buffer.from("it's hooked"), [join(sb.project, 'sub')]);
    trustScope(initScope(sb.project, ['HOOKED']), [], sb.env);
    const command = [process.execPath, ...cliArgv()].map((a) => `'${a}'`).join(' ');
    const script = `${hookSnippet('bash', command)}
cd "$1/sub"; _synaptic_hook; printf '%s|%s|' "$HOOKED" "$SYNAPTIC_ENV_NAMES"
cd "$1"; _synaptic_hook; printf '%s|%s' "\${HOOKED-unset}" "$SYNAPTIC_ENV_NAMES"`;
    const r = spawnSync('bash', ['-c', script, 'x', sb.project], { encoding: 'utf8', env: sb.env, timeout: 60_000 });
    assert.equal(r.stdout, "it's hooked|HOOKED|unset|");
  } finally {
    sb.cleanup();
  }
});
