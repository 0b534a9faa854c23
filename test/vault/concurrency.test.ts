import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseRef, VaultStore } from '../../src/vault/index.ts';
import { ROOT, sandbox } from './helpers.ts';

test('VaultStore: six processes storing at once lose no secret', async () => {
  const sb = sandbox();
  try {
    const writers = 6;
    const each = 5;
    const script = `
      import { VaultStore, parseRef } from ${JSON.stringify(join(ROOT, 'src/vault/index.ts'))};
      const w = process.env.WRITER;
      const store = new VaultStore();
      for (let i = 0; i < ${each}; i++) store.set(parseRef('W' + w + '_' + i), Buffer.from('v' + w + i), [${JSON.stringify(sb.project)}]);
    `;
    const codes = await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        new Promise<number | null>((resolve) => {
          const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script], {
            env: { ...sb.env, WRITER: String(w) },
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          child.on('close', resolve);
        }),
      ),
    );
    assert.deepEqual(codes, Array(writers).fill(0));
    const store = new VaultStore(sb.env);
    assert.equal(store.list().length, writers * each);
    const values = store.reveal(store.list().map((s) => parseRef(s.ref)));
    for (let w = 0; w < writers; w++) for (let i = 0; i < each; i++) assert.equal(values.get(`default.W${w}_${i}`), `v${w}${i}`);
  } finally {
    sb.cleanup();
  }
});
