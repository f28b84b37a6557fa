// scan at the compile() level: the Timestream refusal and its position, the parser's errors with
// their positions, and a cross-check of the one-step scan against row_cumsum on random input. The
// documented examples are in the conformance corpus (test/conformance/cases/op-scan-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb') =>
  compileFailure(query, options(dialect));

describe('scan', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is refused on Timestream at the operator, naming the operator and the engine', () => {
    // Act
    const error = failure('range x from 1 to 3 step 1\n| scan with (step s: true)', 'timestream');
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('2:3: scan is not supported on the timestream engine');
  });

  it.each([
    [
      'range x from 1 to 3 step 1 | scan with (step s1 output=first: true)',
      'QUERY_SYNTAX',
      "1:56: a step's output is all, last or none, not 'first'",
    ],
    ['range x from 1 to 3 step 1 | scan with (s1: true)', 'QUERY_SYNTAX', "1:41: expected 'step', found 's1'"],
    ['range x from 1 to 3 step 1 | scan (step s1: true)', 'QUERY_SYNTAX', "1:35: expected 'with', found '('"],
    ['range x from 1 to 3 step 1 | scan with (step s1: true => x)', 'QUERY_SYNTAX', "1:59: expected '=', found ')'"],
    [
      'range x from 1 to 3 step 1 | scan declare (x:long) with (step s1: true)',
      'QUERY_SEMANTIC',
      "1:44: a column named 'x' already exists",
    ],
    [
      'range x from 1 to 3 step 1 | scan declare (c:long) with (step s1: s1.y > 1)',
      'QUERY_SEMANTIC',
      "1:67: unknown column 'y' in the state of step 's1'",
    ],
    [
      'range x from 1 to 3 step 1 | scan declare (c:long) with (step s1: x => c = "a")',
      'QUERY_SEMANTIC',
      "1:67: a scan step's condition must be a bool expression, got long",
    ],
  ])('rejects %j', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('agrees with row_cumsum restarting where a condition holds, on random input', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 30 }), async (xs) => {
        // Prepare: a running sum that restarts at each negative value, written both ways.
        const source = `datatable (i:long, v:long) [${xs.map((x, i) => `${i}, ${x}`).join(', ')}] | sort by i asc`;
        const scanned = `${source} | scan declare (s:long=0) with (step a: true => s = iff(v < 0, v, a.s + v)) | project s`;
        const summed = `${source} | extend s = row_cumsum(v, v < 0) | project s`;
        const run = async (q: string): Promise<unknown[][]> => {
          const compiled = compile(q, options('duckdb'));
          return convertRows(await runSql(db, compiled.sql), ['long']);
        };
        // Act
        const [a, b] = [await run(scanned), await run(summed)];
        // Assess
        expect(a).toEqual(b);
      }),
      { seed: 15, numRuns: 25 },
    );
  });
});
