// Refusals found by probing everyday queries (kql-probe6): each at its position, with a message a
// person can act on.
import { describe, it } from 'vitest';
import { baseOptions, expectRefusedAt } from './compile-failure';

const duckdb = { ...baseOptions, dialect: 'duckdb' as const };
const timestream = { ...baseOptions, dialect: 'timestream' as const };

describe('replace(regex, rewrite, text), the deprecated form of replace_regex', () => {
  it('checks the regex at its first argument, not at the second as replace_regex does', () => {
    expectRefusedAt("print r = replace('a(', 'x', 'abc')", duckdb, {
      code: 'QUERY_SEMANTIC',
      message: 'invalid regular expression',
      position: '1:19',
    });
  });

  it('wants a constant rewrite on Timestream too, at the second argument', () => {
    expectRefusedAt("print s = 'x' | extend r = replace('a', s, 'abc')", timestream, {
      code: 'QUERY_SEMANTIC',
      message: 'constant',
      position: '1:41',
    });
  });
});
