// The plain-JS baseline: what a careful JavaScript developer would write for each
// kernel over an Int32Array CSR (no WebAssembly). The benchmarks run it beside the
// core so the core has to earn its keep; test/bench/baseline.test.ts checks it
// against test/fixtures/graph-fixtures so the comparison is against correct code.
//
// Conventions follow the fixtures' README: arcs src -> dst, parallel edges and
// self-loops kept (with multiplicity), canonical component labels, PageRank with
// dangling mass spread like the teleport vector.

export interface BaselineCsr {
  n: number;
  m: number;
  /** out-CSR: arcs of v are outDst[outOff[v] .. outOff[v+1]) */
  outOff: Int32Array;
  outDst: Int32Array;
  outRel: Uint8Array;
  /** in-CSR: arcs into v come from inSrc[inOff[v] .. inOff[v+1]) */
  inOff: Int32Array;
  inSrc: Int32Array;
  inRel: Uint8Array;
  outWeight?: Float64Array;
}

/**
 * CSR build by counting sort: out and in adjacency, one relation byte per arc, in
 * input order within each node. Cost O(n + m), two passes over the edge list per side.
 */
export function buildCsr(n: number, src: Uint32Array, dst: Uint32Array, rel?: Uint8Array, weight?: Float64Array): BaselineCsr {
  const m = src.length;
  if (dst.length !== m) throw new Error('Cannot build CSR: src and dst differ in length');
  const outOff = new Int32Array(n + 1);
  const inOff = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const s = src[e]!;
    const d = dst[e]!;
    if (s >= n || d >= n) throw new Error(`Cannot build CSR: edge ${e} (${s} -> ${d}) is out of range for n = ${n}`);
    outOff[s + 1]!++;
    inOff[d + 1]!++;
  }
  for (let v = 0; v < n; v++) {
    outOff[v + 1]! += outOff[v]!;
    inOff[v + 1]! += inOff[v]!;
  }
  const outDst = new Int32Array(m);
  const inSrc = new Int32Array(m);
  const outRel = new Uint8Array(m);
  const inRel = new Uint8Array(m);
  const outPos = outOff.slice(0, n);
  const inPos = inOff.slice(0, n);
  const outWeight = weight ? new Float64Array(m) : undefined;
  for (let e = 0; e < m; e++) {
    const s = src[e]!;
    const d = dst[e]!;
    const r = rel ? rel[e]! : 0;
    const po = outPos[s]!++;
    outDst[po] = d;
    outRel[po] = r;
    if (outWeight) outWeight[po] = weight![e]!;
    const pi = inPos[d]!++;
    inSrc[pi] = s;
    inRel[pi] = r;
  }
  const g: BaselineCsr = { n, m, outOff, outDst, outRel, inOff, inSrc, inRel };
  if (outWeight) g.outWeight = outWeight;
  return g;
}

/** Top-down level-synchronous BFS along out-arcs. dist[v] = hops, -1 = unreachable (or beyond maxDepth). */
export function bfs(g: BaselineCsr, source: number, maxDepth = 0x7fffffff): Int32Array {
  const { n, outOff, outDst } = g;
  const dist = new Int32Array(n).fill(-1);
  if (source < 0 || source >= n) throw new Error(`Cannot run BFS: source ${source} is out of range for n = ${n}`);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  queue[tail++] = source;
  dist[source] = 0;
  while (head < tail) {
    const u = queue[head++]!;
    const du = dist[u]!;
    if (du >= maxDepth) continue;
    const end = outOff[u + 1]!;
    for (let i = outOff[u]!; i < end; i++) {
      const v = outDst[i]!;
      if (dist[v] === -1) {
        dist[v] = du + 1;
        queue[tail++] = v;
      }
    }
  }
  return dist;
}

export interface ReachResult {
  /** Reached nodes: seeds first, then level by level. */
  nodes: Uint32Array;
  /** Hop count of each entry of `nodes`. */
  depth: Uint8Array;
  /** Relation of the arc each node was first reached through; 255 for seeds. */
  via: Uint8Array;
}

