/** A binary max-heap of (item, priority) pairs with a caller-supplied tie-break. Browser-safe. */
export class MaxHeap<T> {
  private items: T[] = [];
  private prio: number[] = [];
  constructor(private readonly tieBreak: (a: T, b: T) => number = () => 0) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T, priority: number): void {
    this.items.push(item);
    this.prio.push(priority);
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): { item: T; priority: number } | undefined {
    if (!this.items.length) return undefined;
    const top = { item: this.items[0]!, priority: this.prio[0]! };
    const lastItem = this.items.pop()!;
    const lastPrio = this.prio.pop()!;
    if (this.items.length) {
      this.items[0] = lastItem;
      this.prio[0] = lastPrio;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < this.items.length && this.before(l, best)) best = l;
        if (r < this.items.length && this.before(r, best)) best = r;
        if (best === i) break;
        this.swap(i, best);
        i = best;
      }
    }
    return top;
  }

  private before(i: number, j: number): boolean {
    const d = this.prio[i]! - this.prio[j]!;
    if (d !== 0) return d > 0;
    return this.tieBreak(this.items[i]!, this.items[j]!) < 0;
  }

  private swap(i: number, j: number): void {
    [this.items[i], this.items[j]] = [this.items[j]!, this.items[i]!];
    [this.prio[i], this.prio[j]] = [this.prio[j]!, this.prio[i]!];
  }
}
