// resultTableNames: the tables a query ending in fork/facet answers, read by the Kusto routes
// before running anything; a query it cannot read (bad, or over the length limit) has none.
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUERY_LIMITS, resultTableNames } from '../../../lib/query/index';

describe('resultTableNames', () => {
  it('names each leg of a fork, by name= or the default', () => {
    // Act
    const names = resultTableNames('range x from 1 to 3 step 1 | fork (count) (take 1 | as Firsts)');
    // Assess
    expect(names).toEqual(['PrimaryResult', 'Firsts']);
  });

  it('has none for a query without fork, a syntax error, or a text over the length limit', () => {
    // Arrange: a fork padded with a comment past the limit, which compile() refuses too.
    const padded = `range x from 1 to 3 step 1 | fork (count) (take 1) // ${'x'.repeat(DEFAULT_QUERY_LIMITS.maxQueryLength)}`;
    // Act, Assess
    expect(resultTableNames('print 1')).toBeUndefined();
    expect(resultTableNames('range x from | fork (count)')).toBeUndefined();
    expect(resultTableNames(padded)).toBeUndefined();
  });
});
