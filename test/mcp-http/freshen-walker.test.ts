import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MANIFEST_VERSION } from '../../src/graph/manifest.ts';
import { Freshener } from '../../src/mcp/freshen.ts';

const root = mkdtempSync(join(tmpdir(), 'synaptic-walker-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Nice value of each thread of this process (Linux /proc). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((t) => {
    const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

test('the staleness walk runs on a lowest-priority thread (Linux), and still finds an unchanged tree clean', { skip: process.platform !== 'linux' }, async () => {
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  const st = statSync(join(root, 'a.ts'));
  mkdirSync(join(root, 'synaptic-out'), { recursive: true });
  writeFileSync(
    join(root, 'synaptic-out/.manifest.json'),
    JSON.stringify({ manifest_version: MANIFEST_VERSION, extractor_version: 'test', files: { 'a.ts': { hash: 'x', size: st.size, mtime_ms: st.mtimeMs, status: 'ok' } } }),
  );
  const niceBefore = threadNices().filter((n) => n === 19).length;
  let updates = 0;
  const freshener = new Freshener({ root, graphPath: join(root, 'synaptic-out/graph.json'), onUpdated: async () => void updates++ });
  try {
    freshener.start();
    await freshener.check(); // waits for the first walk (in the walk worker)
    assert.equal(updates, 0, 'nothing changed: no update');
    assert.equal(threadNices().filter((n) => n === 19).length, niceBefore + 1, 'one more thread at nice 19: the walker');
    assert.equal(threadNices().filter((n) => n === 0).length > 0, true, 'the other threads keep their priority');
  } finally {
    freshener.close();
  }
});
