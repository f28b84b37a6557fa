// Work a compile does once per process and never again (the Unicode sets behind the regex page's
// Perl classes and the case classes the i flag folds with, regex-codepoints.ts): its time is left out of the compile budget (limits.ts), so
// that the first query of a process to need it is not refused for a cost no later query pays.
// Only a fixed list of such work is timed here, so no query can grow what the budget leaves out.

let spentMs = 0;

/** Milliseconds spent so far in the process on work done once (`once`). */
export const oncePerProcessMs = (): number => spentMs;

/** Runs `work`, adding its time to oncePerProcessMs. */
export function once<T>(work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    spentMs += performance.now() - start;
  }
}
