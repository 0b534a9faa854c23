// A complete host for synaptic.wasm in plain JS: any runtime with WebAssembly (Node, Bun, Deno, browsers).
export async function loadSynaptic(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, {}); // the module has zero imports
  const x = instance.exports;
  const ok = (r) => { if (r < 0) throw new Error(`Cannot run synaptic call: status ${r}`); return r; };
  const put = (T, data) => { const p = x.syn_alloc(Math.max(1, data.length) * T.BYTES_PER_ELEMENT);
    new T(x.memory.buffer, p, data.length).set(data); return p; }; // copy into core memory
  const run = (T, len, call) => { // allocate the output, call, copy out (view made after the call), free
    const p = x.syn_alloc(Math.max(1, len) * T.BYTES_PER_ELEMENT);
    try { const r = ok(call(p)); return { r, out: T.from(new T(x.memory.buffer, p, len)) }; } finally { x.syn_free(p); }
  };
  const ALL = 0xffffffff; // every relation bit; "no depth limit"
  return {
    graph(n, src, dst) {
      const s = put(Uint32Array, src), d = put(Uint32Array, dst);
      const h = ok(x.syn_graph_build(n, src.length, s, d, 0, 0)); // no relation bytes, no weights
      x.syn_free(s); x.syn_free(d);
      return {
        bfs: (source) => run(Int32Array, n, (out) => { const sp = put(Uint32Array, [source]);
          try { return x.syn_bfs(h, sp, 1, ALL, ALL, 0, out); } finally { x.syn_free(sp); } }).out,
        pagerank: (iterations, tolerance = 0) => run(Float64Array, n, (out) => x.syn_pagerank(h, 0.85, iterations, tolerance, ALL, 0, out)).out,
        components: (strong) => { const { r, out } = run(Uint32Array, n, (o) => x.syn_components(h, strong ? 1 : 0, ALL, o)); return { count: r, label: out }; },
        free: () => ok(x.syn_graph_free(h)),
      };
    },
  };
}
