// materialize() at the compile() level: one CTE however many times the let is read on DuckDB, and on
// Timestream (no such guarantee) the let's text at each use when it is deterministic, else a
// positioned refusal. The results are in the conformance corpus (op-engine-materialize-*,
// op-probe-materialize-sample-once).
import { describe, expect, it } from 'vitest';
import { compile } from '../../../lib/query/index';
import { baseOptions, compileFailure } from './compile-failure';

const twice = (body: string): string => `let m = materialize(${body});\nunion (m | count), (m | count)`;

describe('materialize()', () => {
  it('is written once on DuckDB as a materialized CTE that both uses read', () => {
    // Act
    const { sql } = compile(twice('range x from 1 to 10 step 1 | sample 3'), { ...baseOptions, dialect: 'duckdb' });
    // Assess
    expect(sql.match(/AS MATERIALIZED/g)).toHaveLength(1);
    expect(sql.match(/random\(\)/g)).toHaveLength(1);
  });

  it('writes a deterministic let at each use on Timestream', () => {
    // Act
    const { sql } = compile(twice('States | where Name == "temperature"'), { ...baseOptions, dialect: 'timestream' });
    // Assess
    expect(sql).not.toContain('MATERIALIZED');
    expect(sql.match(/'temperature'/g)).toHaveLength(2);
  });

  it.each([
    ['sample', 'States | sample 3'],
    ['rand()', 'States | extend r = rand()'],
  ])('is refused on Timestream when it picks at random (%s), with a position', (_, body) => {
    // Act
    const error = compileFailure(twice(body), { ...baseOptions, dialect: 'timestream' });
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(
      /^\d+:\d+: materialize\(\) of random rows or values is not supported on the timestream engine$/,
    );
  });
});
