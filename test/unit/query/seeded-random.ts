// A small deterministic generator (mulberry32) for tests that sample inputs: the same seed gives the
// same values on every run, so a failure names a reproducible input.

/** Numbers in [0, 1) from the seed. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
