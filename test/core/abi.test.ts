// The numbers-only ABI: zero imports, the golden export list, version check, handles with
// generations, typed errors, trap recovery, views vs memory growth, the finalization net.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  ABI_MAJOR, AbiMismatchError, Core, CoreError, CoreTrap, GraphFreedError, NodeRangeError, Status,
} from '../../src/core/index.ts';

const WASM = new URL('../../wasm/synaptic.wasm', import.meta.url);
const WASM_DEBUG = new URL('../../wasm/synaptic.debug.wasm', import.meta.url);
const GOLDEN = new URL('../golden/wasm-exports.txt', import.meta.url);

function exportList(file: URL): string {
  const mod = new WebAssembly.Module(readFileSync(file));
  return WebAssembly.Module.exports(mod).map((e) => `${e.name} ${e.kind}`).sort().join('\n') + '\n';
}

test('synaptic.wasm and the debug build have zero imports', () => {
  for (const f of [WASM, WASM_DEBUG]) {
    assert.deepEqual(WebAssembly.Module.imports(new WebAssembly.Module(readFileSync(f))), []);
  }
});

test('export list matches test/golden/wasm-exports.txt (UPDATE_GOLDEN=1 rewrites it)', () => {
  const actual = exportList(WASM);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, actual);
  assert.equal(actual, readFileSync(GOLDEN, 'utf8'));
  assert.equal(exportList(WASM_DEBUG), actual, 'debug build exports the same');
  for (const line of actual.trim().split('\n')) {
    const [name, kind] = line.split(' ');
    assert.ok(kind === 'memory' ? name === 'memory' : /^syn_[a-z0-9_]+$/.test(name!), `export name ${name}`);
  }
});

test('Core.load() checks syn_abi_version', async () => {
  const core = await Core.load();
  assert.equal(core.abi.major, ABI_MAJOR);
  assert.equal(core.exports.syn_abi_version() >>> 16, ABI_MAJOR);
});

// A hand-assembled module whose syn_abi_version() returns `v`.
function fakeModule(v: number): Uint8Array {
  const sleb: number[] = [];
  for (let x = v; ; ) {
    const b = x & 0x7f;
    x >>= 7;
    if ((x === 0 && (b & 0x40) === 0) || (x === -1 && (b & 0x40) !== 0)) { sleb.push(b); break; }
    sleb.push(b | 0x80);
  }
  const name = [...'syn_abi_version'].map((c) => c.charCodeAt(0));
  const body = [0x00, 0x41, ...sleb, 0x0b];
  const exp = [0x01, name.length, ...name, 0x00, 0x00];
  const code = [0x01, body.length, ...body];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,
    0x03, 0x02, 0x01, 0x00,
    0x07, exp.length, ...exp,
    0x0a, code.length, ...code,
  ]);
}

test('Core.load() refuses another ABI major or an older minor with AbiMismatchError', async () => {
  await assert.rejects(Core.load({ bytes: fakeModule((ABI_MAJOR + 1) << 16) }), (e: unknown) => {
    assert.ok(e instanceof AbiMismatchError);
    assert.equal(e.actual.major, ABI_MAJOR + 1);
    assert.match(e.message, /^Cannot load the WASM core: it speaks ABI 2\.0, this shell needs 1\.x/);
    return true;
  });
  await assert.rejects(Core.load({ bytes: fakeModule(0) }), AbiMismatchError);
});

test('Core.load({ bytes }) and Core.load({ module }) load the same core', async () => {
  const bytes = readFileSync(WASM);
  const a = await Core.load({ bytes });
  const b = await Core.load({ module: new WebAssembly.Module(bytes) });
  for (const core of [a, b]) {
    const g = core.graph({ n: 3, src: [0, 1], dst: [1, 2] });
    assert.deepEqual(Array.from(g.bfs(0)), [0, 1, 2]);
    g.free();
  }
});

