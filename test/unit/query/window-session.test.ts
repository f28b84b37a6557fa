// row_window_session at the compile() level: what each dialect accepts or refuses, the errors'
// positions, and a cross-check of the SQL against the docs' conceptual model (a loop over the rows)
// on random input. The documented example is in the conformance corpus
// (test/conformance/cases/op-row-window-session-*.json).
import type { DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...GOLDEN_OPTIONS, dialect });

const failure = (query: string, dialect: CompileOptions['dialect'] = 'duckdb') =>
  compileFailure(query, options(dialect));

/** The docs' model: walk the values in order, deciding at each whether a new session starts. */
function sessions(
  values: readonly (number | null)[],
  fromFirst: number,
  neighbors: number,
  restart: boolean[],
): (number | null)[] {
  let start: number | null = null;
  let prev: number | null = null;
  return values.map((v, i) => {
    const fresh =
      i === 0 ||
      start === null ||
      v === null ||
      prev === null ||
      v - start >= fromFirst ||
      v - prev >= neighbors ||
      restart[i]!;
    if (fresh) start = v;
    prev = v;
    return start;
  });
}

describe('row_window_session', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  it('is refused on Timestream at the call, naming the function and the engine', () => {
    // Act
    const error = failure(
      'States\n| sort by Timestamp asc\n| extend s = row_window_session(Timestamp, 1h, 5m)',
      'timestream',
    );
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toBe('3:14: row_window_session is not supported on the timestream engine');
  });

  it.each([
    [
      'range t from 1 to 2 step 1 | serialize s = row_window_session(t, 1h)',
      'QUERY_SEMANTIC',
      '1:44: row_window_session() takes 3 to 4 arguments, not 2',
    ],
    [
      'States | sort by Timestamp asc | extend s = row_window_session(Timestamp, 1h, 5)',
      'QUERY_SEMANTIC',
      '1:79: the maximum distance between neighbors of row_window_session() must be a timespan, got long',
    ],
    [
      'States | sort by Timestamp asc | extend s = row_window_session(Timestamp, Timestamp - Timestamp, 5m)',
      'QUERY_UNSUPPORTED',
      '1:75: the maximum distance from the first value of row_window_session() must be a constant timespan',
    ],
    [
      'States | sort by Timestamp asc | extend s = row_window_session(Timestamp, 1h, 5m, 1)',
      'QUERY_SEMANTIC',
      '1:83: the restart argument of row_window_session() must be a bool, got long',
    ],
    [
      'States | extend s = row_window_session(Timestamp, 1h, 5m)',
      'QUERY_SEMANTIC',
      '1:21: row_window_session() needs serialized input',
    ],
  ])('rejects %j', (query, code, message) => {
    // Act
    const error = failure(query);
    // Assess
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('matches the docs model on random minutes, limits and restarts', async () => {
    const row = fc.record({ minute: fc.option(fc.integer({ min: 0, max: 240 }), { freq: 8 }), restart: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 30 }),
        async (rows, fromFirst, neighbors) => {
          // Prepare
          const iso = (m: number): string =>
            new Date(Date.UTC(2024, 0, 1) + m * 60_000).toISOString().replace('.000Z', 'Z');
          const values = rows.map((r) => `datetime(${r.minute === null ? 'null' : iso(r.minute)})`);
          const query =
            `datatable (i:long, t:datetime, r:bool) [${rows.map((r, i) => `${i}, ${values[i]}, ${r.restart}`).join(', ')}]` +
            ` | sort by i asc | extend s = row_window_session(t, ${fromFirst}m, ${neighbors}m, r) | project s`;
          const expected = sessions(
            rows.map((r) => r.minute),
            fromFirst,
            neighbors,
            rows.map((r) => r.restart),
          ).map((m) => [m === null ? null : iso(m)]);
          // Act
          const compiled = compile(query, options('duckdb'));
          const got = convertRows(await runSql(db, compiled.sql), ['datetime']);
          // Assess
          expect(got).toEqual(expected);
        },
      ),
      { seed: 15, numRuns: 40 },
    );
  });
});
