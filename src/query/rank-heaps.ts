import type { NodeId } from '../graph/model.ts';

/** The heaps of the ranking (rank.ts): best-k selection by (score desc, id asc), and the expansion frontier. */

/** a ranks before b: higher score, then lower id. */
function ahead(sa: number, va: number, sb: number, vb: number): boolean {
  return sa > sb || (sa === sb && va < vb);
}

/**
 * Sort ids h[0..size) into (score desc, id asc) order (h is clobbered): a heap sort with the
 * comparisons inline, where Array#sort would call a comparator closure per comparison. The order is
 * total (ids are distinct), so the result is the one any correct sort gives.
 */
function sortBest(h: Int32Array, size: number, score: Float64Array, stride: number, offset: number): NodeId[] {
  // A heap with the weakest at the root; popping the weakest each time lists them from the back.
  for (let i = (size >> 1) - 1; i >= 0; i--) siftWeakest(h, i, size, score, stride, offset);
  const out: NodeId[] = [];
  for (let end = size - 1; end >= 0; end--) {
    out.push(h[0]!);
    h[0] = h[end]!;
    siftWeakest(h, 0, end, score, stride, offset);
  }
  return out.reverse();
}

/** Sift h[i] down a heap of `size` ids whose root is the weakest (lowest score, then highest id). */
function siftWeakest(h: Int32Array, i: number, size: number, score: Float64Array, stride: number, offset: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < size && ahead(score[h[m]! * stride + offset]!, h[m]!, score[h[l]! * stride + offset]!, h[l]!)) m = l;
    if (r < size && ahead(score[h[m]! * stride + offset]!, h[m]!, score[h[r]! * stride + offset]!, h[r]!)) m = r;
    if (m === i) return;
    const t = h[i]!;
    h[i] = h[m]!;
    h[m] = t;
    i = m;
  }
}

/**
 * The k best of the first `count` ids by (score desc, id asc), in that order: a bounded heap, then a
 * sort of k. An id's score is `score[id * stride + offset]` (a field of a record per id, or a column).
 */
export function topMatches(ids: Int32Array, count: number, score: Float64Array, k: number, stride = 1, offset = 0): NodeId[] {
  if (count <= k) return sortBest(ids.slice(0, count), count, score, stride, offset);
  // Min-heap of the k best so far: the weakest of them at the root.
  const h = new Int32Array(k);
  let size = 0;
  const weaker = (i: number, j: number): boolean => ahead(score[h[j]! * stride + offset]!, h[j]!, score[h[i]! * stride + offset]!, h[i]!);
  for (let c = 0; c < count; c++) {
    const v = ids[c]!;
    if (size < k) {
      let i = size++;
      h[i] = v;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!weaker(i, p)) break;
        const t = h[i]!;
        h[i] = h[p]!;
        h[p] = t;
        i = p;
      }
      continue;
    }
    const root = h[0]!;
    if (!ahead(score[v * stride + offset]!, v, score[root * stride + offset]!, root)) continue;
    h[0] = v;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && weaker(l, m)) m = l;
      if (r < size && weaker(r, m)) m = r;
      if (m === i) break;
      const t = h[i]!;
      h[i] = h[m]!;
      h[m] = t;
      i = m;
    }
  }
  return sortBest(h, size, score, stride, offset);
}

/**
 * The expansion frontier: a binary max-heap on priority; ties go to the lower depth (bfs) or the
 * higher depth (dfs), then the lower node id. The pop order is fully determined by those keys.
 */
export class FrontierHeap {
  private node: Int32Array = new Int32Array(256);
  private depth: Int32Array = new Int32Array(256);
  private prio: Float64Array = new Float64Array(256);
  size = 0;
  private bfs = true;

  /** Empty the heap for a new call (its arrays are kept). */
  reset(bfs: boolean): void {
    this.size = 0;
    this.bfs = bfs;
  }

  topNode(): number {
    return this.node[0]!;
  }

  topDepth(): number {
    return this.depth[0]!;
  }

  topPriority(): number {
    return this.prio[0]!;
  }

  private before(i: number, j: number): boolean {
    const d = this.prio[i]! - this.prio[j]!;
    if (d !== 0) return d > 0;
    const dd = this.bfs ? this.depth[i]! - this.depth[j]! : this.depth[j]! - this.depth[i]!;
    return (dd || this.node[i]! - this.node[j]!) < 0;
  }

  private swap(i: number, j: number): void {
    const n = this.node[i]!;
    this.node[i] = this.node[j]!;
    this.node[j] = n;
    const d = this.depth[i]!;
    this.depth[i] = this.depth[j]!;
    this.depth[j] = d;
    const p = this.prio[i]!;
    this.prio[i] = this.prio[j]!;
    this.prio[j] = p;
  }

  push(v: number, depth: number, priority: number): void {
    if (this.size === this.node.length) {
      const grow = <T extends Int32Array | Float64Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.node = grow(this.node);
      this.depth = grow(this.depth);
      this.prio = grow(this.prio);
    }
    let i = this.size++;
    this.node[i] = v;
    this.depth[i] = depth;
    this.prio[i] = priority;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): void {
    const last = --this.size;
    if (last > 0) {
      this.node[0] = this.node[last]!;
      this.depth[0] = this.depth[last]!;
      this.prio[0] = this.prio[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < last && this.before(l, m)) m = l;
        if (r < last && this.before(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
  }
}