test('syn_graph_free() on a freed handle and a stale handle return E_BAD_HANDLE', async () => {
  const core = await Core.load();
  const x = core.exports;
  const g1 = core.graph({ n: 2, src: [0], dst: [1] });
  const h1 = g1.handle();
  g1.free();
  assert.equal(x.syn_graph_free(h1), Status.E_BAD_HANDLE, 'double free');
  const g2 = core.graph({ n: 2, src: [0], dst: [1] });
  const h2 = g2.handle();
  assert.notEqual(h2, h1, 'same slot, new generation');
  assert.equal(x.syn_graph_n(h1), Status.E_BAD_HANDLE, 'stale handle');
  assert.equal(x.syn_graph_n(h2), 2);
  for (const bad of [0, -1, 12345, 0x7fffffff]) assert.equal(x.syn_graph_m(bad), Status.E_BAD_HANDLE);
  g2.free();
});

test('a freed graph throws GraphFreedError on use and on a second free()', async () => {
  const core = await Core.load();
  const g = core.graph({ n: 2, src: [0], dst: [1] });
  g.free();
  assert.ok(g.freed);
  assert.throws(() => g.bfs(0), (e: unknown) => e instanceof GraphFreedError && e.status === Status.E_BAD_HANDLE && /^Cannot run bfs: the graph was freed/.test(e.message));
  assert.throws(() => g.free(), GraphFreedError);
});

