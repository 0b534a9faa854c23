// One adjacency or two (issue 15.6): GraphIndex keeps an edge-id CSR (outOff/outEdges, inOff/inEdges:
// the slot holds the edge id, so a walk reads the edge's relation, confidence, line and site file)
// beside the WASM core's CSR (slot holds the neighbour and relation; in linear memory, per load).
// This prints what each costs in bytes on a real graph and how fast a walk runs on each layout:
//   js edge-id CSR     reverse 3-hop reach in TypeScript over GraphIndex's arrays (inEdges -> src[e], rel[e])
//   js target CSR      the same walk over the core's layout built in JS (inSrc / inRel per slot)
//   core reverseReach  the core's walk through the ABI (what `affected` calls), copy-out included
// Rounds are interleaved; min and median per walk. Usage:
//   node --expose-gc --import tsx bench/adjacency.bench.ts <graph.json> [seeds=200] [rounds=15]
import { loadGraph } from '../src/graph/load.node.ts';
import { Core } from '../src/core/index.ts';
import { buildEngine } from '../src/mcp/live-graph.ts';
import { coreTraversal } from '../src/query/core-traversal.ts';

const path = process.argv[2];
if (!path) throw new Error('Cannot run the adjacency bench: give a graph.json path');
const seedsN = Number(process.argv[3] ?? 200);
const rounds = Number(process.argv[4] ?? 15);
const core = await Core.load();
const gc = (globalThis as { gc?: () => void }).gc;
const engine = buildEngine(await loadGraph(path), coreTraversal(core));
const ix = engine.ix;
const { n, m } = ix;
const g = ix.g;

// Bytes.
const jsCsr = ix.outOff.byteLength + ix.outEdges.byteLength + ix.inOff.byteLength + ix.inEdges.byteLength;
const columns = g.src.byteLength + g.dst.byteLength + g.rel.byteLength;
gc?.();
const wasmBefore = core.memoryBytes();
const coreGraph = core.graph({ n, src: g.src, dst: g.dst, rel: g.rel });
const coreBytes = coreGraph.bytes();
const wasmGrowth = core.memoryBytes() - wasmBefore;

// The core's layout in JS: per in-slot the source node and relation.
const inSrc = new Uint32Array(m);
const inRel = new Uint8Array(m);
for (let i = 0; i < m; i++) {
  const e = ix.inEdges[i]!;
  inSrc[i] = g.src[e]!;
  inRel[i] = g.rel[e]!;
}

const seeds: number[] = [];
let s = 12345;
for (let i = 0; i < seedsN; i++) {
  s = (Math.imul(s, 1103515245) + 12345) >>> 0;
  seeds.push(s % n);
}
const K = 3;
const MASK = 0xffffffff;
const depth = new Uint8Array(n);
const seen = new Uint32Array(n);
let stamp = 0;
const queue = new Uint32Array(n);

/** Reverse BFS to depth K from one seed; `edgeIds` reads the edge-id CSR, else the target CSR. */
function walk(seed: number, edgeIds: boolean): number {
  stamp++;
  let head = 0;
  let tail = 0;
  queue[tail++] = seed;
  seen[seed] = stamp;
  depth[seed] = 0;
  const off = ix.inOff;
  while (head < tail) {
    const v = queue[head++]!;
    const d = depth[v]!;
    if (d === K) continue;
    for (let i = off[v]!, end = off[v + 1]!; i < end; i++) {
      let u: number;
      let r: number;
      if (edgeIds) {
        const e = ix.inEdges[i]!;
        u = g.src[e]!;
        r = g.rel[e]!;
      } else {
        u = inSrc[i]!;
        r = inRel[i]!;
      }
      if (!((MASK >>> r) & 1) || seen[u] === stamp) continue;
      seen[u] = stamp;
      depth[u] = d + 1;
      queue[tail++] = u;
    }
  }
  return tail - 1;
}

const walks: Record<string, () => number> = {
  'js edge-id CSR': () => seeds.reduce((a, v) => a + walk(v, true), 0),
  'js target CSR': () => seeds.reduce((a, v) => a + walk(v, false), 0),
  'core reverseReach': () => seeds.reduce((a, v) => a + coreGraph.reverseReach(Uint32Array.of(v), { k: K, relMask: MASK }).nodes.length - 1, 0),
};
const times = new Map<string, number[]>(Object.keys(walks).map((k) => [k, []]));
const reached = new Map<string, number>();
for (let r = 0; r < rounds + 1; r++) {
  for (const [name, run] of Object.entries(walks)) {
    const t0 = performance.now();
    const count = run();
    const ms = performance.now() - t0;
    if (r > 0) times.get(name)!.push(ms); // round 0 warms the JIT and the core's tiers up
    reached.set(name, count);
  }
}
const counts = new Set(reached.values());
if (counts.size !== 1) throw new Error(`The walks disagree on the nodes reached: ${JSON.stringify([...reached])}`);
console.log(`${path}: ${n} nodes, ${m} edges; ${seedsN} seeds, reverse reach depth ${K} (${[...counts][0]} nodes reached in all), ${rounds} rounds`);
console.log(`bytes: js edge-id CSR ${jsCsr} (${(jsCsr / 1e6).toFixed(2)} MB); core CSR ${coreBytes} (${(coreBytes / 1e6).toFixed(2)} MB; linear memory grew ${(wasmGrowth / 1e6).toFixed(2)} MB); js edge columns src/dst/rel ${(columns / 1e6).toFixed(2)} MB; process RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
for (const [name, xs] of times) {
  xs.sort((a, b) => a - b);
  console.log(`${name.padEnd(18)} min ${xs[0]!.toFixed(2)} ms  median ${xs[xs.length >> 1]!.toFixed(2)} ms  (${((xs[xs.length >> 1]! * 1000) / seedsN).toFixed(1)} us per seed)`);
}
coreGraph.free();
