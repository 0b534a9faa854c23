/**
 * Plain TypeScript Louvain (Blondel et al. 2008, "Fast unfolding of communities in large networks",
 * local moving + aggregation) and sampled Brandes betweenness (Brandes 2001): once the fallbacks of
 * src/graph/communities.ts, now only references the WASM core's Leiden and betweenness are checked
 * against (production always uses the core).
 */

/** Undirected weighted graph: edge i joins a[i] and b[i]. */
export interface UndirectedInput {
  n: number;
  a: Uint32Array;
  b: Uint32Array;
  weight?: Float64Array;
}

/** A small seeded PRNG (mulberry32), so results repeat for a seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Adjacency {
  offsets: Uint32Array;
  targets: Uint32Array;
  weights: Float64Array;
  /** Weighted degree (self-loops counted twice). */
  degree: Float64Array;
  total: number; // sum of degree = 2m
}

function adjacency(n: number, a: ArrayLike<number>, b: ArrayLike<number>, w: ArrayLike<number> | null): Adjacency {
  const count = new Uint32Array(n + 1);
  for (let i = 0; i < a.length; i++) {
    count[a[i]! + 1]!++;
    if (a[i] !== b[i]) count[b[i]! + 1]!++;
  }
  for (let i = 0; i < n; i++) count[i + 1]! += count[i]!;
  const offsets = Uint32Array.from(count);
  const fill = Uint32Array.from(count);
  const targets = new Uint32Array(offsets[n]!);
  const weights = new Float64Array(offsets[n]!);
  const degree = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const wt = w ? w[i]! : 1;
    targets[fill[x]!] = y;
    weights[fill[x]!++] = wt;
    if (x !== y) {
      targets[fill[y]!] = x;
      weights[fill[y]!++] = wt;
    }
    degree[x]! += wt;
    degree[y]! += wt;
    total += 2 * wt;
  }
  return { offsets, targets, weights, degree, total };
}

/** One Louvain level: local moving until stable; returns the community of each node and whether any moved. */
function localMoving(adj: Adjacency, n: number, random: () => number): { comm: Int32Array; moved: boolean } {
  const comm = new Int32Array(n);
  const tot = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    comm[i] = i;
    tot[i] = adj.degree[i]!;
  }
  if (adj.total === 0) return { comm, moved: false };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const linkWeight = new Float64Array(n);
  const touched: number[] = [];
  let moved = false;
  for (let pass = 0; pass < 32; pass++) {
    let moves = 0;
    for (const v of order) {
      const cv = comm[v]!;
      const kv = adj.degree[v]!;
      for (let e = adj.offsets[v]!; e < adj.offsets[v + 1]!; e++) {
        const u = adj.targets[e]!;
        if (u === v) continue;
        const cu = comm[u]!;
        if (linkWeight[cu] === 0) touched.push(cu);
        linkWeight[cu]! += adj.weights[e]!;
      }
      tot[cv]! -= kv;
      let best = cv;
      let bestGain = linkWeight[cv]! - (tot[cv]! * kv) / adj.total;
      for (const c of touched) {
        const gain = linkWeight[c]! - (tot[c]! * kv) / adj.total;
        if (gain > bestGain + 1e-12 || (Math.abs(gain - bestGain) <= 1e-12 && c < best)) {
          bestGain = gain;
          best = c;
        }
      }
      tot[best]! += kv;
      if (best !== cv) {
        comm[v] = best;
        moves++;
      }
      for (const c of touched) linkWeight[c] = 0;
      touched.length = 0;
    }
    if (moves === 0) break;
    moved = true;
  }
  return { comm, moved };
}

/** Louvain in TypeScript: community per node, numbered densely (unordered). */
export function louvain(input: UndirectedInput, seed = 42): Int32Array {
  const random = rng(seed);
  let n = input.n;
  let a: ArrayLike<number> = input.a;
  let b: ArrayLike<number> = input.b;
  let w: ArrayLike<number> | null = input.weight ?? null;
  const membership = new Int32Array(input.n);
  for (let i = 0; i < input.n; i++) membership[i] = i;
  for (let level = 0; level < 20; level++) {
    const adj = adjacency(n, a, b, w);
    const { comm, moved } = localMoving(adj, n, random);
    if (!moved) break;
    // Renumber densely and aggregate.
    const dense = new Int32Array(n).fill(-1);
    let k = 0;
    for (let i = 0; i < n; i++) if (dense[comm[i]!] === -1) dense[comm[i]!] = k++;
    for (let i = 0; i < input.n; i++) membership[i] = dense[comm[membership[i]!]!]!;
    const merged = new Map<number, number>();
    for (let i = 0; i < a.length; i++) {
      let x = dense[comm[a[i]!]!]!;
      let y = dense[comm[b[i]!]!]!;
      if (x > y) [x, y] = [y, x];
      const key = x * k + y;
      merged.set(key, (merged.get(key) ?? 0) + (w ? w[i]! : 1));
    }
    const keys = [...merged.keys()].sort((p, q) => p - q);
    const na = new Uint32Array(keys.length);
    const nb = new Uint32Array(keys.length);
    const nw = new Float64Array(keys.length);
    keys.forEach((key, i) => {
      na[i] = Math.floor(key / k);
      nb[i] = key % k;
      nw[i] = merged.get(key)!;
    });
    n = k;
    a = na;
    b = nb;
    w = nw;
  }
  return membership;
}


/**
 * Approximate node betweenness (Brandes 2001, "A faster algorithm for betweenness centrality"),
 * undirected and unweighted, from up to `samples` evenly spaced sources, scaled to the full count.
 */
export function approximateBetweenness(input: UndirectedInput, samples = 128): Float64Array {
  const n = input.n;
  const adj = adjacency(n, input.a, input.b, null);
  const bc = new Float64Array(n);
  if (n === 0) return bc;
  const k = Math.min(n, samples);
  const step = n / k;
  const dist = new Int32Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const stack = new Uint32Array(n);
  const queue = new Uint32Array(n);
  for (let s = 0; s < k; s++) {
    const source = Math.floor(s * step);
    dist.fill(-1);
    sigma.fill(0);
    delta.fill(0);
    dist[source] = 0;
    sigma[source] = 1;
    let head = 0;
    let tail = 0;
    let top = 0;
    queue[tail++] = source;
    while (head < tail) {
      const v = queue[head++]!;
      stack[top++] = v;
      for (let e = adj.offsets[v]!; e < adj.offsets[v + 1]!; e++) {
        const w = adj.targets[e]!;
        if (dist[w] === -1) {
          dist[w] = dist[v]! + 1;
          queue[tail++] = w;
        }
        if (dist[w] === dist[v]! + 1) sigma[w]! += sigma[v]!;
      }
    }
    while (top > 0) {
      const w = stack[--top]!;
      for (let e = adj.offsets[w]!; e < adj.offsets[w + 1]!; e++) {
        const v = adj.targets[e]!;
        if (dist[v] === dist[w]! - 1) delta[v]! += (sigma[v]! / sigma[w]!) * (1 + delta[w]!);
      }
      if (w !== source) bc[w]! += delta[w]!;
    }
  }
  const scale = n / k / 2;
  for (let i = 0; i < n; i++) bc[i]! *= scale;
  return bc;
}