/**
 * Reverse k-hop reachability: every node with a path of at most k arcs (whose relation
 * bit is in relMask) to one of the seeds. BFS over the in-CSR.
 */
export function reverseReach(g: BaselineCsr, seeds: ArrayLike<number>, k: number, relMask = 0xffffffff): ReachResult {
  const { n, inOff, inSrc, inRel } = g;
  const depth = new Uint8Array(n).fill(255);
  const via = new Uint8Array(n).fill(255);
  const queue = new Int32Array(n);
  let tail = 0;
  for (let i = 0; i < seeds.length; i++) {
    const s = seeds[i]!;
    if (s < 0 || s >= n) throw new Error(`Cannot run reverse reach: seed ${s} is out of range for n = ${n}`);
    if (depth[s] !== 255) continue;
    depth[s] = 0;
    queue[tail++] = s;
  }
  let head = 0;
  while (head < tail) {
    const u = queue[head++]!;
    const du = depth[u]!;
    if (du >= k) continue;
    const end = inOff[u + 1]!;
    for (let i = inOff[u]!; i < end; i++) {
      const r = inRel[i]!;
      if (((relMask >>> r) & 1) === 0) continue;
      const v = inSrc[i]!;
      if (depth[v] === 255) {
        depth[v] = du + 1;
        via[v] = r;
        queue[tail++] = v;
      }
    }
  }
  const nodes = new Uint32Array(tail);
  const d = new Uint8Array(tail);
  const w = new Uint8Array(tail);
  for (let i = 0; i < tail; i++) {
    const v = queue[i]!;
    nodes[i] = v;
    d[i] = depth[v]!;
    w[i] = via[v]!;
  }
  return { nodes, depth: d, via: w };
}

/**
 * Weakly connected components by union-find (link the larger root under the smaller,
 * path halving). Labels are canonical: numbered 0, 1, 2... by smallest node id.
 */
export function weakComponents(g: BaselineCsr): { count: number; label: Uint32Array } {
  const { n, outOff, outDst } = g;
  const parent = new Int32Array(n);
  for (let v = 0; v < n; v++) parent[v] = v;
  for (let u = 0; u < n; u++) {
    const end = outOff[u + 1]!;
    for (let i = outOff[u]!; i < end; i++) {
      let a = u;
      let b = outDst[i]!;
      while (parent[a] !== a) {
        const p = parent[parent[a]!]!;
        parent[a] = p;
        a = p;
      }
      while (parent[b] !== b) {
        const p = parent[parent[b]!]!;
        parent[b] = p;
        b = p;
      }
      if (a < b) parent[b] = a;
      else if (b < a) parent[a] = b;
    }
  }
  // Each root is the smallest id of its component, so a left-to-right scan meets roots in canonical order.
  const label = new Uint32Array(n);
  let count = 0;
  for (let v = 0; v < n; v++) {
    const p = parent[v]!;
    if (p === v) label[v] = count++;
    else label[v] = label[parent[p]!]!; // parent of p is already a root after the scan below
    parent[v] = p === v ? v : parent[p]!;
  }
  return { count, label };
}

export interface PagerankOptions {
  alpha?: number;
  iterations?: number;
  /** Stop early when the L1 change of one iteration is below this (0 = run all iterations). */
  tolerance?: number;
}

/**
 * PageRank by pull-style power iteration over the in-CSR, from x = 1/n. Dangling
 * mass is spread uniformly, parallel arcs count with multiplicity. Returns x (sums to 1).
 */
