// Boundary costs: what one crossing into the WASM core costs, from an empty ABI call up to a
// whole typed-wrapper call on a tiny graph, each beside its plain-JS counterpart. Calls are
// batched (BATCH per timed run) and reported per call in nanoseconds.
import { Core } from '../src/core/index.ts';
import * as plain from './baseline-csr.ts';
import { measure } from './measure.ts';

export interface BoundaryRow {
  call: string;
  oursNs: number;
  baselineName: string;
  baselineNs: number;
  /** ours / baseline: the overhead factor of crossing (1 = free). */
  overhead: number;
  note: string;
}

const BATCH = 10_000;

export async function boundarySuite(opts: { quick: boolean; verbose: boolean }): Promise<BoundaryRow[]> {
  const core = await Core.load();
  const x = core.exports;
  // A 16-node ring with chords: big enough to do work, small enough that overhead dominates.
  const n = 16;
  const src = new Uint32Array(2 * n);
  const dst = new Uint32Array(2 * n);
  for (let v = 0; v < n; v++) {
    src[v] = v;
    dst[v] = (v + 1) % n;
    src[n + v] = v;
    dst[n + v] = (v * 5 + 3) % n;
  }
  const g = core.graph({ n, src, dst });
  const c = plain.buildCsr(n, src, dst);
  const h = g.handle();
  let sink = 0;
  const noop = (): number => 0;
  const runs = opts.quick ? { iterations: 5, warmup: 1 } : { iterations: 50, warmup: 5 };
  try {
    const t = await measure({
      name: 'boundary',
      runs,
      tasks: [
        { name: 'empty-abi', fn: () => { for (let i = 0; i < BATCH; i++) sink += x.syn_abi_version(); } },
        { name: 'empty-js', fn: () => { for (let i = 0; i < BATCH; i++) sink += noop(); } },
        { name: 'graph-n', fn: () => { for (let i = 0; i < BATCH; i++) sink += x.syn_graph_n(h); } },
        { name: 'js-n', fn: () => { for (let i = 0; i < BATCH; i++) sink += c.n; } },
        { name: 'bfs-ours', fn: () => { for (let i = 0; i < BATCH / 10; i++) sink += g.bfs(i % n)[0]!; } },
        { name: 'bfs-plain', fn: () => { for (let i = 0; i < BATCH / 10; i++) sink += plain.bfs(c, i % n)[0]!; } },
        { name: 'degree-ours', fn: () => { for (let i = 0; i < BATCH / 10; i++) sink += g.degree().out[0]!; } },
        { name: 'degree-plain', fn: () => { for (let i = 0; i < BATCH / 10; i++) sink += plain.degree(c).out[0]!; } },
      ],
    }, opts.verbose);
    if (sink === -1) console.log(sink); // keep the loops observable
    const ns = (name: string, per: number): number => (t.get(name)!.ms * 1e6) / per;
    const r = (call: string, ours: string, baselineName: string, base: string, per: number, note: string): BoundaryRow => {
      const oursNs = ns(ours, per);
      const baselineNs = ns(base, per);
      return { call, oursNs, baselineName, baselineNs, overhead: oursNs / baselineNs, note };
    };
    return [
      r('empty ABI call (syn_abi_version)', 'empty-abi', 'empty JS call', 'empty-js', BATCH, 'per-call overhead baseline row'),
      r('handle lookup (syn_graph_n)', 'graph-n', 'JS field read', 'js-n', BATCH, 'slot + generation check'),
      r('g.bfs on 16 nodes (typed wrapper)', 'bfs-ours', 'plain-js bfs', 'bfs-plain', BATCH / 10, 'alloc, call, copy out, free'),
      r('g.degree on 16 nodes (typed wrapper)', 'degree-ours', 'plain-js degree', 'degree-plain', BATCH / 10, 'two output arrays'),
    ];
  } finally {
    g.free();
  }
}
