/**
 * A lazily built value whose build is a generator that yields between slices of its work. `get()`
 * builds it whole (or finishes a build already under way) when a call needs it; `step(deadline)`
 * advances the build until a deadline, so a server can build its indexes in idle time, a couple of
 * milliseconds at a time, without ever holding a call for the whole build. Browser-safe.
 */
export class Sliced<T> {
  #build: (() => Generator<void, T, void>) | undefined;
  #run: Generator<void, T, void> | undefined;
  #value: T | undefined;

  constructor(build: () => Generator<void, T, void>) {
    this.#build = build;
  }

  get built(): boolean {
    return this.#build === undefined;
  }

  get(): T {
    if (this.#build) this.step(Infinity);
    return this.#value as T;
  }

  /**
   * Take a value built elsewhere (a worker thread, from the same graph) instead of building it; a
   * build under way is dropped. False, and nothing changes, when the value was built already.
   */
  adopt(value: T): boolean {
    if (!this.#build) return false;
    this.#value = value;
    this.#build = undefined;
    this.#run = undefined;
    return true;
  }

  /** Advance the build until `deadline` (a performance.now() time); true once it is built. */
  step(deadline: number): boolean {
    if (!this.#build) return true;
    const run = (this.#run ??= this.#build());
    for (;;) {
      const next = run.next();
      if (next.done) {
        this.#value = next.value;
        this.#build = undefined;
        this.#run = undefined;
        return true;
      }
      if (performance.now() >= deadline) return false;
    }
  }
}

/** One warm-up task: advance until the deadline, true when done. */
export type WarmStep = (deadline: number) => boolean;

/** A task done in one piece (cheap enough not to slice), as a WarmStep. */
export function whole(task: () => void): WarmStep {
  return () => {
    task();
    return true;
  };
}

/** Items an index build handles between two yields (well under a millisecond of work). */
export const SLICE_ITEMS = 1024;
