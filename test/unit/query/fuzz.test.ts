// The compiler's fuzz property in `npm test`: a fixed seed and a bounded number of runs (a few
// seconds), so a failure here is reproducible. `npm run fuzz` runs the same property longer, with
// FUZZ_RUNS and FUZZ_SEED (test/unit/query/fuzz-run.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilesOrRefuses, corpus, fuzzInput, fuzzProperty } from './fuzz-arbitraries';

const SEED = 20261123;
const RUNS = 500;
/** A few seconds on an idle 2-core machine; the generous timeout only keeps a loaded one from failing it. */
const TIMEOUT_MS = 60_000;

describe('KQL compiler fuzz', () => {
  it('has a corpus of valid queries to mutate', () => {
    const queries = corpus();
    expect(queries.length).toBeGreaterThan(400);
    expect(compilesOrRefuses(queries[0]!).every((o) => o.ok)).toBe(true);
  });

  it('notices an input that breaks the property (the property can fail)', () => {
    // A throwing compile stands in for a broken compiler: the property must report it.
    expect(() => compilesOrRefuses(null as unknown as string)).toThrow(/not a QueryError/);
  });

  it(
    `compiles or refuses with a positioned QueryError, in both dialects, for ${RUNS} generated inputs`,
    () => {
      fc.assert(fuzzProperty(), { seed: SEED, numRuns: RUNS });
    },
    TIMEOUT_MS,
  );

  it(
    'reaches both outcomes and several limit codes with this seed (the inputs are not all rejected early)',
    () => {
      // Prepare
      const samples = fc.sample(fuzzInput(), { seed: SEED, numRuns: 300 });
      // Act
      const outcomes = samples.flatMap((q) => compilesOrRefuses(q));
      // Assess
      const codes = new Set(outcomes.flatMap((o) => (o.ok ? ['OK'] : [o.code])));
      expect(codes).toContain('OK');
      expect(codes).toContain('QUERY_SYNTAX');
      expect(codes).toContain('QUERY_SEMANTIC');
      expect(
        [...codes].filter((c) => c.startsWith('QUERY_TOO') || c === 'QUERY_NAME_TOO_LONG').length,
      ).toBeGreaterThanOrEqual(3);
    },
    TIMEOUT_MS,
  );
});
