import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { MANIFEST_VERSION } from '../../src/graph/manifest.ts';
import { Freshener } from '../../src/mcp/freshen.ts';

const root = mkdtempSync(join(tmpdir(), 'synaptic-walker-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** One /proc stat field (1-based, as proc(5) numbers them) of each thread of this process (Linux). */
function threadField(field: number): number[] {
  return readdirSync('/proc/self/task').map((t) => {
    const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field - 3]);
  });
}
const threadNices = (): number[] => threadField(19);
/** Scheduling policy of each thread (SCHED_IDLE is 5). */
const threadPolicies = (): number[] => threadField(41);
const SCHED_IDLE = 5;

/** chrt exists and may put a process under SCHED_IDLE here (some sandboxes refuse the call). */
function hasChrt(): boolean {
  try {
    execFileSync('chrt', ['--idle', '0', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
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
  const idleBefore = threadPolicies().filter((p) => p === SCHED_IDLE).length;
  let updates = 0;
  const freshener = new Freshener({ root, graphPath: join(root, 'synaptic-out/graph.json'), onUpdated: async () => void updates++ });
  try {
    freshener.start();
    await freshener.check(); // waits for the first walk (in the walk worker)
    assert.equal(updates, 0, 'nothing changed: no update');
    assert.equal(threadNices().filter((n) => n === 19).length, niceBefore + 1, 'one more thread at nice 19: the walker');
    assert.equal(threadNices().filter((n) => n === 0).length > 0, true, 'the other threads keep their priority');
    if (hasChrt()) assert.equal(threadPolicies().filter((p) => p === SCHED_IDLE).length, idleBefore + 1, 'one more thread under SCHED_IDLE: the walker');
    assert.equal(threadPolicies()[0], 0, 'the main thread keeps the normal policy');
  } finally {
    freshener.close();
  }
});

test('a call never waits for a staleness walk; timed walks repeat, one at a time, while calls come', async () => {
  const dir = mkdtempSync(join(root, 'overlap-'));
  mkdirSync(join(dir, 'synaptic-out'), { recursive: true });
  const files: Record<string, unknown> = {};
  for (let i = 0; i < 300; i++) {
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
    const st = statSync(join(dir, `f${i}.ts`));
    files[`f${i}.ts`] = { hash: 'x', size: st.size, mtime_ms: st.mtimeMs, status: 'ok' };
  }
  writeFileSync(join(dir, 'synaptic-out/.manifest.json'), JSON.stringify({ manifest_version: MANIFEST_VERSION, extractor_version: 'test', scanned_at_ms: Date.now(), files }));
  let updates = 0;
  const freshener = new Freshener({ root: dir, graphPath: join(dir, 'synaptic-out/graph.json'), debounceMs: 30, onUpdated: async () => void updates++ });
  const alive = setInterval(() => {}, 1000); // the walk timer is unref'd (a server's stdin keeps it alive)
  try {
    freshener.start();
    await freshener.check(); // the startup walk: the one walk calls wait for
    const walker = (freshener as unknown as { walker: { walk: (root: string, manifest: string) => Promise<string | null | undefined> } }).walker;
    assert.ok(walker, 'the walk worker started');
    const walk = walker.walk.bind(walker);
    // Each walk waits at a gate the test opens, so "in flight" is certain, not a matter of timing.
    let walks = 0;
    let inFlight = 0;
    let most = 0;
    let entered: () => void = () => {};
    let open: () => void = () => {};
    const nextEntry = () => new Promise<void>((resolve) => (entered = resolve));
    let entry = nextEntry();
    walker.walk = async (r, m) => {
      walks++;
      most = Math.max(most, ++inFlight);
      const gate = new Promise<void>((resolve) => (open = resolve));
      entered();
      await gate;
      try {
        return await walk(r, m);
      } finally {
        inFlight--;
      }
    };
    await entry; // the timed walk after the startup walk began (no call needed)
    entry = nextEntry();
    for (let i = 0; i < 20; i++) await freshener.check(); // each resolves with the walk still held at its gate
    assert.equal(inFlight, 1, 'the walk is still in flight: no call waited for it');
    assert.equal(walks, 1, 'calls during a walk start no second walk');
    open();
    await entry; // the next timed walk follows the first
    assert.equal(walks, 2);
    assert.equal(most, 1, 'one walk in flight at a time');
    open();
    assert.equal(updates, 0, 'nothing changed: no update');
  } finally {
    clearInterval(alive);
    freshener.close();
  }
});
