/**
 * Adjacency-list references for graphs too big for test/reference/graph.ts's quadratic oracles:
 * straightforward textbook versions (Kosaraju, union-find, lazy-heap Dijkstra, queue BFS).
 */

export interface BigGraph {
  n: number;
  src: Uint32Array;
  dst: Uint32Array;
  rel: Uint8Array;
  weight: Float64Array;
}

const has = (mask: number, r: number) => ((mask >>> r) & 1) === 1;

/** Adjacency lists (edge ids, input order) of the edges in `mask`. */
export function adjacency(g: BigGraph, mask: number): { out: number[][]; in: number[][] } {
  const out: number[][] = Array.from({ length: g.n }, () => []);
  const inn: number[][] = Array.from({ length: g.n }, () => []);
  for (let e = 0; e < g.src.length; e++) {
    if (!has(mask, g.rel[e]!)) continue;
    out[g.src[e]!]!.push(e);
    inn[g.dst[e]!]!.push(e);
  }
  return { out, in: inn };
}

function canonical(raw: ArrayLike<number>): { count: number; label: number[] } {
  const map = new Map<number, number>();
  const label = Array.from(raw, (c) => {
    let l = map.get(c);
    if (l === undefined) map.set(c, (l = map.size));
    return l;
  });
  return { count: map.size, label };
}

export function bigWeak(g: BigGraph, mask: number): { count: number; label: number[] } {
  const parent = Array.from({ length: g.n }, (_, i) => i);
  const find = (v: number): number => {
    while (parent[v] !== v) v = parent[v] = parent[parent[v]!]!;
    return v;
  };
  for (let e = 0; e < g.src.length; e++) {
    if (has(mask, g.rel[e]!)) parent[find(g.src[e]!)] = find(g.dst[e]!);
  }
  return canonical(Array.from({ length: g.n }, (_, v) => find(v)));
}

/** Kosaraju: finish order on the graph, then components on the reverse in reverse finish order. */
export function bigStrong(g: BigGraph, mask: number): { count: number; label: number[] } {
  const { out, in: inn } = adjacency(g, mask);
  const seen = new Uint8Array(g.n);
  const order: number[] = [];
  for (let r = 0; r < g.n; r++) {
    if (seen[r]) continue;
    const stack: [number, number][] = [[r, 0]];
    seen[r] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const [u, i] = top;
      if (i < out[u]!.length) {
        top[1]++;
        const v = g.dst[out[u]![i]!]!;
        if (!seen[v]) { seen[v] = 1; stack.push([v, 0]); }
      } else {
        stack.pop();
        order.push(u);
      }
    }
  }
  const comp = new Int32Array(g.n).fill(-1);
  let c = 0;
  for (let k = order.length - 1; k >= 0; k--) {
    const r = order[k]!;
    if (comp[r] !== -1) continue;
    const stack = [r];
    comp[r] = c;
    while (stack.length) {
      const u = stack.pop()!;
      for (const e of inn[u]!) {
        const v = g.src[e]!;
        if (comp[v] === -1) { comp[v] = c; stack.push(v); }
      }
    }
    c++;
  }
  return canonical(comp);
}

export function bigDijkstra(g: BigGraph, source: number, mask: number): number[] {
  const { out } = adjacency(g, mask);
  const dist = new Array<number>(g.n).fill(Infinity);
  dist[source] = 0;
  const heap: [number, number][] = [[0, source]];
  const push = (item: [number, number]) => {
    heap.push(item);
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (heap[p]![0] <= heap[i]![0]) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  };
  const pop = (): [number, number] => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        let m = i;
        for (const c of [2 * i + 1, 2 * i + 2]) if (c < heap.length && heap[c]![0] < heap[m]![0]) m = c;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };
  while (heap.length) {
    const [d, u] = pop();
    if (d > dist[u]!) continue;
    for (const e of out[u]!) {
      const v = g.dst[e]!;
      const nd = d + g.weight[e]!;
      if (nd < dist[v]!) { dist[v] = nd; push([nd, v]); }
    }
  }
  return dist;
}

/** The core's reverse-reach order: seeds, then per level frontier order x in-edges in input order. */
export function bigReverseReach(g: BigGraph, seeds: number[], k: number, mask: number): { nodes: number[]; depth: number[]; via: number[] } {
  const { in: inn } = adjacency(g, mask);
  const seen = new Uint8Array(g.n);
  const nodes: number[] = [];
  const depth: number[] = [];
  const via: number[] = [];
  for (const s of seeds) if (!seen[s]) { seen[s] = 1; nodes.push(s); depth.push(0); via.push(255); }
  let head = 0;
  for (let level = 0; level < k && head < nodes.length; level++) {
    const end = nodes.length;
    for (let i = head; i < end; i++) {
      for (const e of inn[nodes[i]!]!) {
        const u = g.src[e]!;
        if (seen[u]) continue;
        seen[u] = 1; nodes.push(u); depth.push(level + 1); via.push(g.rel[e]!);
      }
    }
    head = end;
  }
  return { nodes, depth, via };
}

export function bigBfs(g: BigGraph, source: number, mask: number, undirected: boolean): Int32Array {
  const { out, in: inn } = adjacency(g, mask);
  const dist = new Int32Array(g.n).fill(-1);
  const q = [source];
  dist[source] = 0;
  for (let i = 0; i < q.length; i++) {
    const u = q[i]!;
    const next = out[u]!.map((e) => g.dst[e]!);
    if (undirected) for (const e of inn[u]!) next.push(g.src[e]!);
    for (const v of next) if (dist[v] === -1) { dist[v] = dist[u]! + 1; q.push(v); }
  }
  return dist;
}

/** Pull power iteration, `iterations` steps from 1/n (uniform teleport). */
export function bigPagerank(g: BigGraph, iterations: number, mask: number, alpha = 0.85): Float64Array {
  const { out, in: inn } = adjacency(g, mask);
  const n = g.n;
  let x = new Float64Array(n).fill(1 / n);
  for (let it = 0; it < iterations; it++) {
    let dangling = 0;
    for (let u = 0; u < n; u++) if (out[u]!.length === 0) dangling += x[u]!;
    const nx = new Float64Array(n);
    for (let v = 0; v < n; v++) {
      let sum = 0;
      for (const e of inn[v]!) sum += x[g.src[e]!]! / out[g.src[e]!]!.length;
      nx[v] = alpha * sum + (1 - alpha + alpha * dangling) / n;
    }
    x = nx;
  }
  return x;
}
