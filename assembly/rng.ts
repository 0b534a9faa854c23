// Seeded pseudo-random numbers for the randomized kernels (Louvain/Leiden node order, Leiden's
// refinement choice, betweenness pivots). The module must import nothing, so no Math.random:
// seeds are arguments and this generator is the only source of randomness.
// Algorithm: SplitMix64 (Steele, Lea, Flood, "Fast Splittable Pseudorandom Number Generators",
//   OOPSLA 2014): a Weyl sequence (+0x9E3779B97F4A7C15) through a 64-bit finalizer. Good enough for
//   shuffles and sampling, one multiply-heavy step per draw, no tables.
// Determinism: the stream depends only on the seed; test/reference/rng.ts reproduces it in TS.
// State: one module global (kernels run one at a time; each randomized kernel reseeds first).

let state: u64 = 0;

/** Start the stream for `seed`. */
export function rngSeed(seed: u64): void {
  state = seed;
}

/** Next 64 random bits. */
// @ts-ignore: decorator
@inline export function rngNext(): u64 {
  state += 0x9E3779B97F4A7C15;
  let z = state;
  z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9;
  z = (z ^ (z >>> 27)) * 0x94D049BB133111EB;
  return z ^ (z >>> 31);
}

/** Integer in [0, bound) (multiply-shift on the high 32 bits; bias < bound / 2^32). */
export function rngBelow(bound: u32): u32 {
  return <u32>(((rngNext() >>> 32) * <u64>bound) >>> 32);
}

/** Double in [0, 1) with 53 random bits. */
export function rngUnit(): f64 {
  return <f64>(rngNext() >>> 11) * (1.0 / 9007199254740992.0);
}

/** Fisher-Yates shuffle of u32[count] at `ptr`, in place (from the last slot down). */
export function rngShuffle(ptr: usize, count: u32): void {
  if (count < 2) return;
  for (let i: u32 = count - 1; i > 0; i--) {
    const j = rngBelow(i + 1);
    const pi = ptr + (<usize>i << 2);
    const pj = ptr + (<usize>j << 2);
    const t = load<u32>(pi);
    store<u32>(pi, load<u32>(pj));
    store<u32>(pj, t);
  }
}
