// Refusals found by probing everyday queries (kql-probe5): each at its position, with a message a
// person can act on.
import { describe, it } from 'vitest';
import { baseOptions, expectRefusedAt } from './compile-failure';

const duckdb = { ...baseOptions, dialect: 'duckdb' as const };

describe('find withsource=', () => {
  it('refuses a name that is a column of another type than string, at withsource', () => {
    expectRefusedAt('find withsource=Value in (States) where Name has "temp"', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: 'withsource=Value names a dynamic column of the tables of find; choose another name',
      position: '1:17',
    });
  });
});
