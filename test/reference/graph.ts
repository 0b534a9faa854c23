/**
 * Obviously-correct graph kernels in plain TypeScript: the oracles for the WASM core's property
 * tests (small graphs only: quadratic algorithms are fine). Edge lists, not CSR.
 */

export interface EdgeList {
  n: number;
  /** [src, dst, rel] per edge, in input order. */
  edges: [number, number, number][];
  /** Optional weight per edge. */
  weight?: number[];
}

export type Dir = 'out' | 'in' | 'both';

const has = (mask: number, rel: number) => ((mask >>> rel) & 1) === 1;

/** Neighbours of u in direction `dir`, following only edges in `mask` (duplicates kept). */
export function neighbours(g: EdgeList, u: number, dir: Dir, mask: number): number[] {
  const out: number[] = [];
  for (const [a, b, r] of g.edges) {
    if (!has(mask, r)) continue;
    if (dir !== 'in' && a === u) out.push(b);
    if (dir !== 'out' && b === u) out.push(a);
  }
  return out;
}

/** Plain queue BFS. dist -1 = unreachable or beyond maxDepth. */
export function refBfs(g: EdgeList, sources: number[], dir: Dir = 'out', mask = 0xffffffff, maxDepth = Infinity): number[] {
  const dist = new Array<number>(g.n).fill(-1);
  const queue: number[] = [];
  for (const s of sources) if (dist[s] === -1) { dist[s] = 0; queue.push(s); }
  for (let i = 0; i < queue.length; i++) {
    const u = queue[i]!;
    if (dist[u]! >= maxDepth) continue;
    for (const v of neighbours(g, u, dir, mask)) {
      if (dist[v] === -1) { dist[v] = dist[u]! + 1; queue.push(v); }
    }
  }
  return dist;
}

/** Bellman-Ford style relaxation to a fixed point: distances along out-edges (weight 1 if none). */
export function refDijkstra(g: EdgeList, source: number, mask = 0xffffffff): number[] {
  const dist = new Array<number>(g.n).fill(Infinity);
  dist[source] = 0;
  for (let changed = true; changed; ) {
    changed = false;
    g.edges.forEach(([a, b, r], i) => {
      if (!has(mask, r)) return;
      const nd = dist[a]! + (g.weight ? g.weight[i]! : 1);
      if (nd < dist[b]!) { dist[b] = nd; changed = true; }
    });
  }
  return dist;
}

/**
 * Reverse k-hop walk with the core's documented order: seeds (deduplicated) first, then level by
 * level; within a level, frontier order, and per frontier node its in-edges in input order.
 */
export function refReverseReach(g: EdgeList, seeds: number[], k: number, mask = 0xffffffff): { nodes: number[]; depth: number[]; via: number[] } {
  const seen = new Set<number>();
  const nodes: number[] = [];
  const depth: number[] = [];
  const via: number[] = [];
  for (const s of seeds) if (!seen.has(s)) { seen.add(s); nodes.push(s); depth.push(0); via.push(255); }
  let head = 0;
  for (let level = 0; level < k && head < nodes.length; level++) {
    const end = nodes.length;
    for (let i = head; i < end; i++) {
      const v = nodes[i]!;
      for (const [a, b, r] of g.edges) {
        if (b !== v || !has(mask, r) || seen.has(a)) continue;
        seen.add(a); nodes.push(a); depth.push(level + 1); via.push(r);
      }
    }
    head = end;
  }
  return { nodes, depth, via };
}

/** Dense power iteration, straight from the formula in test/fixtures/graph-fixtures/README.md. */
export function refPagerank(g: EdgeList, opts: { alpha?: number; iterations: number; seeds?: number[]; mask?: number }): number[] {
  const { n } = g;
  const alpha = opts.alpha ?? 0.85;
  const mask = opts.mask ?? 0xffffffff;
  const edges = g.edges.filter(([, , r]) => has(mask, r));
  const outdeg = new Array<number>(n).fill(0);
  for (const [a] of edges) outdeg[a]!++;
  const p = new Array<number>(n).fill(opts.seeds ? 0 : 1 / n);
  if (opts.seeds) {
    const distinct = [...new Set(opts.seeds)];
    for (const s of distinct) p[s] = 1 / distinct.length;
  }
  let x = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < opts.iterations; it++) {
    let dangling = 0;
    for (let u = 0; u < n; u++) if (outdeg[u] === 0) dangling += x[u]!;
    const nx = p.map((pv) => (1 - alpha + alpha * dangling) * pv);
    for (const [a, b] of edges) nx[b]! += (alpha * x[a]!) / outdeg[a]!;
    x = nx;
  }
  return x;
}