test('node ids out of range throw NodeRangeError (API) and return E_NODE_RANGE (ABI)', async () => {
  const core = await Core.load();
  const g = core.graph({ n: 3, src: [0, 1], dst: [1, 2] });
  assert.throws(() => g.bfs(3), (e: unknown) => e instanceof NodeRangeError && e.node === 3 && /out of range \(the graph has 3 nodes/.test(e.message));
  assert.throws(() => g.shortestPath(0, -1), NodeRangeError);
  assert.throws(() => g.reverseReach([0, 7], { k: 1 }), NodeRangeError);
  assert.throws(() => g.pagerank({ personalization: [9] }), NodeRangeError);
  assert.throws(() => core.graph({ n: 2, src: [0, 1], dst: [1, 2] }), (e: unknown) => e instanceof NodeRangeError && /dst\[1\]/.test(e.message));
  assert.throws(() => core.graph({ n: 2, src: Uint32Array.of(0, 5), dst: Uint32Array.of(1, 1) }), (e: unknown) => e instanceof NodeRangeError && e.node === 5 && /src\[1\]/.test(e.message));
  assert.throws(() => core.graph({ n: 2, src: [0.5], dst: [1] }), NodeRangeError);
  assert.throws(() => core.graph({ n: 2, src: [-1], dst: [1] }), NodeRangeError);
  const x = core.exports;
  const buf = x.syn_alloc(16);
  new Uint32Array(x.memory.buffer, buf, 1)[0] = 3;
  assert.equal(x.syn_bfs(g.handle(), buf, 1, 0xffffffff, 0xffffffff, 0, buf), Status.E_NODE_RANGE);
  assert.equal(x.syn_dijkstra(g.handle(), 5, 0xffffffff, buf), Status.E_NODE_RANGE);
  x.syn_free(buf);
  g.free();
});

test('bad arguments throw CoreError with E_BAD_ARG and a "Cannot ..." message', async () => {
  const core = await Core.load();
  const g = core.graph({ n: 3, src: [0, 1], dst: [1, 2] });
  const isBadArg = (e: unknown) => e instanceof CoreError && e.code === 'E_BAD_ARG' && /^Cannot /.test(e.message);
  assert.throws(() => core.graph({ n: 3, src: [0, 1], dst: [1] }), isBadArg);
  assert.throws(() => core.graph({ n: 3, src: [0], dst: [1], rel: [32] }), isBadArg);
  assert.throws(() => core.graph({ n: 3, src: [0], dst: [1], weight: [-1] }), isBadArg);
  assert.throws(() => core.graph({ n: -1, src: [], dst: [] }), isBadArg);
  assert.throws(() => g.reverseReach([0], { k: 256 }), isBadArg);
  assert.throws(() => g.pagerank({ alpha: 1.5 }), isBadArg);
  assert.throws(() => g.bfs(0, { direction: 'up' as 'out' }), isBadArg);
  assert.throws(() => g.pagerank({ personalization: [] }), isBadArg);
  g.free();
});

test('a trap becomes CoreTrap, the instance is rebuilt and the process keeps working', async () => {
  for (const debug of [false, true]) {
    const core = await Core.load({ debug });
    const before = core.graph({ n: 2, src: [0], dst: [1] });
    const epoch = core.epoch;
    // An allocation above TLSF's 1 GiB block limit aborts inside the module.
    assert.throws(() => core.call('allocate', (x) => x.syn_alloc(0x7fffffff)), (e: unknown) => {
      assert.ok(e instanceof CoreTrap);
      assert.match(e.message, /^Cannot allocate: the WASM core trapped/);
      if (debug) assert.ok(e.site && e.site.line > 0, 'debug build records the abort site');
      return true;
    });
    assert.equal(core.epoch, epoch + 1);
    assert.throws(() => before.bfs(0), (e: unknown) => e instanceof GraphFreedError && /reset after a trap/.test(e.message));
    const after = core.graph({ n: 3, src: [0, 1], dst: [1, 2] });
    assert.deepEqual(Array.from(after.bfs(0)), [0, 1, 2]);
    after.free();
  }
});

test('results stay valid across memory growth (views are copied out)', async () => {
  const core = await Core.load();
  const g = core.graph({ n: 4, src: [0, 1, 2], dst: [1, 2, 3] });
  const dist = g.bfs(0);
  const deg = g.degree();
  const bytesBefore = core.memoryBytes();
  const m = 2_000_000;
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  for (let i = 0; i < m; i++) { src[i] = i % 1000; dst[i] = (i * 7) % 1000; }
  const big = core.graph({ n: 1000, src, dst });
  assert.ok(core.memoryBytes() > bytesBefore, 'memory grew');
  assert.deepEqual(Array.from(dist), [0, 1, 2, 3]);
  assert.deepEqual(Array.from(deg.out), [1, 1, 1, 0]);
  assert.deepEqual(Array.from(g.bfs(3, { direction: 'in' })), [3, 2, 1, 0], 'old graph still works after growth');
  big.free();
  g.free();
});

test('the FinalizationRegistry net frees a dropped graph', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const core = await Core.load();
  let handle = 0;
  (() => {
    const g = core.graph({ n: 2, src: [0], dst: [1] });
    handle = g.handle();
  })();
  for (let i = 0; i < 50 && core.exports.syn_graph_n(handle) >= 0; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(core.exports.syn_graph_n(handle), Status.E_BAD_HANDLE);
});

test('graph bytes stay within 16 per edge with both directions and relation bytes', async () => {
  const core = await Core.load();
  const n = 1 << 14;
  const m = 8 * n;
  let s = 12345;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) % n);
  const src = Uint32Array.from({ length: m }, rnd);
  const dst = Uint32Array.from({ length: m }, rnd);
  const rel = Uint8Array.from({ length: m }, (_, i) => i % 32);
  const g = core.graph({ n, src, dst, rel });
  const perEdge = g.bytes() / m;
  assert.ok(perEdge <= 16, `${perEdge} bytes/edge`);
  assert.equal(perEdge, 10 + (8 * (n + 1)) / m);
  g.free();
});

test('graph table full gives E_TOO_MANY_GRAPHS; freeing makes room again', async () => {
  const core = await Core.load();
  const graphs = [];
  let error: unknown = null;
  try {
    for (let i = 0; i < 5000; i++) graphs.push(core.graph({ n: 2, src: [0], dst: [1] }));
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof CoreError && error.code === 'E_TOO_MANY_GRAPHS', String(error));
  assert.match((error as Error).message, /free\(\) graphs you no longer need/);
  assert.equal(graphs.length, 4096);
  graphs.pop()!.free();
  const again = core.graph({ n: 2, src: [0], dst: [1] });
  assert.deepEqual(Array.from(again.bfs(0)), [0, 1]);
  again.free();
  for (const g of graphs) g.free();
});
