import { Core } from '../src/core/index.ts';
const core = await Core.load();
const x = core.exports;
const n = 16; const src = new Uint32Array(32), dst = new Uint32Array(32);
for (let v = 0; v < n; v++) { src[v] = v; dst[v] = (v + 1) % n; src[n + v] = v; dst[n + v] = (v * 5 + 3) % n; }
const g = core.graph({ n, src, dst }); const h = g.handle();
const sp = x.syn_alloc(4); const out = x.syn_alloc(64);
new Uint32Array(x.memory.buffer, sp, 1)[0] = 0;
const T = (name: string, N: number, f: () => void) => { for (let i = 0; i < N / 10; i++) f(); const t = performance.now(); for (let i = 0; i < N; i++) f(); console.log(name, ((performance.now() - t) * 1e6 / N).toFixed(0), 'ns'); };
T('raw syn_bfs', 20000, () => { x.syn_bfs(h, sp, 1, 0xffffffff, 0xffffffff, 0, out); });
T('raw alloc/free 64', 20000, () => { x.syn_free(x.syn_alloc(64)); });
T('g.bfs', 20000, () => { g.bfs(0); });
T('g.degree', 20000, () => { g.degree(); });
T('g.components', 20000, () => { g.components('weak'); });
T('g.pagerank 1it', 20000, () => { g.pagerank({iterations:1, tolerance:0}); });