export function refDegree(g: EdgeList, mask = 0xffffffff): { out: number[]; in: number[] } {
  const out = new Array<number>(g.n).fill(0);
  const inn = new Array<number>(g.n).fill(0);
  for (const [a, b, r] of g.edges) if (has(mask, r)) { out[a]!++; inn[b]!++; }
  return { out, in: inn };
}

/** Canonical labels from any "same component" relation: numbered by smallest member. */
function canonical(n: number, same: (a: number, b: number) => boolean): { count: number; label: number[] } {
  const label = new Array<number>(n).fill(-1);
  let count = 0;
  for (let v = 0; v < n; v++) {
    if (label[v] !== -1) continue;
    for (let w = v; w < n; w++) if (label[w] === -1 && same(v, w)) label[w] = count;
    count++;
  }
  return { count, label };
}

/** Weak components: mutual reachability ignoring direction. */
export function refWeak(g: EdgeList, mask = 0xffffffff): { count: number; label: number[] } {
  const reach = Array.from({ length: g.n }, (_, v) => refBfs(g, [v], 'both', mask));
  return canonical(g.n, (a, b) => reach[a]![b] !== -1);
}

/** Strong components: a reaches b and b reaches a. */
export function refStrong(g: EdgeList, mask = 0xffffffff): { count: number; label: number[] } {
  const reach = Array.from({ length: g.n }, (_, v) => refBfs(g, [v], 'out', mask));
  return canonical(g.n, (a, b) => reach[a]![b] !== -1 && reach[b]![a] !== -1);
}

/**
 * Checks a reverse-reach result against the reference walk without fixing the order inside a
 * level (the core may expand a level bottom-up, listing its nodes by id): same nodes with the same
 * depths, seeds first in given order, depths non-decreasing, and every `via` the relation of an
 * edge (in `mask`) from the node to a node one level closer. Returns the first violation, or null.
 */
export function reachViolation(
  edges: Iterable<readonly [number, number, number]>,
  seeds: number[],
  mask: number,
  ref: { nodes: number[]; depth: number[] },
  got: { nodes: ArrayLike<number>; depth: ArrayLike<number>; via: ArrayLike<number> },
): string | null {
  const refDepth = new Map<number, number>();
  ref.nodes.forEach((v, i) => refDepth.set(v, ref.depth[i]!));
  if (got.nodes.length !== ref.nodes.length) return `count ${got.nodes.length}, want ${ref.nodes.length}`;
  const out = new Map<number, [number, number][]>();
  for (const [a, b, r] of edges) if (((mask >>> r) & 1) === 1) (out.get(a) ?? out.set(a, []).get(a)!).push([b, r]);
  const distinctSeeds = [...new Set(seeds)];
  const seen = new Set<number>();
  for (let i = 0; i < got.nodes.length; i++) {
    const v = got.nodes[i]!;
    const d = got.depth[i]!;
    if (seen.has(v)) return `node ${v} listed twice`;
    seen.add(v);
    if (refDepth.get(v) !== d) return `node ${v} depth ${d}, want ${refDepth.get(v)}`;
    if (i < distinctSeeds.length) {
      if (v !== distinctSeeds[i] || got.via[i] !== 255) return `entry ${i} should be seed ${distinctSeeds[i]} with via 255`;
      continue;
    }
    if (d < got.depth[i - 1]!) return `depth decreases at entry ${i}`;
    const ok = (out.get(v) ?? []).some(([w, r]) => r === got.via[i] && refDepth.get(w) === d - 1);
    if (!ok) return `node ${v}: no edge with relation ${got.via[i]} to depth ${d - 1}`;
  }
  return null;
}
