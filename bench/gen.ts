// Seeded graph generators for the benchmarks: R-MAT (Graph500 parameters) and a
// planted-partition graph. Same seed -> same arrays, on every run and runtime.
// Output is a directed edge list as Uint32Array src/dst (ids 0..n-1); duplicates
// and self-loops are kept, as real code graphs and Graph500 both have them.

export interface EdgeList {
  n: number;
  src: Uint32Array;
  dst: Uint32Array;
  /** Optional integer weights 1..255, one per edge (when `weights: true`). */
  weight?: Float64Array;
}

export interface PlantedGraph extends EdgeList {
  /** Planted community of each node, 0..k-1. */
  membership: Uint32Array;
  k: number;
}

/**
 * Small, fast, seeded PRNG (SplitMix32-style mixer over a Weyl sequence).
 * Returns uint32 values; `next01()` a double in [0, 1).
 */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = (seed >>> 0) ^ 0x9e3779b9;
  }
  nextU32(): number {
    this.state = (this.state + 0x9e3779b9) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }
  next01(): number {
    return this.nextU32() / 4294967296;
  }
  /** Uniform integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.next01() * bound);
  }
}

export interface RmatOptions {
  /** log2 of the node count. */
  scale: number;
  /** Edges per node (Graph500 default 16; the issue uses 8). */
  edgeFactor: number;
  seed: number;
  /** Quadrant probabilities; d = 1 - a - b - c. Default Graph500: 0.57, 0.19, 0.19. */
  a?: number;
  b?: number;
  c?: number;
  /** Relabel nodes with a seeded random permutation, as Graph500 does (default true). */
  permute?: boolean;
  weights?: boolean;
}

/**
 * R-MAT (Chakrabarti, Zhan, Faloutsos 2004) with Graph500 parameters: each edge
 * picks one of four quadrants per bit of the node id. n = 2^scale, m = edgeFactor * n.
 */
export function rmat(opts: RmatOptions): EdgeList {
  const { scale, edgeFactor, seed } = opts;
  if (!Number.isInteger(scale) || scale < 0 || scale > 30) {
    throw new Error(`Cannot generate R-MAT: scale must be an integer in 0..30, got ${scale}`);
  }
  const a = opts.a ?? 0.57;
  const b = opts.b ?? 0.19;
  const c = opts.c ?? 0.19;
  if (a + b + c > 1 || a < 0 || b < 0 || c < 0) {
    throw new Error('Cannot generate R-MAT: a, b, c must be >= 0 with a + b + c <= 1');
  }
  const n = 2 ** scale;
  const m = Math.round(edgeFactor * n);
  const rng = new Rng(seed);
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  const ab = a + b;
  const abc = a + b + c;
  for (let e = 0; e < m; e++) {
    let u = 0;
    let v = 0;
    for (let bit = scale - 1; bit >= 0; bit--) {
      const r = rng.next01();
      if (r < a) {
        // top-left: nothing set
      } else if (r < ab) {
        v |= 1 << bit;
      } else if (r < abc) {
        u |= 1 << bit;
      } else {
        u |= 1 << bit;
        v |= 1 << bit;
      }
    }
    src[e] = u >>> 0;
    dst[e] = v >>> 0;
  }
  if (opts.permute ?? true) {
    const perm = permutation(n, rng);
    for (let e = 0; e < m; e++) {
      src[e] = perm[src[e]!]!;
      dst[e] = perm[dst[e]!]!;
    }
  }
  const out: EdgeList = { n, src, dst };
  if (opts.weights) out.weight = randomWeights(m, rng);
  return out;
}

export interface PlantedOptions {
  n: number;
  /** Number of communities (contiguous, near-equal blocks before the optional permutation). */
  k: number;
  /** Probability of each ordered pair (u, v), u != v, inside one community. */
  pIn: number;
  /** Probability of each ordered pair across two communities. */
  pOut: number;
  seed: number;
  permute?: boolean;
  weights?: boolean;
}