export function pagerank(g: BaselineCsr, opts: PagerankOptions = {}): Float64Array {
  const { n, outOff, inOff, inSrc } = g;
  const alpha = opts.alpha ?? 0.85;
  const iterations = opts.iterations ?? 20;
  const tolerance = opts.tolerance ?? 0;
  let x = new Float64Array(n);
  if (n === 0) return x;
  x.fill(1 / n);
  let next = new Float64Array(n);
  const contrib = new Float64Array(n);
  const invDeg = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const d = outOff[v + 1]! - outOff[v]!;
    invDeg[v] = d > 0 ? 1 / d : 0;
  }
  for (let it = 0; it < iterations; it++) {
    let dangling = 0;
    for (let u = 0; u < n; u++) {
      const xu = x[u]!;
      if (invDeg[u] === 0) dangling += xu;
      contrib[u] = xu * invDeg[u]!;
    }
    const base = (1 - alpha + alpha * dangling) / n;
    let delta = 0;
    for (let v = 0; v < n; v++) {
      let sum = 0;
      const end = inOff[v + 1]!;
      for (let i = inOff[v]!; i < end; i++) sum += contrib[inSrc[i]!]!;
      const nv = alpha * sum + base;
      delta += Math.abs(nv - x[v]!);
      next[v] = nv;
    }
    const t = x;
    x = next;
    next = t;
    if (tolerance > 0 && delta < tolerance) break;
  }
  return x;
}

/** Out- and in-degree with multiplicity. */
export function degree(g: BaselineCsr): { out: Uint32Array; in: Uint32Array } {
  const out = new Uint32Array(g.n);
  const inn = new Uint32Array(g.n);
  for (let v = 0; v < g.n; v++) {
    out[v] = g.outOff[v + 1]! - g.outOff[v]!;
    inn[v] = g.inOff[v + 1]! - g.inOff[v]!;
  }
  return { out, in: inn };
}

// ---------------------------------------------------------------------------
// Communities: Louvain on the undirected simple graph (direction ignored, parallel
// and reciprocal arcs collapsed into one edge of weight 1, self-loops dropped) --
// the graph on which the fixtures define `undirectedSimple` modularity.

/** Weighted symmetric adjacency; loop[v] is the weight of v's self-loop (from aggregation). */
interface WGraph {
  n: number;
  off: Int32Array;
  adj: Int32Array;
  w: Float64Array;
  loop: Float64Array;
}

/** The undirected simple graph of a CSR, as symmetric adjacency with unit weights. */
export function undirectedSimple(g: BaselineCsr): { off: Int32Array; adj: Int32Array } {
  const { n, outOff, outDst, inOff, inSrc } = g;
  const mark = new Int32Array(n).fill(-1);
  const off = new Int32Array(n + 1);
  // Pass 1: count distinct neighbours; pass 2: fill.
  for (let pass = 0; pass < 2; pass++) {
    mark.fill(-1);
    const adj = pass === 1 ? new Int32Array(off[n]!) : null;
    for (let v = 0; v < n; v++) {
      mark[v] = v; // drops self-loops
      let c = pass === 1 ? off[v]! : 0;
      for (let i = outOff[v]!, end = outOff[v + 1]!; i < end; i++) {
        const u = outDst[i]!;
        if (mark[u] !== v) {
          mark[u] = v;
          if (adj) adj[c] = u;
          c++;
        }
      }
      for (let i = inOff[v]!, end = inOff[v + 1]!; i < end; i++) {
        const u = inSrc[i]!;
        if (mark[u] !== v) {
          mark[u] = v;
          if (adj) adj[c] = u;
          c++;
        }
      }
      if (pass === 0) off[v + 1] = c;
    }
    if (pass === 0) {
      for (let v = 0; v < n; v++) off[v + 1]! += off[v]!;
    } else {
      return { off, adj: adj! };
    }
  }
  throw new Error('unreachable');
}

/**
 * Newman modularity (resolution gamma) of a membership on the undirected simple graph
 * of `g`. null when that graph has no edges.
 */
