/**
 * Obviously-correct references for the community and centrality kernels: the undirected simple
 * view, Newman modularity (networkx's formula), connectivity of communities, Brandes betweenness
 * (networkx's formulation, with predecessor lists) and the core's seeded PRNG. Small graphs only.
 */
import type { EdgeList } from './graph.ts';

const has = (mask: number, rel: number) => ((mask >>> rel) & 1) === 1;

/** Undirected simple view: neighbour sets (direction ignored, duplicates collapsed, no self-loops). */
export function refUndirectedSimple(g: EdgeList, mask = 0xffffffff): Set<number>[] {
  const adj = Array.from({ length: g.n }, () => new Set<number>());
  for (const [a, b, r] of g.edges) {
    if (!has(mask, r) || a === b) continue;
    adj[a]!.add(b);
    adj[b]!.add(a);
  }
  return adj;
}

/**
 * networkx `modularity(G, communities, resolution)` on the undirected simple view:
 * sum over communities of L_c / m - gamma * (d_c / 2m)^2; NaN when there is no edge.
 */
export function refModularity(g: EdgeList, membership: ArrayLike<number>, mask = 0xffffffff, gamma = 1): number {
  const adj = refUndirectedSimple(g, mask);
  let twoM = 0;
  for (const s of adj) twoM += s.size;
  if (twoM === 0) return NaN;
  const m = twoM / 2;
  const inner = new Map<number, number>();
  const deg = new Map<number, number>();
  for (let u = 0; u < g.n; u++) {
    const c = membership[u]!;
    deg.set(c, (deg.get(c) ?? 0) + adj[u]!.size);
    for (const v of adj[u]!) if (v > u && membership[v] === c) inner.set(c, (inner.get(c) ?? 0) + 1);
  }
  let q = 0;
  for (const [c, d] of deg) q += (inner.get(c) ?? 0) / m - (gamma * d * d) / (twoM * twoM);
  return q;
}

/** The singleton partition's modularity (every node alone). */
export function refSingletonModularity(g: EdgeList, mask = 0xffffffff): number {
  return refModularity(g, Array.from({ length: g.n }, (_, i) => i), mask);
}

/** Communities (by label) whose members do not induce a connected subgraph of the simple view. */
export function refDisconnectedCommunities(g: EdgeList, membership: ArrayLike<number>, mask = 0xffffffff): number[] {
  const adj = refUndirectedSimple(g, mask);
  const seen = new Set<number>();
  const bad: number[] = [];
  const visited = new Uint8Array(g.n);
  for (let s = 0; s < g.n; s++) {
    const c = membership[s]!;
    if (seen.has(c)) {
      if (!visited[s] && !bad.includes(c)) bad.push(c);
      continue;
    }
    seen.add(c);
    // flood fill inside the community from its first node
    const stack = [s];
    visited[s] = 1;
    while (stack.length > 0) {
      const u = stack.pop()!;
      for (const v of adj[u]!) if (!visited[v] && membership[v] === c) { visited[v] = 1; stack.push(v); }
    }
  }
  return bad;
}

/** True when labels are 0..count-1 numbered in order of their smallest node id. */
export function isCanonical(membership: ArrayLike<number>): { ok: boolean; count: number } {
  let next = 0;
  for (let i = 0; i < membership.length; i++) {
    const c = membership[i]!;
    if (c === next) next++;
    else if (c > next) return { ok: false, count: next };
  }
  return { ok: true, count: next };
}

/** The core's PRNG (assembly/rng.ts): SplitMix64, with the same derived draws. */
export class RefRng {
  #state: bigint;
  constructor(seed: number) {
    this.#state = BigInt(seed);
  }
  next(): bigint {
    const M = (1n << 64n) - 1n;
    this.#state = (this.#state + 0x9e3779b97f4a7c15n) & M;
    let z = this.#state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  }
  /** Integer in [0, bound). */
  below(bound: number): number {
    return Number(((this.next() >> 32n) * BigInt(bound)) >> 32n);
  }
}

/** Pivots of a sampled betweenness run: the first k of a seeded partial Fisher-Yates shuffle. */
export function refPivots(n: number, k: number, seed: number): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  const rng = new RefRng(seed);
  for (let i = 0; i < k; i++) {
    const j = i + rng.below(n - i);
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p.slice(0, k);
}

/**
 * networkx `betweenness_centrality(G, k, normalized, endpoints=False)` on the DiGraph of the arcs in
 * `mask` (parallel arcs collapsed, self-loops ignored). `samples` 0 or >= n: exact; else the pivots
 * of refPivots(n, samples, seed) and networkx 3.x's `_rescale` for sampled sources.
 */
export function refBetweenness(g: EdgeList, opts: { mask?: number; samples?: number; seed?: number; normalized?: boolean } = {}): number[] {
  const n = g.n;
  const mask = opts.mask ?? 0xffffffff;
  const succ = Array.from({ length: n }, () => new Set<number>());
  for (const [a, b, r] of g.edges) if (has(mask, r) && a !== b) succ[a]!.add(b);
  const samples = opts.samples ?? 0;
  const sampled = samples > 0 && samples < n;
  const sources = sampled ? refPivots(n, samples, opts.seed ?? 1) : Array.from({ length: n }, (_, i) => i);
  const bc = new Array<number>(n).fill(0);
  for (const s of sources) {
    const S: number[] = [];
    const P = Array.from({ length: n }, () => [] as number[]);
    const sigma = new Array<number>(n).fill(0);
    const dist = new Array<number>(n).fill(-1);
    sigma[s] = 1;
    dist[s] = 0;
    const Q = [s];
    for (let i = 0; i < Q.length; i++) {
      const v = Q[i]!;
      S.push(v);
      for (const w of succ[v]!) {
        if (dist[w]! < 0) { Q.push(w); dist[w] = dist[v]! + 1; }
        if (dist[w] === dist[v]! + 1) { sigma[w]! += sigma[v]!; P[w]!.push(v); }
      }
    }
    const delta = new Array<number>(n).fill(0);
    while (S.length > 0) {
      const w = S.pop()!;
      const coeff = (1 + delta[w]!) / sigma[w]!;
      for (const v of P[w]!) delta[v]! += sigma[v]! * coeff;
      if (w !== s) bc[w]! += delta[w]!;
    }
  }
  const N = n - 1;
  if (N < 2) return bc;
  const normalized = opts.normalized ?? true;
  const k = sources.length;
  const inSample = new Set(sources);
  for (let v = 0; v < n; v++) {
    let scale: number;
    if (!sampled) scale = normalized ? 1 / (N * (N - 1)) : 1;
    else if (inSample.has(v)) scale = k > 1 ? (normalized ? 1 / ((k - 1) * (N - 1)) : N / (k - 1)) : 0;
    else scale = normalized ? 1 / (k * (N - 1)) : N / k;
    bc[v]! *= scale;
  }
  return bc;
}