/**
 * Planted-partition graph (stochastic block model with k equal blocks): every
 * ordered pair u != v is an arc with probability pIn (same block) or pOut.
 * Sampled exactly with geometric skips, so the cost is O(n + k^2 + m), not O(n^2).
 */
export function planted(opts: PlantedOptions): PlantedGraph {
  const { n, k, pIn, pOut, seed } = opts;
  if (!Number.isInteger(n) || n < 0) throw new Error(`Cannot generate planted partition: n must be an integer >= 0, got ${n}`);
  if (!Number.isInteger(k) || k < 1 || k > Math.max(1, n)) {
    throw new Error(`Cannot generate planted partition: k must be an integer in 1..n, got ${k}`);
  }
  for (const [name, p] of [['pIn', pIn], ['pOut', pOut]] as const) {
    if (!(p >= 0 && p <= 1)) throw new Error(`Cannot generate planted partition: ${name} must be in [0, 1], got ${p}`);
  }
  const rng = new Rng(seed);
  const start = new Uint32Array(k + 1);
  for (let i = 0; i <= k; i++) start[i] = Math.floor((i * n) / k);
  const srcs: number[] = [];
  const dsts: number[] = [];
  for (let A = 0; A < k; A++) {
    const a0 = start[A]!;
    const sa = start[A + 1]! - a0;
    for (let B = 0; B < k; B++) {
      const b0 = start[B]!;
      const sb = start[B + 1]! - b0;
      const p = A === B ? pIn : pOut;
      const pairs = sa * sb;
      if (p <= 0 || pairs === 0) continue;
      const logq = Math.log1p(-p);
      let idx = -1;
      for (;;) {
        if (p >= 1) idx += 1;
        else idx += 1 + Math.floor(Math.log1p(-rng.next01()) / logq);
        if (idx >= pairs) break;
        const u = a0 + Math.floor(idx / sb);
        const v = b0 + (idx % sb);
        if (u === v) continue;
        srcs.push(u);
        dsts.push(v);
      }
    }
  }
  const m = srcs.length;
  const src = Uint32Array.from(srcs);
  const dst = Uint32Array.from(dsts);
  const membership = new Uint32Array(n);
  for (let A = 0; A < k; A++) membership.fill(A, start[A]!, start[A + 1]!);
  // Shuffle the edge order so builders do not get pre-sorted input.
  for (let i = m - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const ts = src[i]!;
    src[i] = src[j]!;
    src[j] = ts;
    const td = dst[i]!;
    dst[i] = dst[j]!;
    dst[j] = td;
  }
  if (opts.permute ?? true) {
    const perm = permutation(n, rng);
    for (let e = 0; e < m; e++) {
      src[e] = perm[src[e]!]!;
      dst[e] = perm[dst[e]!]!;
    }
    const planted = new Uint32Array(n);
    for (let v = 0; v < n; v++) planted[perm[v]!] = membership[v]!;
    membership.set(planted);
  }
  const out: PlantedGraph = { n, src, dst, membership, k };
  if (opts.weights) out.weight = randomWeights(m, rng);
  return out;
}

/** Planted partition by expected degrees: each node gets ~degIn arcs inside its block and ~degOut across. */
export function plantedByDegree(o: { n: number; k: number; degIn: number; degOut: number; seed: number; weights?: boolean }): PlantedGraph {
  const block = o.n / o.k;
  const pIn = block > 1 ? Math.min(1, o.degIn / (block - 1)) : 0;
  const pOut = o.n - block > 0 ? Math.min(1, o.degOut / (o.n - block)) : 0;
  return planted({ n: o.n, k: o.k, pIn, pOut, seed: o.seed, weights: o.weights });
}

/** Seeded Fisher-Yates permutation of 0..n-1. */
export function permutation(n: number, rng: Rng): Uint32Array {
  const p = new Uint32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
  return p;
}

function randomWeights(m: number, rng: Rng): Float64Array {
  const w = new Float64Array(m);
  for (let e = 0; e < m; e++) w[e] = 1 + (rng.nextU32() % 255);
  return w;
}