export function modularity(g: BaselineCsr, membership: ArrayLike<number>, resolution = 1): number | null {
  const { off, adj } = undirectedSimple(g);
  const twoM = adj.length;
  if (twoM === 0) return null;
  let maxC = 0;
  for (let v = 0; v < g.n; v++) maxC = Math.max(maxC, membership[v]!);
  const inner = new Float64Array(maxC + 1);
  const tot = new Float64Array(maxC + 1);
  for (let v = 0; v < g.n; v++) {
    const cv = membership[v]!;
    tot[cv]! += off[v + 1]! - off[v]!;
    for (let i = off[v]!; i < off[v + 1]!; i++) if (membership[adj[i]!] === cv) inner[cv]! += 1;
  }
  let q = 0;
  for (let c = 0; c <= maxC; c++) q += inner[c]! / twoM - resolution * (tot[c]! / twoM) ** 2;
  return q;
}

export interface LouvainResult {
  membership: Uint32Array;
  count: number;
  modularity: number;
}

/**
 * Louvain (Blondel et al. 2008) on the undirected simple graph of `g`: local moving in
 * node order until a pass improves modularity by less than `tolerance`, then aggregate
 * communities into nodes and repeat until nothing moves. Deterministic.
 * Community labels are canonical (numbered by smallest node id).
 */
export function louvain(g: BaselineCsr, opts: { resolution?: number; tolerance?: number } = {}): LouvainResult {
  const resolution = opts.resolution ?? 1;
  const tolerance = opts.tolerance ?? 1e-7;
  const n0 = g.n;
  const simple = undirectedSimple(g);
  let wg: WGraph = {
    n: n0,
    off: simple.off,
    adj: simple.adj,
    w: new Float64Array(simple.adj.length).fill(1),
    loop: new Float64Array(n0),
  };
  const membership = new Uint32Array(n0);
  for (let v = 0; v < n0; v++) membership[v] = v;
  const twoM = simple.adj.length;
  if (twoM === 0) {
    const { labels, count } = canonical(membership); // no edges: every node alone
    return { membership: labels, count, modularity: 0 };
  }

  for (;;) {
    const comm = moveNodes(wg, resolution, tolerance, twoM);
    // Renumber communities 0..C-1.
    const remap = new Int32Array(wg.n).fill(-1);
    let c = 0;
    for (let v = 0; v < wg.n; v++) {
      const cv = comm[v]!;
      if (remap[cv] === -1) remap[cv] = c++;
    }
    for (let v = 0; v < wg.n; v++) comm[v] = remap[comm[v]!]!;
    for (let v = 0; v < n0; v++) membership[v] = comm[membership[v]!]!;
    if (c === wg.n) break; // nothing merged at this level
    wg = aggregate(wg, comm, c);
  }
  const { labels, count } = canonical(membership);
  const q = modularityOfWGraphPartition(simple.off, simple.adj, labels, count, resolution);
  return { membership: labels, count, modularity: q };
}

function moveNodes(g: WGraph, resolution: number, tolerance: number, twoM: number): Int32Array {
  const { n, off, adj, w, loop } = g;
  const comm = new Int32Array(n);
  const k = new Float64Array(n);
  const tot = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    comm[v] = v;
    let d = 2 * loop[v]!;
    for (let i = off[v]!; i < off[v + 1]!; i++) d += w[i]!;
    k[v] = d;
    tot[v] = d;
  }
  const neighW = new Float64Array(n);
  const touched = new Int32Array(n);
  const scale = resolution / twoM;
  for (;;) {
    let gain = 0;
    for (let v = 0; v < n; v++) {
      const cv = comm[v]!;
      const kv = k[v]!;
      let nt = 0;
      neighW[cv] = 0;
      touched[nt++] = cv;
      for (let i = off[v]!, end = off[v + 1]!; i < end; i++) {
        const u = adj[i]!;
        const cu = comm[u]!;
        if (neighW[cu] === 0 && cu !== cv) touched[nt++] = cu;
        neighW[cu]! += w[i]!;
      }
      tot[cv]! -= kv;
      const stay = neighW[cv]! - tot[cv]! * kv * scale;
      let best = cv;
      let bestGain = stay;
      for (let j = 0; j < nt; j++) {
        const c = touched[j]!;
        const gc = neighW[c]! - tot[c]! * kv * scale;
        if (gc > bestGain) {
          bestGain = gc;
          best = c;
        }
        neighW[c] = 0;
      }
      tot[best]! += kv;
      if (best !== cv) {
        comm[v] = best;
        gain += (bestGain - stay) * 2 / twoM;
      }
    }
    if (gain <= tolerance) break;
  }
  return comm;
}

function aggregate(g: WGraph, comm: Int32Array, c: number): WGraph {
  const { n, off, adj, w, loop } = g;
  // Members grouped by community (counting sort).
  const start = new Int32Array(c + 1);
  for (let v = 0; v < n; v++) start[comm[v]! + 1]!++;
  for (let i = 0; i < c; i++) start[i + 1]! += start[i]!;
  const pos = start.slice(0, c);
  const members = new Int32Array(n);
  for (let v = 0; v < n; v++) members[pos[comm[v]!]!++] = v;

  const acc = new Float64Array(c);
  const touched = new Int32Array(c);
  const newOff = new Int32Array(c + 1);
  const newLoop = new Float64Array(c);
  let adjOut = new Int32Array(Math.min(adj.length, 1024));
  let wOut = new Float64Array(adjOut.length);
  let e = 0;
  for (let cc = 0; cc < c; cc++) {
    let nt = 0;
    let self = 0;
    for (let j = start[cc]!; j < start[cc + 1]!; j++) {
      const v = members[j]!;
      self += loop[v]!;
      for (let i = off[v]!, end = off[v + 1]!; i < end; i++) {
        const cu = comm[adj[i]!]!;
        if (cu === cc) {
          self += w[i]! / 2; // each internal edge is seen from both ends
          continue;
        }
        if (acc[cu] === 0) touched[nt++] = cu;
        acc[cu]! += w[i]!;
      }
    }
    newLoop[cc] = self;
    if (e + nt > adjOut.length) {
      const cap = Math.max(e + nt, adjOut.length * 2);
      const a2 = new Int32Array(cap);
      a2.set(adjOut.subarray(0, e));
      adjOut = a2;
      const w2 = new Float64Array(cap);
      w2.set(wOut.subarray(0, e));
      wOut = w2;
    }
    for (let j = 0; j < nt; j++) {
      const cu = touched[j]!;
      adjOut[e] = cu;
      wOut[e] = acc[cu]!;
      e++;
      acc[cu] = 0;
    }
    newOff[cc + 1] = e;
  }
  return { n: c, off: newOff, adj: adjOut.subarray(0, e), w: wOut.subarray(0, e), loop: newLoop };
}

function modularityOfWGraphPartition(off: Int32Array, adj: Int32Array, membership: Uint32Array, count: number, resolution: number): number {
  const twoM = adj.length;
  const inner = new Float64Array(count);
  const tot = new Float64Array(count);
  const n = off.length - 1;
  for (let v = 0; v < n; v++) {
    const cv = membership[v]!;
    tot[cv]! += off[v + 1]! - off[v]!;
    for (let i = off[v]!; i < off[v + 1]!; i++) if (membership[adj[i]!] === cv) inner[cv]! += 1;
  }
  let q = 0;
  for (let c = 0; c < count; c++) q += inner[c]! / twoM - resolution * (tot[c]! / twoM) ** 2;
  return q;
}

/** Relabel so labels are 0, 1, 2... in order of each label's smallest node id. */
export function canonical(labels: ArrayLike<number>): { labels: Uint32Array; count: number } {
  const n = labels.length;
  const map = new Map<number, number>();
  const out = new Uint32Array(n);
  for (let v = 0; v < n; v++) {
    const l = labels[v]!;
    let c = map.get(l);
    if (c === undefined) {
      c = map.size;
      map.set(l, c);
    }
    out[v] = c;
  }
  return { labels: out, count: map.size };
}
